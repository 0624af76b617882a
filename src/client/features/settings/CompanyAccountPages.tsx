import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { greetingInput, publicPageInput } from '../../../shared/schemas/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { ImageUpload } from '../../ui/ImageUpload';
import { Spinner } from '../../ui/Spinner';
import { useFormErrors } from '../login/formErrors';
import { AccountSummary } from './AccountSummary';
import { StorageUsage } from '../reports/StorageUsage';
import { AdditionalFields } from './AdditionalFields';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField, TextAreaField } from '../../ui/fields';
import { useServerText } from './serverText';

/** /i/settings/configCompany: the account (plan, credits, storage), links to the page and greeting, additional fields. */
export function CompanyAccountPage() {
  const { t } = useLingui();
  return (
    <AdminScreen title={t`Company account`}>
      {(company) => (
        <>
          <section className="settings-section" aria-labelledby="account-title">
            <h2 id="account-title">
              <Trans>Plan and usage</Trans>
            </h2>
            <AccountSummary domain={company.domain} />
            <StorageUsage domain={company.domain} />
          </section>
          <nav className="settings-links" aria-label={t`Company settings`}>
            <Link className="button button-secondary" to="edit_page">
              <Trans>Edit public page</Trans>
            </Link>
            <Link className="button button-secondary" to="greetings">
              <Trans>Greeting message</Trans>
            </Link>
            <Link className="button button-secondary" to="contactUs">
              <Trans>Contact Us</Trans>
            </Link>
          </nav>
          <CallSettings domain={company.domain} />
          <AdditionalFields domain={company.domain} />
        </>
      )}
    </AdminScreen>
  );
}

/** configuracoes.allowCallRecording: saved as soon as it is switched. */
function CallSettings({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const current = trpc.settings.callSettings.useQuery({ domain });
  const update = trpc.settings.updateCallSettings.useMutation({
    onSuccess: (saved) => utils.settings.callSettings.setData({ domain }, saved),
  });
  return (
    <section className="settings-section" aria-labelledby="calls-settings-title">
      <h2 id="calls-settings-title">
        <Trans>Calls</Trans>
      </h2>
      {current.isPending ? (
        <Spinner />
      ) : current.isError ? (
        <FormError message={serverText(current.error.message)} />
      ) : (
        <CheckboxField
          label={t`Allow call recording`}
          checked={current.data.allowCallRecording}
          disabled={update.isPending}
          onChange={(allowCallRecording) => update.mutate({ domain, allowCallRecording })}
        />
      )}
      {update.isError && <FormError message={serverText(update.error.message)} />}
    </section>
  );
}

/** Networks offered on the public page; others the company already has are kept and shown too. */
const SOCIAL_NETWORKS = ['facebook', 'instagram', 'linkedin', 'x', 'youtube', 'tiktok'] as const;
const NETWORK_NAMES: Record<string, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  x: 'X (Twitter)',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};
const PAGE_FIELDS = ['name', 'bio', 'website'] as const;

/** Every offered network with its value ('' when the company has none). */
function socialForm(saved: Record<string, string>): Record<string, string> {
  const all: Record<string, string> = Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, '']));
  return { ...all, ...saved };
}

/** /i/settings/configCompany/edit_page: the company's public page (name, bio, website, social networks). */
export function CompanyPageEditPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Edit company page`}>{(company) => <PublicPageLoader domain={company.domain} />}</AdminScreen>;
}

function PublicPageLoader({ domain }: { domain: string }) {
  const serverText = useServerText();
  const current = trpc.company.current.useQuery({ domain });
  if (current.isPending) return <Spinner />;
  if (current.isError) return <FormError message={serverText(current.error.message)} />;
  const c = current.data;
  return (
    <>
      <CompanyImage domain={domain} name={c.name} hasImage={c.hasImage} />
      <PublicPageForm domain={domain} initial={{ name: c.name, bio: c.bio, website: c.website ?? '', socialNetworks: socialForm(c.socialNetworks) }} />
    </>
  );
}

/** The image of the public page; saved on its own, as soon as it is chosen. */
function CompanyImage({ domain, name, hasImage }: { domain: string; name: string; hasImage: boolean }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  // Bumped after each upload: the same URL must be fetched again.
  const [version, setVersion] = useState(0);
  return (
    <ImageUpload
      url={`/uploads/company/${domain}/image`}
      pickLabel={t`Choose the company image`}
      progressLabel={t`Uploading image`}
      onUploaded={async () => {
        setVersion((v) => v + 1);
        await Promise.all([utils.company.current.invalidate({ domain }), utils.company.mine.invalidate()]);
      }}
      preview={
        hasImage || version > 0 ? (
          <img className="image-preview" src={`/companies/${domain}/image?v=${version}`} alt={t`Company image`} />
        ) : (
          <span className="image-preview avatar-initials" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        )
      }
    />
  );
}

type PublicPage = { name: string; bio: string; website: string; socialNetworks: Record<string, string> };

function PublicPageForm({ domain, initial }: { domain: string; initial: PublicPage }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const draft = useDraft(initial);
  const { errors, validate, showServerError } = useFormErrors(PAGE_FIELDS);
  const update = trpc.settings.updatePublicPage.useMutation();

  async function save(): Promise<boolean> {
    const input = validate(publicPageInput, draft.values);
    if (!input) return false;
    try {
      // The server drops empty networks (spec 5); the form shows what it kept.
      const saved = await update.mutateAsync({ domain, ...input });
      draft.commit({ name: saved.name, bio: saved.bio, website: saved.website ?? '', socialNetworks: socialForm(saved.socialNetworks) });
      await Promise.all([utils.company.current.invalidate({ domain }), utils.company.mine.invalidate()]);
      return true;
    } catch (err) {
      showServerError(err as Parameters<typeof showServerError>[0]);
      return false;
    }
  }
  const { values } = draft;
  return (
    <EditForm draft={draft} save={save} pending={update.isPending} error={errors.form}>
      <p className="muted">
        <Trans>
          What customers see at <Link to={`/${domain}`}>/{domain}</Link>.
        </Trans>
      </p>
      <TextField label={t`Company name`} value={values.name} onChange={(e) => draft.set('name', e.target.value)} error={errors.fields.name} maxLength={80} />
      <TextAreaField label={t`Bio`} value={values.bio} onChange={(e) => draft.set('bio', e.target.value)} error={errors.fields.bio} maxLength={1000} rows={4} />
      <TextField
        label={t`Website`}
        type="url"
        value={values.website}
        onChange={(e) => draft.set('website', e.target.value)}
        error={errors.fields.website}
        maxLength={300}
        placeholder="https://"
      />
      <fieldset className="checkbox-group">
        <legend>
          <Trans>Social networks</Trans>
        </legend>
        <p className="field-hint muted">
          <Trans>A profile address or handle. Networks left empty are not shown.</Trans>
        </p>
        {Object.keys(values.socialNetworks).map((network) => (
          <TextField
            key={network}
            label={NETWORK_NAMES[network] ?? network}
            value={values.socialNetworks[network] ?? ''}
            maxLength={300}
            onChange={(e) => draft.set('socialNetworks', { ...values.socialNetworks, [network]: e.target.value })}
          />
        ))}
      </fieldset>
    </EditForm>
  );
}

/** The placeholders a greeting may use, and what replaces them (spec: configuracoes.msgSaudacao). */
const CUSTOMER_PLACEHOLDER = '[nomecliente]';
const COMPANY_PLACEHOLDER = '[nomeempresa]';
const SAMPLE_CUSTOMER = 'Maria Silva';
const GREETING_FIELDS = ['greeting'] as const;

/** /i/settings/configCompany/greetings */
export function GreetingsPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Greeting message`}>{(company) => <GreetingLoader domain={company.domain} companyName={company.name} />}</AdminScreen>;
}

function GreetingLoader({ domain, companyName }: { domain: string; companyName: string }) {
  const serverText = useServerText();
  const greeting = trpc.settings.greeting.useQuery({ domain });
  if (greeting.isPending) return <Spinner />;
  if (greeting.isError) return <FormError message={serverText(greeting.error.message)} />;
  return <GreetingForm domain={domain} companyName={companyName} initial={greeting.data.greeting} />;
}

function GreetingForm({ domain, companyName, initial }: { domain: string; companyName: string; initial: string }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const draft = useDraft({ greeting: initial });
  const { errors, validate, showServerError } = useFormErrors(GREETING_FIELDS);
  const update = trpc.settings.updateGreeting.useMutation();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState<number | null>(null);

  async function save(): Promise<boolean> {
    const input = validate(greetingInput, draft.values);
    if (!input) return false;
    try {
      const saved = await update.mutateAsync({ domain, ...input });
      draft.commit(saved);
      await utils.settings.greeting.invalidate({ domain });
      return true;
    } catch (err) {
      showServerError(err as Parameters<typeof showServerError>[0]);
      return false;
    }
  }
  /** Puts the placeholder where the cursor was, so it need not be typed exactly. */
  function insert(placeholder: string) {
    const text = draft.values.greeting;
    const at = caret ?? text.length;
    draft.set('greeting', text.slice(0, at) + placeholder + text.slice(at));
    setCaret(at + placeholder.length);
    textarea.current?.focus();
  }
  const preview = draft.values.greeting.split(CUSTOMER_PLACEHOLDER).join(SAMPLE_CUSTOMER).split(COMPANY_PLACEHOLDER).join(companyName);

  return (
    <EditForm draft={draft} save={save} pending={update.isPending} error={errors.form}>
      <TextAreaField
        ref={textarea}
        label={t`Greeting`}
        value={draft.values.greeting}
        rows={5}
        maxLength={1500}
        error={errors.fields.greeting}
        onChange={(e) => {
          draft.set('greeting', e.target.value);
          setCaret(e.target.selectionStart);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        hint={
          <ul className="placeholder-help">
            <li>
              <Trans>
                <code>{CUSTOMER_PLACEHOLDER}</code> is replaced by the customer's name.
              </Trans>{' '}
              <button type="button" className="link-button" aria-label={t`Insert ${CUSTOMER_PLACEHOLDER}`} onClick={() => insert(CUSTOMER_PLACEHOLDER)}>
                <Trans>Insert</Trans>
              </button>
            </li>
            <li>
              <Trans>
                <code>{COMPANY_PLACEHOLDER}</code> is replaced by the company's name.
              </Trans>{' '}
              <button type="button" className="link-button" aria-label={t`Insert ${COMPANY_PLACEHOLDER}`} onClick={() => insert(COMPANY_PLACEHOLDER)}>
                <Trans>Insert</Trans>
              </button>
            </li>
          </ul>
        }
      />
      <div className="greeting-preview">
        <h3 id="greeting-preview-title">
          <Trans>Preview</Trans>
        </h3>
        <p aria-labelledby="greeting-preview-title" aria-live="polite" className="chat-bubble">
          {preview}
        </p>
      </div>
    </EditForm>
  );
}
