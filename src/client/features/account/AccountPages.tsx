import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent } from 'react';
import { maskBrazilianPhone, normalizePhone } from '../../../shared/domain/phone';
import { PRESENCES } from '../../../shared/schemas/identity';
import { chooseLocale, isLocale, LOCALE_NAMES, LOCALES } from '../../i18n';
import { trpc } from '../../trpc';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { AvatarUpload } from './AvatarUpload';

function useMe() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 30_000 }).data?.user ?? null;
}

/** /i/myAccount: who I am (photo, name, phone, e-mail) and where I am signed in. */
export function MyAccountPage() {
  const { t } = useLingui();
  const me = useMe();
  if (!me) return <Spinner />;
  return (
    <section className="page account-page">
      <PageTitle title={t`My account`} />
      <AvatarUpload userId={me.id} name={me.name} hasAvatar={me.hasAvatar} />
      <ProfileForm name={me.name} phone={me.phone} email={me.email} emailVerified={me.emailVerified} />
      <SessionList />
    </section>
  );
}

function ProfileForm(props: { name: string; phone: string | null; email: string | null; emailVerified: boolean }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  // Stored with the country code; a Brazilian number is edited without it.
  const [name, setName] = useState(props.name);
  const [phone, setPhone] = useState(maskBrazilianPhone(props.phone?.replace(/^55(?=\d{10,11}$)/, '') ?? ''));
  const [saved, setSaved] = useState(false);
  // A new number is attached only once the code sent to it comes back (the server's rule).
  const [pendingPhone, setPendingPhone] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const update = trpc.account.update.useMutation();
  const requestCode = trpc.account.requestPhoneChange.useMutation();
  const confirmCode = trpc.account.confirmPhoneChange.useMutation({
    onSuccess: async () => {
      setPendingPhone(null);
      setCode('');
      setSaved(true);
      await utils.auth.me.invalidate();
    },
  });
  useEffect(() => setSaved(false), [name, phone]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPendingPhone(null);
    const typed = phone.trim() === '' ? '' : normalizePhone(phone);
    const changed = typed !== null && typed !== '' && typed !== props.phone;
    try {
      // The name (and a removed number) are saved at once; a new number waits for its code.
      await update.mutateAsync(changed ? { name } : { name, phone: typed ?? phone });
      await utils.auth.me.invalidate();
      if (!changed) return setSaved(true);
      await requestCode.mutateAsync({ phone });
      setPendingPhone(phone);
    } catch {
      // Shown below from the mutation's error.
    }
  }
  const error = update.error ?? requestCode.error ?? confirmCode.error;
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <label>
        <span>
          <Trans>Name</Trans>
        </span>
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} autoComplete="name" />
      </label>
      <label>
        <span>
          <Trans>Phone</Trans>
        </span>
        <input value={phone} onChange={(e) => setPhone(maskBrazilianPhone(e.target.value))} inputMode="tel" autoComplete="tel-national" placeholder="(11) 98765-4321" />
      </label>
      <label>
        <span>
          <Trans>E-mail</Trans>
        </span>
        <input value={props.email ?? ''} readOnly aria-describedby="email-state" />
        <small id="email-state" className="muted">
          {props.email ? (props.emailVerified ? <Trans>Verified</Trans> : <Trans>Not verified yet</Trans>) : <Trans>No e-mail</Trans>}
        </small>
      </label>
      {pendingPhone && (
        <div className="account-phone-code">
          <p role="status">
            <Trans>We sent a code by SMS to {maskBrazilianPhone(pendingPhone)}. Type it to confirm the number.</Trans>
          </p>
          <label>
            <span>
              <Trans>Code sent by SMS</Trans>
            </span>
            <input value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))} inputMode="numeric" autoComplete="one-time-code" />
          </label>
          <button
            className="button"
            type="button"
            disabled={confirmCode.isPending || code.length !== 6}
            onClick={() => confirmCode.mutate({ phone: pendingPhone, code })}
          >
            {t`Confirm number`}
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error.message}
        </p>
      )}
      {saved && (
        <p className="form-success" role="status">
          <Trans>Changes saved successfully!</Trans>
        </p>
      )}
      <button className="button" type="submit" disabled={update.isPending || requestCode.isPending}>
        {t`Save`}
      </button>
    </form>
  );
}

function describeDevice(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /(Edg|Chrome|Firefox|Safari)\/[\d.]+/.exec(userAgent)?.[1]?.replace('Edg', 'Edge') ?? userAgent.slice(0, 40);
  const system = /(Windows|Mac OS X|Android|iPhone|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS') ?? '';
  return system ? `${browser} · ${system}` : browser;
}

function SessionList() {
  const { t, i18n } = useLingui();
  const utils = trpc.useUtils();
  const sessions = trpc.account.sessions.useQuery();
  const revoke = trpc.account.revokeSession.useMutation({
    onSuccess: async (_data, vars) => {
      const current = sessions.data?.find((s) => s.current);
      if (current?.id === vars.id) window.location.assign('/i/login');
      else await utils.account.sessions.invalidate();
    },
  });
  const when = (d: Date) => i18n.date(d, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <section className="account-sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">
        <Trans>Where you are signed in</Trans>
      </h2>
      {sessions.isLoading && <Spinner />}
      <ul>
        {sessions.data?.map((s) => (
          <li key={s.id}>
            <div>
              <strong>{describeDevice(s.userAgent)}</strong>
              {s.current && (
                <span className="badge badge-ok">
                  <Trans>This device</Trans>
                </span>
              )}
              <div className="muted">
                {s.ip ?? ''} · <Trans>last active {when(s.lastSeenAt)}</Trans>
              </div>
            </div>
            <button type="button" className="button button-secondary" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: s.id })}>
              {s.current ? t`Sign out here` : t`End session`}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /i/settingsUser: language, presence, and which sounds and notifications to get. */
export function UserSettingsPage() {
  const me = useMe();
  if (!me) return <Spinner />;
  return <UserSettingsForm presence={me.presence} settings={me.settings} />;
}

type Presence = (typeof PRESENCES)[number];
type SoundFlags = { playMessagensReceive: boolean; playFila: boolean; playNotificationFila: boolean };

function UserSettingsForm(props: { presence: string; settings: SoundFlags }) {
  const { t, i18n } = useLingui();
  const utils = trpc.useUtils();
  // The switches are this screen's own state: they flip on click, then the server confirms; on
  // failure they go back to what the server holds.
  const [presence, setPresence] = useState(props.presence);
  const [settings, setSettings] = useState(props.settings);
  const update = trpc.account.update.useMutation({
    onSuccess: (fresh) => utils.auth.me.setData(undefined, fresh),
    onError: () => {
      setPresence(props.presence);
      setSettings(props.settings);
    },
  });

  const presences = [
    ['online', t`Available`],
    ['occupied', t`Busy`],
    ['beRightBack', t`Be right back`],
    ['invisible', t`Invisible`],
  ] as const;
  const flags = [
    ['playMessagensReceive', t`Play a sound when a message arrives`],
    ['playFila', t`Play a sound while customers wait in the queue`],
    ['playNotificationFila', t`Notify me when a customer joins the queue`],
  ] as const;

  return (
    <section className="page account-page">
      <PageTitle title={t`User settings`} />
      <form className="account-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          <span>
            <Trans>Language</Trans>
          </span>
          <select
            value={i18n.locale}
            onChange={(e) => {
              if (!isLocale(e.target.value)) return;
              void chooseLocale(e.target.value);
              update.mutate({ language: e.target.value });
            }}
          >
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>
            <Trans>Status</Trans>
          </span>
          <select
            value={presence}
            onChange={(e) => {
              setPresence(e.target.value);
              update.mutate({ presence: e.target.value as Presence });
            }}
          >
            {presences.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>
            <Trans>Sounds and notifications</Trans>
          </legend>
          {flags.map(([key, label]) => (
            <label key={key} className="checkbox">
              <input
                type="checkbox"
                checked={settings[key]}
                onChange={(e) => {
                  setSettings((before) => ({ ...before, [key]: e.target.checked }));
                  update.mutate({ settings: { [key]: e.target.checked } });
                }}
              />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        {update.error && (
          <p className="form-error" role="alert">
            {update.error.message}
          </p>
        )}
      </form>
    </section>
  );
}
