import { Trans, useLingui } from '@lingui/react/macro';
import type { ContactUsField, ContactUsSettings } from '../../../shared/domain/contact-us';
import { trpc } from '../../trpc';
import { Checkbox, FormError, SelectField, TextField } from '../../ui';
import { Spinner } from '../../ui/Spinner';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { useServerText } from './serverText';

/**
 * /i/settings/configCompany/contactUs: the company's Contact Us (spec 3): name, page title,
 * blocked access, the queue new requests go to, and the form's fields with their rules
 * (required, e-mail check, read-only, minimum and maximum size).
 */
export function ContactUsSettingsPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Contact Us`}>{(company) => <Loader domain={company.domain} />}</AdminScreen>;
}

function Loader({ domain }: { domain: string }) {
  const serverText = useServerText();
  const settings = trpc.settings.contactUs.useQuery({ domain });
  const queues = trpc.queues.list.useQuery({ domain });
  if (settings.isPending || queues.isPending) return <Spinner />;
  if (settings.isError) return <FormError message={serverText(settings.error.message)} />;
  if (queues.isError) return <FormError message={serverText(queues.error.message)} />;
  return <ContactUsForm domain={domain} initial={settings.data} queues={queues.data.map((q) => ({ value: q.key, label: q.name }))} />;
}

const newField = (n: number): ContactUsField => ({ key: `field${n}`, label: '', required: false, validateEmail: false, readOnly: false, minSize: 0, maxSize: 200 });

function ContactUsForm({ domain, initial, queues }: { domain: string; initial: ContactUsSettings; queues: { value: string; label: string }[] }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const draft = useDraft(initial);
  const update = trpc.settings.updateContactUs.useMutation();
  const v = draft.values;
  const setField = (i: number, patch: Partial<ContactUsField>) => draft.set('fields', v.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  async function save(): Promise<boolean> {
    try {
      const saved = await update.mutateAsync({ domain, ...v });
      draft.commit(saved);
      await utils.settings.contactUs.invalidate({ domain });
      return true;
    } catch {
      return false;
    }
  }
  const num = (value: string) => Math.max(0, Math.min(10_000, Math.trunc(Number(value) || 0)));

  return (
    <EditForm draft={draft} save={save} pending={update.isPending} error={update.error ? serverText(update.error.message) : null} label={t`Contact Us`}>
      <p className="muted">
        <Trans>
          What customers fill in at <a href={`/${domain}/faleconosco`}>/{domain}/faleconosco</a>; each form becomes a ticket in the queue chosen below.
        </Trans>
      </p>
      <TextField label={t`Name`} value={v.name} maxLength={80} onChange={(e) => draft.set('name', e.target.value)} />
      <TextField label={t`Page title`} value={v.pageTitle} maxLength={120} onChange={(e) => draft.set('pageTitle', e.target.value)} />
      <Checkbox label={t`Block access (customers cannot send the form)`} checked={v.blocked} onChange={(on) => draft.set('blocked', on)} />
      <SelectField label={t`Queue for new requests`} value={v.defaultQueueKey} options={queues} onChange={(e) => draft.set('defaultQueueKey', e.target.value)} />
      <fieldset className="contact-us-fields">
        <legend>
          <Trans>Fields of the form</Trans>
        </legend>
        {v.fields.map((f, i) => (
          <div key={i} className="contact-us-field" role="group" aria-label={f.label || f.key}>
            <TextField label={t`Label`} value={f.label} maxLength={80} onChange={(e) => setField(i, { label: e.target.value })} />
            <TextField label={t`Key`} value={f.key} maxLength={40} onChange={(e) => setField(i, { key: e.target.value.replace(/[^A-Za-z0-9_-]/g, '') })} />
            <Checkbox label={t`Required`} checked={f.required} onChange={(on) => setField(i, { required: on })} />
            <Checkbox label={t`Check e-mail`} checked={f.validateEmail} onChange={(on) => setField(i, { validateEmail: on })} />
            <Checkbox label={t`Read-only (filled from the account)`} checked={f.readOnly} onChange={(on) => setField(i, { readOnly: on })} />
            <TextField label={t`Minimum size`} type="number" min={0} max={10000} value={String(f.minSize)} onChange={(e) => setField(i, { minSize: num(e.target.value) })} />
            <TextField label={t`Maximum size`} type="number" min={1} max={10000} value={String(f.maxSize)} onChange={(e) => setField(i, { maxSize: Math.max(1, num(e.target.value)) })} />
            <button type="button" className="button button-secondary button-small" onClick={() => draft.set('fields', v.fields.filter((_, j) => j !== i))}>
              <Trans>Remove field</Trans>
            </button>
          </div>
        ))}
        <button type="button" className="button button-secondary" onClick={() => draft.set('fields', [...v.fields, newField(v.fields.length + 1)])}>
          <Trans>Add field</Trans>
        </button>
      </fieldset>
    </EditForm>
  );
}
