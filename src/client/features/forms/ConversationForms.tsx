import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isFormMessageData } from '../../../shared/domain/forms';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ClipboardList } from 'lucide-react';
import { ModalDialog } from '../../ui/Dialog';
import { FormError } from '../../ui/Form';
import { useLiveTemplates } from './live';

/**
 * A 'formulario' message: the form's name, what state it is in and a few answers, opening the
 * form. `href` is where it opens: the attendant's in-conversation route, or /i/form/{id} for the
 * customer.
 */
export function FormMessageCard({ data, href }: { data: unknown; href: (formId: string) => string }) {
  const { t } = useLingui();
  if (!isFormMessageData(data)) return null;
  return (
    <div className="form-message">
      <span className="form-message-kind">{data.state === 'requested' ? t`Form to fill in` : t`Form submitted`}</span>
      <strong className="form-message-name">{data.name}</strong>
      {data.preview && data.preview.length > 0 && (
        <dl className="form-message-preview">
          {data.preview.map((p, i) => (
            <div key={i}>
              <dt>{p.label}</dt>
              <dd>{p.text}</dd>
            </div>
          ))}
        </dl>
      )}
      <Link className="button button-small" to={href(data.formId)}>
        {data.state === 'requested' ? <Trans>Open the form</Trans> : <Trans>See the form</Trans>}
      </Link>
    </div>
  );
}

/**
 * The conversation's forms action (attendants), for its header or its phone menu: the forms of this
 * conversation, and a new one from the templates the member may use, filled by the attendant or
 * sent to the customer. Not available when the company's plan has no forms.
 */
export function useFormsAction(domain: string, conversationId: string): { available: boolean; label: string; icon: typeof ClipboardList; open: () => void; dialog: ReactNode } {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const usable = trpc.forms.usable.useQuery({ domain }, { retry: false, staleTime: 30_000 });
  useLiveTemplates(domain);
  return {
    available: usable.error?.data?.code !== 'FORBIDDEN',
    label: t`Forms`,
    icon: ClipboardList,
    open: () => setOpen(true),
    dialog: open ? <FormsDialog domain={domain} conversationId={conversationId} onClose={() => setOpen(false)} /> : null,
  };
}

function FormsDialog({ domain, conversationId, onClose }: { domain: string; conversationId: string; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  const usable = trpc.forms.usable.useQuery({ domain }, { retry: false });
  const forms = trpc.forms.conversationForms.useQuery({ domain, conversationId }, { retry: false });
  const [templateId, setTemplateId] = useState('');
  const [forCustomer, setForCustomer] = useState(false);
  const selectId = useId();
  const start = trpc.forms.start.useMutation({
    onSuccess: ({ formId }) => {
      onClose();
      if (!forCustomer) void navigate(`/i/recent/chat/${conversationId}/form/${domain}/${formId}`);
    },
  });
  const chosen = templateId || usable.data?.[0]?.id || '';
  const link = (formId: string) => `/i/recent/chat/${conversationId}/form/${domain}/${formId}`;
  return (
    <ModalDialog
      title={t`Forms`}
      onCancel={onClose}
      onSubmit={() => chosen && start.mutate({ domain, conversationId, templateId: chosen, forCustomer })}
      actions={
        <>
          <button type="submit" className="button" disabled={!chosen || start.isPending} aria-busy={start.isPending || undefined}>
            {forCustomer ? <Trans>Send to the customer</Trans> : <Trans>Fill in</Trans>}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            <Trans>Close</Trans>
          </button>
        </>
      }
    >
      {forms.data && forms.data.length > 0 && (
        <section aria-label={t`Forms of this conversation`}>
          <h3>
            <Trans>In this conversation</Trans>
          </h3>
          <ul className="form-list">
            {forms.data.map((f) => (
              <li key={f.id}>
                <Link to={link(f.id)} onClick={onClose}>
                  {f.name}
                </Link>{' '}
                <span className="badge">{f.status === 'submitted' ? t`Submitted` : f.filler === 'customer' ? t`Waiting for the customer` : t`Draft`}</span>{' '}
                <span className="muted">{i18n.date(new Date(f.updatedAt), { dateStyle: 'short', timeStyle: 'short' })}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <h3>
        <Trans>New form</Trans>
      </h3>
      <FormError message={usable.error ? serverMessage(usable.error) : start.error ? serverMessage(start.error) : null} />
      {usable.data && usable.data.length === 0 ? (
        <p className="muted">
          <Trans>There is no form you may use yet. Forms are designed in Settings › Forms.</Trans>
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={selectId}>
              <Trans>Form</Trans>
            </label>
            <select id={selectId} value={chosen} onChange={(e) => setTemplateId(e.target.value)}>
              {(usable.data ?? []).map((tpl) => (
                <option key={tpl.id} value={tpl.id}>
                  {tpl.name}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="form-choice">
            <legend>
              <Trans>Who fills it in?</Trans>
            </legend>
            <label className="form-option">
              <input type="radio" name="form-filler" checked={!forCustomer} onChange={() => setForCustomer(false)} /> <Trans>I fill it in</Trans>
            </label>
            <label className="form-option">
              <input type="radio" name="form-filler" checked={forCustomer} onChange={() => setForCustomer(true)} /> <Trans>The customer, from their side of the conversation</Trans>
            </label>
          </fieldset>
        </>
      )}
    </ModalDialog>
  );
}
