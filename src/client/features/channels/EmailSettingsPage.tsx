import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';
import { trpc } from '../../trpc';
import { Button, Card, Checkbox, EmptyState, FormError, LoadingSkeleton, RefusalState, SelectField, TextField, toast } from '../../ui';
import { AdminScreen } from '../settings/AdminScreen';
import { EditForm, useDraft } from '../settings/EditForm';
import { useServerText } from '../settings/serverText';

type Settings = inferRouterOutputs<AppRouter>['channels']['emailSettings'];

/**
 * /i/settings/integrations: the e-mail integration (plan flag intmail). The company's mailbox is
 * read over IMAP and answered through its SMTP server; Integrations route new mails to queues by
 * the address they were sent to and the TAGs in their subject.
 */
export function EmailIntegrationPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`E-mail integration`}>{(company) => <Loader domain={company.domain} />}</AdminScreen>;
}

function Loader({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const q = trpc.channels.emailSettings.useQuery({ domain }, { retry: false });
  if (q.isPending) return <LoadingSkeleton variant="form" rows={6} />;
  if (q.isError) return <RefusalState title={t`These settings are not available`} message={serverText(q.error.message)} />;
  return (
    <div className="channels-settings">
      <MailboxForm domain={domain} settings={q.data} />
      <Integrations domain={domain} settings={q.data} />
    </div>
  );
}

function MailboxForm({ domain, settings }: { domain: string; settings: Settings }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const save = trpc.channels.saveEmail.useMutation();
  const m = settings.mailbox;
  const draft = useDraft({
    enabled: settings.configured ? settings.enabled : true,
    queueId: settings.queueId ?? '',
    address: m?.address ?? '',
    imapHost: m?.imapHost ?? '',
    imapPort: String(m?.imapPort ?? 993),
    imapSecure: m?.imapSecure ?? true,
    imapUser: m?.imapUser ?? '',
    imapPassword: '',
    smtpHost: m?.smtpHost ?? '',
    smtpPort: String(m?.smtpPort ?? 465),
    smtpSecure: m?.smtpSecure ?? true,
    smtpUser: m?.smtpUser ?? '',
    smtpPassword: '',
  });
  const v = draft.values;
  const keep = settings.configured ? t`Leave blank to keep the stored one` : undefined;
  async function submit() {
    try {
      const saved = await save.mutateAsync({
        domain,
        enabled: v.enabled,
        queueId: v.queueId || null,
        address: v.address,
        imapHost: v.imapHost,
        imapPort: Number(v.imapPort),
        imapSecure: v.imapSecure,
        imapUser: v.imapUser,
        imapPassword: v.imapPassword || undefined,
        smtpHost: v.smtpHost,
        smtpPort: Number(v.smtpPort),
        smtpSecure: v.smtpSecure,
        smtpUser: v.smtpUser,
        smtpPassword: v.smtpPassword || undefined,
      });
      draft.commit({ ...v, imapPassword: '', smtpPassword: '' });
      utils.channels.emailSettings.setData({ domain }, saved);
      return true;
    } catch {
      return false;
    }
  }
  const queues = [{ value: '', label: t`The first public queue` }, ...settings.queues.filter((q) => q.active).map((q) => ({ value: q.id, label: q.name }))];
  return (
    <EditForm draft={draft} save={submit} pending={save.isPending} error={save.error ? serverText(save.error.message) : null} label={t`Mailbox`}>
      <p className="muted">
        <Trans>New mails to this mailbox become conversations in a queue; attendants' replies go out from it, in the same thread. Saving checks both servers.</Trans>
      </p>
      <Checkbox label={t`Receive and answer e-mails`} checked={v.enabled} onChange={(on) => draft.set('enabled', on)} />
      <TextField label={t`E-mail address`} type="email" required value={v.address} onChange={(e) => draft.set('address', e.target.value.trim())} />
      <SelectField label={t`Queue for new conversations`} value={v.queueId} options={queues} onChange={(e) => draft.set('queueId', e.target.value)} />
      <fieldset className="channels-server">
        <legend>
          <Trans>Incoming mail (IMAP)</Trans>
        </legend>
        <TextField label={t`Server`} required value={v.imapHost} onChange={(e) => draft.set('imapHost', e.target.value.trim())} />
        <TextField label={t`Port`} inputMode="numeric" required value={v.imapPort} onChange={(e) => draft.set('imapPort', e.target.value.replace(/\D/g, ''))} />
        <Checkbox label={t`Encrypted connection (TLS)`} checked={v.imapSecure} onChange={(on) => draft.set('imapSecure', on)} />
        <TextField label={t`User`} required autoComplete="off" value={v.imapUser} onChange={(e) => draft.set('imapUser', e.target.value.trim())} />
        <TextField label={t`Password`} type="password" autoComplete="off" value={v.imapPassword} hint={keep} onChange={(e) => draft.set('imapPassword', e.target.value)} />
      </fieldset>
      <fieldset className="channels-server">
        <legend>
          <Trans>Outgoing mail (SMTP)</Trans>
        </legend>
        <TextField label={t`Server`} required value={v.smtpHost} onChange={(e) => draft.set('smtpHost', e.target.value.trim())} />
        <TextField label={t`Port`} inputMode="numeric" required value={v.smtpPort} onChange={(e) => draft.set('smtpPort', e.target.value.replace(/\D/g, ''))} />
        <Checkbox label={t`Encrypted connection (TLS)`} checked={v.smtpSecure} onChange={(on) => draft.set('smtpSecure', on)} />
        <TextField label={t`User`} autoComplete="off" value={v.smtpUser} hint={t`Blank when the server needs no login`} onChange={(e) => draft.set('smtpUser', e.target.value.trim())} />
        <TextField label={t`Password`} type="password" autoComplete="off" value={v.smtpPassword} hint={keep} onChange={(e) => draft.set('smtpPassword', e.target.value)} />
      </fieldset>
    </EditForm>
  );
}

function Integrations({ domain, settings }: { domain: string; settings: Settings }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const add = trpc.channels.saveIntegration.useMutation({ onSuccess: (saved) => utils.channels.emailSettings.setData({ domain }, saved) });
  const remove = trpc.channels.removeIntegration.useMutation({ onSuccess: (saved) => utils.channels.emailSettings.setData({ domain }, saved) });
  const active = settings.queues.filter((q) => q.active);
  const [email, setEmail] = useState('');
  const [tags, setTags] = useState('');
  const [queueId, setQueueId] = useState(active[0]?.id ?? '');
  const queueName = (id: string) => settings.queues.find((q) => q.id === id)?.name ?? '—';
  return (
    <Card title={t`Integrations`} headingLevel={2}>
      <p className="muted">
        <Trans>Route new mails by the address they were sent to and the TAGs in their subject (for example [SALES]). A blank address takes any.</Trans>
      </p>
      {settings.integrations.length === 0 ? (
        <EmptyState title={t`No integrations yet`} description={t`Every new mail goes to the mailbox's queue.`} />
      ) : (
        <ul className="channels-integrations">
          {settings.integrations.map((i) => (
            <li key={i.id}>
              <span>
                <strong>{i.email || t`Any address`}</strong> · {i.tags.join(', ') || t`Any subject`} → {queueName(i.queueId)}
              </span>
              <Button variant="secondary" size="small" isPending={remove.isPending && remove.variables?.id === i.id} onPress={() => remove.mutate({ domain, id: i.id })}>
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="channels-test"
        onSubmit={(e) => {
          e.preventDefault();
          const list = tags.split(',').map((x) => x.trim()).filter(Boolean);
          add.mutate({ domain, email, tags: list, queueId }, { onSuccess: () => (setEmail(''), setTags(''), toast.ok(t`Integration saved`)) });
        }}
      >
        {(add.error || remove.error) && <FormError message={serverText((add.error ?? remove.error)!.message)} />}
        <TextField label={t`Address (optional)`} type="email" value={email} onChange={(e) => setEmail(e.target.value.trim())} />
        <TextField label={t`Subject TAGs, separated by commas`} value={tags} onChange={(e) => setTags(e.target.value)} />
        <SelectField label={t`Queue`} value={queueId} required options={active.map((q) => ({ value: q.id, label: q.name }))} onChange={(e) => setQueueId(e.target.value)} />
        <Button type="submit" variant="secondary" isPending={add.isPending} isDisabled={!queueId}>
          <Trans>Add integration</Trans>
        </Button>
      </form>
    </Card>
  );
}
