import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { trpc } from '../../trpc';
import { Button, Card, Checkbox, FormError, LoadingSkeleton, RefusalState, SelectField, TextField, toast } from '../../ui';
import { AdminScreen } from '../settings/AdminScreen';
import { EditForm, useDraft } from '../settings/EditForm';
import { useServerText } from '../settings/serverText';

type Kind = 'whatsapp' | 'telegram';
type Settings = {
  configured: boolean;
  enabled: boolean;
  queueId: string | null;
  info: Record<string, string>;
  webhookUrl: string | null;
  verifyToken: string | null;
  queues: { id: string; name: string; active: boolean }[];
  /** Telegram: the admin's choice, and how updates arrive with it on this server. */
  delivery: 'auto' | 'webhook' | 'polling';
  mode: 'webhook' | 'polling';
};

/** /i/settings/whatsapp: the company's WhatsApp Business Cloud API connection (plan flag whatsapp). */
export function WhatsAppSettingsPage() {
  return <AdminScreen title="WhatsApp">{(company) => <Loader domain={company.domain} kind="whatsapp" />}</AdminScreen>;
}

/** /i/settings/telegram: the company's Telegram bot. */
export function TelegramSettingsPage() {
  return <AdminScreen title="Telegram">{(company) => <Loader domain={company.domain} kind="telegram" />}</AdminScreen>;
}

function Loader({ domain, kind }: { domain: string; kind: Kind }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const whatsapp = trpc.channels.whatsappSettings.useQuery({ domain }, { enabled: kind === 'whatsapp', retry: false });
  const telegram = trpc.channels.telegramSettings.useQuery({ domain }, { enabled: kind === 'telegram', retry: false });
  const q = kind === 'whatsapp' ? whatsapp : telegram;
  if (q.isPending) return <LoadingSkeleton variant="form" rows={4} />;
  if (q.isError) return <RefusalState title={t`These settings are not available`} message={serverText(q.error.message)} />;
  return (
    <div className="channels-settings">
      {kind === 'whatsapp' ? <WhatsAppForm domain={domain} settings={q.data} /> : <TelegramForm domain={domain} settings={q.data} />}
      <Webhook kind={kind} settings={q.data} />
      {q.data.configured && <TestMessage domain={domain} kind={kind} />}
    </div>
  );
}

function queueOptions(settings: Settings, noneLabel: string) {
  return [{ value: '', label: noneLabel }, ...settings.queues.filter((q) => q.active).map((q) => ({ value: q.id, label: q.name }))];
}

function WhatsAppForm({ domain, settings }: { domain: string; settings: Settings }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const save = trpc.channels.saveWhatsApp.useMutation();
  const draft = useDraft({ enabled: settings.configured ? settings.enabled : true, queueId: settings.queueId ?? '', phoneNumberId: settings.info.phoneNumberId ?? '', accessToken: '', appSecret: '' });
  const v = draft.values;
  const keep = settings.configured ? t`Leave blank to keep the stored one` : undefined;
  async function submit() {
    try {
      const saved = await save.mutateAsync({ domain, enabled: v.enabled, queueId: v.queueId || null, phoneNumberId: v.phoneNumberId, accessToken: v.accessToken || undefined, appSecret: v.appSecret || undefined });
      draft.commit({ ...v, accessToken: '', appSecret: '' });
      utils.channels.whatsappSettings.setData({ domain }, saved);
      return true;
    } catch {
      return false;
    }
  }
  return (
    <EditForm draft={draft} save={submit} pending={save.isPending} error={save.error ? serverText(save.error.message) : null} label="WhatsApp">
      <p className="muted">
        <Trans>Connect the company's number through the WhatsApp Business Cloud API (Meta for Developers → your app → WhatsApp → API Setup).</Trans>
      </p>
      <Checkbox label={t`Receive and answer WhatsApp messages`} checked={v.enabled} onChange={(on) => draft.set('enabled', on)} />
      <SelectField label={t`Queue for new conversations`} value={v.queueId} options={queueOptions(settings, t`The first public queue`)} onChange={(e) => draft.set('queueId', e.target.value)} />
      <TextField label={t`Phone number ID`} value={v.phoneNumberId} inputMode="numeric" required maxLength={32} onChange={(e) => draft.set('phoneNumberId', e.target.value.trim())} />
      <TextField label={t`Access token`} type="password" autoComplete="off" value={v.accessToken} hint={keep} onChange={(e) => draft.set('accessToken', e.target.value)} />
      <TextField label={t`App secret`} type="password" autoComplete="off" value={v.appSecret} hint={keep ?? t`Checks that webhook deliveries come from Meta`} onChange={(e) => draft.set('appSecret', e.target.value)} />
    </EditForm>
  );
}

function TelegramForm({ domain, settings }: { domain: string; settings: Settings }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const save = trpc.channels.saveTelegram.useMutation();
  const draft = useDraft({ enabled: settings.configured ? settings.enabled : true, queueId: settings.queueId ?? '', botToken: '', delivery: settings.delivery });
  const v = draft.values;
  async function submit() {
    try {
      const saved = await save.mutateAsync({ domain, enabled: v.enabled, queueId: v.queueId || null, botToken: v.botToken || undefined, delivery: v.delivery });
      draft.commit({ ...v, botToken: '' });
      utils.channels.telegramSettings.setData({ domain }, saved);
      return true;
    } catch {
      return false;
    }
  }
  return (
    <EditForm draft={draft} save={submit} pending={save.isPending} error={save.error ? serverText(save.error.message) : null} label="Telegram">
      <p className="muted">
        <Trans>Create a bot with @BotFather and paste its token. Saving registers the webhook with Telegram.</Trans>
      </p>
      {settings.configured && (
        <p role="status">
          {settings.mode === 'polling' ? (
            <Trans>In use: long polling. This server asks Telegram for new messages; no webhook is registered.</Trans>
          ) : (
            <Trans>In use: webhook. Telegram delivers new messages to this server's address.</Trans>
          )}
        </p>
      )}
      {settings.info.botUsername && (
        <p>
          <Trans>Connected bot:</Trans> <a href={`https://t.me/${settings.info.botUsername}`}>@{settings.info.botUsername}</a>
        </p>
      )}
      <Checkbox label={t`Receive and answer Telegram messages`} checked={v.enabled} onChange={(on) => draft.set('enabled', on)} />
      <SelectField label={t`Queue for new conversations`} value={v.queueId} options={queueOptions(settings, t`The first public queue`)} onChange={(e) => draft.set('queueId', e.target.value)} />
      <SelectField
        label={t`How messages arrive`}
        value={v.delivery}
        options={[
          { value: 'auto', label: t`Automatic: webhook when this server has a public address, else long polling` },
          { value: 'webhook', label: t`Webhook` },
          { value: 'polling', label: t`Long polling` },
        ]}
        onChange={(e) => draft.set('delivery', e.target.value as Settings['delivery'])}
      />
      <TextField
        label={t`Bot token`}
        type="password"
        autoComplete="off"
        value={v.botToken}
        hint={settings.configured ? t`Leave blank to keep the stored one` : undefined}
        onChange={(e) => draft.set('botToken', e.target.value.trim())}
      />
    </EditForm>
  );
}

function Webhook({ kind, settings }: { kind: Kind; settings: Settings }) {
  const { t } = useLingui();
  if (!settings.webhookUrl || (kind === 'telegram' && settings.mode === 'polling')) return null;
  return (
    <Card title={t`Webhook`} headingLevel={2}>
      {kind === 'whatsapp' ? (
        <p className="muted">
          <Trans>Paste these at Meta (WhatsApp → Configuration → Webhook) and subscribe to the "messages" field.</Trans>
        </p>
      ) : (
        <p className="muted">
          <Trans>Registered with Telegram when you saved; shown here for reference.</Trans>
        </p>
      )}
      <TextField label={t`Callback URL`} value={settings.webhookUrl} readOnly onFocus={(e) => e.target.select()} />
      {settings.verifyToken && <TextField label={t`Verify token`} value={settings.verifyToken} readOnly onFocus={(e) => e.target.select()} />}
    </Card>
  );
}

function TestMessage({ domain, kind }: { domain: string; kind: Kind }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const [to, setTo] = useState('');
  const whatsapp = trpc.channels.testWhatsApp.useMutation();
  const telegram = trpc.channels.testTelegram.useMutation();
  const send = kind === 'whatsapp' ? whatsapp : telegram;
  return (
    <Card title={t`Send test message`} headingLevel={2}>
      <form
        className="channels-test"
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate({ domain, to }, { onSuccess: () => toast.ok(t`Test message sent`) });
        }}
      >
        {send.error && <FormError message={serverText(send.error.message)} />}
        <TextField
          label={kind === 'whatsapp' ? t`WhatsApp number with country code` : t`Telegram chat ID`}
          value={to}
          inputMode="numeric"
          required
          onChange={(e) => setTo(e.target.value.replace(/[^\d-]/g, ''))}
        />
        <Button type="submit" variant="secondary" isPending={send.isPending}>
          <Trans>Send test message</Trans>
        </Button>
      </form>
    </Card>
  );
}
