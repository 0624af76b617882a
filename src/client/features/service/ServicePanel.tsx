import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Dialog } from '../../ui/Dialog';
import { FormError, FormNotice } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { ChannelBadge } from './ChannelBadge';
import { formatProtocol, STATE_BADGE, STATE_LABELS } from './labels';
import { useSocketEvent } from './live';
import { useTake } from './socketTake';
import { MemberScreen } from './MemberScreen';

/** /i/recent/chat/{id}/concluir: conclude (or reopen) the service, with its state and the rest of its panel. */
export function ConcludePage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <MemberScreen title={t`Conclude service`}>{(company) => <ServicePanel domain={company.domain} conversationId={id} />}</MemberScreen>;
}

/**
 * Everything about a conversation as a service: state and people, the state moves this attendant
 * may make (conclude, reopen, waiting for a third party), transfer and timesheet, the SLA
 * proposal, tags, tasks and linked tickets. The conversation view can show it as its side panel.
 */
export function ServicePanel({ domain, conversationId }: { domain: string; conversationId: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const details = trpc.service.details.useQuery({ domain, conversationId }, { retry: false });
  const refetch = () => void utils.service.details.invalidate({ domain, conversationId });
  useSocketEvent('conversation:updated', (p) => p.conversationId === conversationId && refetch(), refetch);
  const [confirm, setConfirm] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const options = { onSuccess: refetch };
  const conclude = trpc.service.conclude.useMutation(options);
  const reopen = trpc.service.reopen.useMutation(options);
  const setWaiting = trpc.service.setWaiting.useMutation(options);
  // A taken request stays open here, now in state 1; a lost race shows the spec's text and the panel as it is.
  const take = useTake({ onSettled: refetch });
  const failed = [take, conclude, reopen, setWaiting].find((m) => m.isError)?.error;

  if (details.isPending) return <Spinner />;
  if (details.isError) return <FormError message={serverMessage(details.error)} />;
  const d = details.data;
  const busy = take.isPending || conclude.isPending || reopen.isPending || setWaiting.isPending;
  const when = (date: Date | string | null) => (date ? i18n.date(new Date(date), { dateStyle: 'short', timeStyle: 'short' }) : '—');
  return (
    <div className="service-panel">
      <dl className="facts">
        <dt>
          <Trans>State</Trans>
        </dt>
        <dd>
          <span className={STATE_BADGE[d.state] ?? 'badge'}>{i18n._(STATE_LABELS[d.state] ?? STATE_LABELS[1]!)}</span>
        </dd>
        <dt>
          <Trans>Protocol</Trans>
        </dt>
        <dd>{formatProtocol(d.protocol)}</dd>
        <dt>
          <Trans>Customer</Trans>
        </dt>
        <dd>
          {d.customer?.name || d.title || '—'} <ChannelBadge channel={d.customerChannel} />
        </dd>
        <dt>
          <Trans>Queue</Trans>
        </dt>
        <dd>{d.queue?.name ?? '—'}</dd>
        <dt>
          <Trans>Responsible</Trans>
        </dt>
        <dd>{d.responsible?.name ?? '—'}</dd>
        <dt>
          <Trans>Taken</Trans>
        </dt>
        <dd>{d.takenBy ? `${d.takenBy.name} · ${when(d.takenAt)}` : '—'}</dd>
        {d.concludedAt && (
          <>
            <dt>
              <Trans>Concluded</Trans>
            </dt>
            <dd>{when(d.concludedAt)}</dd>
          </>
        )}
        {d.rating !== null && (
          <>
            <dt>
              <Trans>Rating</Trans>
            </dt>
            <dd>{'★'.repeat(d.rating)}</dd>
          </>
        )}
      </dl>
      {d.customer && <CustomerHistory domain={domain} userId={d.customer.id} conversationId={conversationId} />}
      <FormError message={failed ? serverMessage(failed) : null} />
      {done && <FormNotice>{done}</FormNotice>}
      <div className="form-actions">
        {d.can.take && (
          <button type="button" className="button" data-shortcut="take" disabled={busy} onClick={() => take.mutate({ domain, conversationId })}>
            <Trans>Take</Trans>
          </button>
        )}
        {d.can.conclude && (
          <button type="button" className="button" data-shortcut="conclude" disabled={busy} onClick={() => setConfirm(true)}>
            <Trans>Conclude service</Trans>
          </button>
        )}
        {d.can.reopen && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => reopen.mutate({ domain, conversationId }, { onSuccess: () => setDone(t`Service reopened`) })}
          >
            <Trans>Reopen service</Trans>
          </button>
        )}
        {d.can.wait && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => setWaiting.mutate({ domain, conversationId, waiting: true })}>
            <Trans>Wait for a third party</Trans>
          </button>
        )}
        {d.can.resume && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => setWaiting.mutate({ domain, conversationId, waiting: false })}>
            <Trans>Resume service</Trans>
          </button>
        )}
        {d.can.transfer && (
          <Link className="button button-secondary" data-shortcut="transfer" to={`/i/recent/chat/${conversationId}/transfer`}>
            <Trans>Transfer</Trans>
          </Link>
        )}
        {d.can.timesheet && (
          <Link className="button button-secondary" to={`/i/recent/chat/${conversationId}/timesheet`}>
            <Trans>Timesheet</Trans>
          </Link>
        )}
      </div>
      {confirm && (
        <Dialog
          title={t`Conclude this service?`}
          onClose={() => setConfirm(false)}
          busy={conclude.isPending}
          confirmLabel={<Trans>Conclude</Trans>}
          onConfirm={() =>
            conclude.mutate(
              { domain, conversationId },
              {
                onSettled: () => setConfirm(false),
                onSuccess: () => setDone(t`Service concluded.`),
              },
            )
          }
        >
          <p className="muted">
            <Trans>The customer is told, and can rate the service.</Trans>
          </p>
        </Dialog>
      )}
      {d.can.proposeSla && <SlaProposal domain={domain} conversationId={conversationId} open={d.sla.proposal === 'open'} />}
      {d.sla.dueAt && (
        <p className="muted">
          {d.sla.accepted ? <Trans>Agreed conclusion date: {when(d.sla.dueAt)}</Trans> : <Trans>Due date: {when(d.sla.dueAt)}</Trans>}
        </p>
      )}
      <Tags domain={domain} conversationId={conversationId} tags={d.tags} />
      <Tasks domain={domain} conversationId={conversationId} tasks={d.tasks} />
      <section className="settings-section" aria-labelledby="linked-title">
        <h2 id="linked-title">
          <Trans>Linked tickets</Trans>
        </h2>
        {d.linkedTickets.length > 0 && (
          <ul className="plain-list">
            {d.linkedTickets.map((l) => (
              <li key={l.conversationId}>
                <Link to={`/${l.domain}/ticket/${l.conversationId}`}>
                  {l.companyName} · {formatProtocol(l.protocol)}
                </Link>{' '}
                <span className={STATE_BADGE[l.state] ?? 'badge'}>{i18n._(STATE_LABELS[l.state] ?? STATE_LABELS[1]!)}</span>
              </li>
            ))}
          </ul>
        )}
        <Link className="button button-secondary" to={`/i/recent/chamadoVinculado/${conversationId}/${domain}`}>
          <Trans>Open a linked ticket</Trans>
        </Link>
      </section>
    </div>
  );
}

/** Propose a conclusion date; the customer accepts or declines it in the conversation. */
function SlaProposal({ domain, conversationId, open }: { domain: string; conversationId: string; open: boolean }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [date, setDate] = useState('');
  const propose = trpc.service.proposeSla.useMutation({ onSuccess: () => utils.service.details.invalidate({ domain, conversationId }) });
  return (
    <section className="settings-section" aria-labelledby="sla-title">
      <h2 id="sla-title">
        <Trans>Conclusion date (SLA)</Trans>
      </h2>
      {open ? (
        <p className="muted">
          <Trans>A proposal is waiting for the customer’s answer.</Trans>
        </p>
      ) : (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (date) propose.mutate({ domain, conversationId, offerDate: new Date(date) });
          }}
        >
          <FormError message={propose.error ? serverMessage(propose.error) : null} />
          {propose.isSuccess && (
            <FormNotice>
              <Trans>Proposal sent to the customer.</Trans>
            </FormNotice>
          )}
          <TextField label={t`Proposed conclusion date`} type="datetime-local" value={date} required onChange={(e) => setDate(e.target.value)} />
          <button type="submit" className="button" disabled={!date || propose.isPending}>
            <Trans>Propose date</Trans>
          </button>
        </form>
      )}
    </section>
  );
}

function Tags({ domain, conversationId, tags }: { domain: string; conversationId: string; tags: string[] }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const suggestions = trpc.service.tags.useQuery({ domain });
  const [text, setText] = useState('');
  const save = trpc.service.setTags.useMutation({ onSuccess: () => utils.service.details.invalidate({ domain, conversationId }) });
  const set = (next: string[]) => save.mutate({ domain, conversationId, tags: next });
  return (
    <section className="settings-section" aria-labelledby="tags-title">
      <h2 id="tags-title">
        <Trans>Tags</Trans>
      </h2>
      <FormError message={save.error ? serverMessage(save.error) : null} />
      <ul className="list-field-items">
        {tags.map((tag) => (
          <li key={tag}>
            {tag}
            <button type="button" className="link-button" aria-label={t`Remove the tag ${tag}`} onClick={() => set(tags.filter((x) => x !== tag))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          set([...tags, text.trim()]);
          setText('');
        }}
      >
        <TextField label={t`New tag`} value={text} maxLength={40} list="service-tags" onChange={(e) => setText(e.target.value)} />
        <datalist id="service-tags">
          {suggestions.data?.filter((s) => !tags.includes(s)).map((s) => <option key={s} value={s} />)}
        </datalist>
        <button type="submit" className="button button-secondary" disabled={save.isPending}>
          <Trans>Add tag</Trans>
        </button>
      </form>
    </section>
  );
}

function Tasks({ domain, conversationId, tasks }: { domain: string; conversationId: string; tasks: { id: string; title: string; protocol: string; state: number }[] }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const targets = trpc.service.transferTargets.useQuery({ domain });
  const [title, setTitle] = useState('');
  const [who, setWho] = useState<string[]>([]);
  const create = trpc.service.createTask.useMutation({
    onSuccess: () => {
      setTitle('');
      setWho([]);
      void utils.service.details.invalidate({ domain, conversationId });
    },
  });
  return (
    <section className="settings-section" aria-labelledby="tasks-title">
      <h2 id="tasks-title">
        <Trans>Tasks</Trans>
      </h2>
      {tasks.length > 0 && (
        <ul className="plain-list">
          {tasks.map((task) => (
            <li key={task.id}>
              <Link to={`/i/recent/chat/${task.id}`}>{task.title}</Link> <span className="muted">{formatProtocol(task.protocol)}</span>{' '}
              <span className={STATE_BADGE[task.state] ?? 'badge'}>{i18n._(STATE_LABELS[task.state] ?? STATE_LABELS[1]!)}</span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ domain, conversationId, title, userIds: who });
        }}
      >
        <FormError message={create.error ? serverMessage(create.error) : null} />
        <TextField label={t`Task`} value={title} maxLength={120} required onChange={(e) => setTitle(e.target.value)} />
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Who does it</Trans>
          </legend>
          {targets.data?.attendants
            .filter((a) => !a.me)
            .map((a) => (
              <label key={a.userId} className="checkbox">
                <input type="checkbox" checked={who.includes(a.userId)} onChange={(e) => setWho(e.target.checked ? [...who, a.userId] : who.filter((x) => x !== a.userId))} />
                <span>{a.name}</span>
              </label>
            ))}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={create.isPending || !title.trim()}>
            <Trans>Create task</Trans>
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The customer beside their request: their contact (e-mail, phone, organisation, tags, a link to
 * it) and their other requests to this company, so the attendant sees who they are serving.
 */
function CustomerHistory({ domain, userId, conversationId }: { domain: string; userId: string; conversationId: string }) {
  const { t, i18n } = useLingui();
  const history = trpc.contacts.customerHistory.useQuery({ domain, userId, exceptConversationId: conversationId }, { retry: false, staleTime: 30_000 });
  if (history.isPending) return <Spinner />;
  // Not being able to read it leaves the rest of the panel as it is.
  if (!history.data) return null;
  const { contact, conversations } = history.data;
  return (
    <section className="service-customer" aria-label={t`About the customer`}>
      {contact && (
        <p className="service-customer-contact">
          <Link to={`/i/recent/customers/${contact.id}`}>{contact.name}</Link>
          {[contact.organization, contact.email, contact.phone].filter(Boolean).map((v) => (
            <span key={v} className="muted">
              {' · '}
              {v}
            </span>
          ))}
          {contact.tags.map((tag) => (
            <span key={tag} className="badge">
              {tag}
            </span>
          ))}
        </p>
      )}
      <h3 className="panel-subtitle">
        <Trans>Previous requests</Trans>
      </h3>
      {conversations.length === 0 ? (
        <p className="muted">
          <Trans>This is their first request.</Trans>
        </p>
      ) : (
        <ul className="service-history">
          {conversations.map((c) => (
            <li key={c.id}>
              <Link to={`/i/recent/chat/${c.id}`}>{formatProtocol(c.protocol)}</Link>{' '}
              <span className={STATE_BADGE[c.state] ?? 'badge'}>{i18n._(STATE_LABELS[c.state] ?? STATE_LABELS[1]!)}</span>{' '}
              <span className="muted">
                {[c.queueName, i18n.date(new Date(c.createdAt), { dateStyle: 'short' })].filter(Boolean).join(' · ')}
                {c.rating !== null && ` · ${'★'.repeat(c.rating)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
