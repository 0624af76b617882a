import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { TextAreaField } from '../../ui/fields';
import { MemberScreen } from './MemberScreen';

/*
 * /i/recent/chamadoVinculado/{idVincular}/{domVincular}[/{emp}[/direct]]: open a ticket in a client
 * or network company, linked to conversation idVincular of company domVincular. First the
 * company, then its queue and the words of the request.
 */

function useLinkTargets() {
  const { idVincular = '', domVincular = '' } = useParams();
  const targets = trpc.service.linkTargets.useQuery({ domain: domVincular });
  return { idVincular, domVincular, targets, base: `/i/recent/chamadoVinculado/${idVincular}/${domVincular}` };
}

export function LinkedTicketPage() {
  const { t } = useLingui();
  return (
    <MemberScreen title={t`Linked ticket`}>
      {() => <LinkedTicketCompanies />}
    </MemberScreen>
  );
}

function LinkedTicketCompanies() {
  const serverMessage = useServerMessage();
  const { targets, base, idVincular } = useLinkTargets();
  if (targets.isPending) return <Spinner />;
  if (targets.isError) return <FormError message={serverMessage(targets.error)} />;
  return (
    <>
      <p className="muted">
        <Trans>Choose the client or network company that should handle this ticket.</Trans>
      </p>
      {targets.data.length === 0 ? (
        <p className="empty-state muted">
          <Trans>This company has no client or network companies yet.</Trans>
        </p>
      ) : (
        <ul className="choice-list">
          {targets.data.map((c) => (
            <li key={c.domain}>
              <Link className="choice" to={`${base}/${c.domain}`}>
                <strong>{c.name}</strong> <span className="muted">{c.domain}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to={`/i/recent/chat/${idVincular}`}>
        <Trans>Back to the conversation</Trans>
      </Link>
    </>
  );
}

export function LinkedTicketCompanyPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Linked ticket: company`}>{() => <LinkedTicketQueues />}</MemberScreen>;
}

function LinkedTicketQueues() {
  const serverMessage = useServerMessage();
  const { emp = '' } = useParams();
  const { targets, base } = useLinkTargets();
  if (targets.isPending) return <Spinner />;
  if (targets.isError) return <FormError message={serverMessage(targets.error)} />;
  const company = targets.data.find((c) => c.domain === emp);
  if (!company) {
    return (
      <p className="form-error" role="alert">
        <Trans>This company is not one of your client or network companies</Trans>
      </p>
    );
  }
  return (
    <>
      <p>
        <Trans>Choose a queue of {company.name}:</Trans>
      </p>
      <ul className="choice-list">
        {company.queues.map((q) => (
          <li key={q.key}>
            <Link className="choice" to={`${base}/${emp}/direct?queue=${encodeURIComponent(q.key)}`}>
              {q.name}
            </Link>
          </li>
        ))}
      </ul>
      <Link to={base}>
        <Trans>Choose another company</Trans>
      </Link>
    </>
  );
}

export function LinkedTicketRequestPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Linked ticket: request service`}>{() => <LinkedTicketRequest />}</MemberScreen>;
}

function LinkedTicketRequest() {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  const { emp = '' } = useParams();
  const [search] = useSearchParams();
  const { targets, idVincular, domVincular } = useLinkTargets();
  const company = targets.data?.find((c) => c.domain === emp);
  const [queueKey, setQueueKey] = useState(search.get('queue') ?? '');
  const [text, setText] = useState('');
  const open = trpc.service.openLinkedTicket.useMutation({ onSuccess: (r) => void navigate(`/${r.domain}/ticket/${r.conversationId}`) });
  if (targets.isPending) return <Spinner />;
  if (!company) return <FormError message={targets.error ? serverMessage(targets.error) : t`This company is not one of your client or network companies`} />;
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        open.mutate({ domain: domVincular, conversationId: idVincular, targetDomain: emp, queueKey, text: text || undefined });
      }}
    >
      <FormError message={open.error ? serverMessage(open.error) : null} />
      <div className="field">
        <label htmlFor="linked-queue">
          <Trans>Queue of {company.name}</Trans>
        </label>
        <select id="linked-queue" required value={queueKey} onChange={(e) => setQueueKey(e.target.value)}>
          <option value="">{t`Choose…`}</option>
          {company.queues.map((q) => (
            <option key={q.key} value={q.key}>
              {q.name}
            </option>
          ))}
        </select>
      </div>
      <TextAreaField label={t`What should they do?`} value={text} maxLength={1500} rows={4} onChange={(e) => setText(e.target.value)} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={!queueKey || open.isPending}>
          <Trans>Open linked ticket</Trans>
        </button>
      </div>
    </form>
  );
}
