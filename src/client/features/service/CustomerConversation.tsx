import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatMessageEvent } from '../../../shared/chat-events';
import { CONVERSATION_STATE, MESSAGE_MAX_LENGTH } from '../../../shared/constants';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { FormMessageCard } from '../forms/ConversationForms';
import { describeServiceInfo, formatProtocol, STATE_LABELS } from './labels';
import { useSocketEvent } from './live';

/**
 * The customer's side of one request (/{emp}/chat/{id}, /{emp}/ticket/{id}, and the queue page once
 * a request is sent): the place in line while waiting (and leaving the line), then the
 * conversation without the members' comments, answering, the SLA proposal, and rating at the end.
 */
export function CustomerConversation({ conversationId, onNewService }: { conversationId: string; onNewService?: () => void }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const info = trpc.customer.conversation.useQuery({ conversationId }, { retry: false });
  const history = trpc.customer.messages.useQuery({ conversationId }, { retry: false });
  const [live, setLive] = useState<ChatMessageEvent[]>([]);
  const refetchInfo = () => void utils.customer.conversation.invalidate({ conversationId });

  useSocketEvent(
    'message:new',
    (m) => {
      if (m.conversationId !== conversationId || m.isComment) return;
      setLive((list) => [...list, m]);
      if (m.type === 'info' || m.type === 'propostaSLA') refetchInfo();
    },
    () => {
      // Back from a disconnection: ask for what was missed.
      void utils.customer.messages.invalidate({ conversationId });
      refetchInfo();
    },
  );
  useSocketEvent('conversation:updated', (p) => p.conversationId === conversationId && refetchInfo());
  useSocketEvent('service:position', (p) => {
    if (p.conversationId !== conversationId) return;
    utils.customer.conversation.setData({ conversationId }, (old) => old && { ...old, position: p.position });
  });

  // History and live pushes merged by sequence number: each message once, in order.
  const bySeq = new Map<number, ChatMessageEvent>();
  for (const m of [...(history.data ?? []), ...live]) bySeq.set(m.seq, m);
  const messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const lastSeq = messages.at(-1)?.seq ?? 0;

  const markRead = trpc.customer.markRead.useMutation();
  const readUpTo = useRef(0);
  useEffect(() => {
    if (lastSeq > readUpTo.current && document.visibilityState === 'visible') {
      readUpTo.current = lastSeq;
      markRead.mutate({ conversationId, uptoSeq: lastSeq });
    }
  }, [lastSeq, conversationId, markRead]);

  const listEnd = useRef<HTMLLIElement>(null);
  // In braces: newer browsers return a promise from scrollIntoView, which React would take for a clean-up.
  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [lastSeq]);

  if (info.isPending || history.isPending) return <Spinner />;
  if (info.isError) return <FormError message={serverMessage(info.error)} />;
  const c = info.data;
  const concluded = c.state === CONVERSATION_STATE.concluded;
  return (
    <div className="customer-conversation">
      <header className="customer-header">
        <div>
          <strong>{c.companyName}</strong> · <Trans>Protocol {formatProtocol(c.protocol)}</Trans>
        </div>
        <span className="badge" role="status">
          {i18n._(STATE_LABELS[c.state] ?? STATE_LABELS[1]!)}
        </span>
      </header>
      {c.state === CONVERSATION_STATE.waiting && <WaitingInLine conversationId={conversationId} position={c.position} queueName={c.queueName} canLeave={c.canLeaveQueue} />}
      {c.responsibleName && !concluded && (
        <p className="muted">
          <Trans>{c.responsibleName} is serving you.</Trans>
        </p>
      )}
      <FormError message={history.error ? serverMessage(history.error) : null} />
      <ol className="customer-messages" aria-label={t`Messages`}>
        {messages.map((m) => (
          <CustomerMessage key={m.seq} message={m} conversationId={conversationId} proposalOpen={c.sla.proposal === 'open'} />
        ))}
        <li ref={listEnd} aria-hidden="true" />
      </ol>
      {concluded ? (
        <Concluded conversationId={conversationId} canRate={c.canRate} rating={c.rating} domain={c.domain} onNewService={onNewService} />
      ) : (
        <Composer conversationId={conversationId} onSent={(m) => setLive((list) => [...list, m])} />
      )}
    </div>
  );
}

function WaitingInLine({ conversationId, position, queueName, canLeave }: { conversationId: string; position: number | null; queueName: string | null; canLeave: boolean }) {
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const leave = trpc.customer.leaveQueue.useMutation({ onSettled: () => utils.customer.conversation.invalidate({ conversationId }) });
  return (
    <div className="queue-position" role="status" aria-live="polite">
      {position !== null && (
        <p>
          <Trans>
            Your position in the queue: <strong className="position-number">{position}</strong>
          </Trans>
        </p>
      )}
      {queueName && <p className="muted">{queueName}</p>}
      <FormError message={leave.error ? serverMessage(leave.error) : null} />
      {canLeave && (
        <button type="button" className="button button-secondary" disabled={leave.isPending} onClick={() => leave.mutate({ conversationId })}>
          <Trans>Leave the queue</Trans>
        </button>
      )}
    </div>
  );
}

function CustomerMessage({ message: m, conversationId, proposalOpen }: { message: ChatMessageEvent; conversationId: string; proposalOpen: boolean }) {
  const { i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const answer = trpc.customer.answerSla.useMutation({ onSuccess: () => utils.customer.conversation.invalidate({ conversationId }) });
  const time = i18n.date(new Date(m.createdAt), { timeStyle: 'short' });
  if (m.type === 'info') {
    return (
      <li className="customer-message info">
        {describeServiceInfo(i18n, m.data) ?? m.text} <span className="muted">{time}</span>
      </li>
    );
  }
  if (m.type === 'propostaSLA') {
    const data = (m.data ?? {}) as { offerDate?: string; escolhaProposta?: 'accepted' | 'declined' | null };
    const date = data.offerDate ? i18n.date(new Date(data.offerDate), { dateStyle: 'full', timeStyle: 'short' }) : '';
    return (
      <li className="customer-message sla-proposal">
        <p>
          <Trans>Proposed conclusion date: {date}</Trans>
        </p>
        <FormError message={answer.error ? serverMessage(answer.error) : null} />
        {!data.escolhaProposta && proposalOpen && !answer.isSuccess ? (
          <div className="form-actions">
            <button type="button" className="button" disabled={answer.isPending} onClick={() => answer.mutate({ conversationId, accept: true })}>
              <Trans>Accept date</Trans>
            </button>
            <button type="button" className="button button-secondary" disabled={answer.isPending} onClick={() => answer.mutate({ conversationId, accept: false })}>
              <Trans>Decline</Trans>
            </button>
          </div>
        ) : null}
      </li>
    );
  }
  if (m.type === 'formulario' && !m.removed) {
    return (
      <li className="customer-message">
        {m.authorName && <span className="customer-message-author">{m.authorName}</span>}
        <FormMessageCard data={m.data} href={(formId) => `/i/form/${formId}`} />
        <span className="muted">{time}</span>
      </li>
    );
  }
  return (
    <li className={m.authorId ? 'customer-message' : 'customer-message info'}>
      {m.authorName && <span className="customer-message-author">{m.authorName}</span>}
      <span className="customer-message-text">{m.removed ? '—' : m.text}</span>
      <span className="muted">{time}</span>
    </li>
  );
}

function Composer({ conversationId, onSent }: { conversationId: string; onSent: (m: ChatMessageEvent) => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [text, setText] = useState('');
  const send = trpc.customer.send.useMutation({
    onSuccess: (m) => {
      setText('');
      onSent(m);
    },
  });
  const submit = () => {
    if (!text.trim() || send.isPending) return;
    send.mutate({ conversationId, clientId: crypto.randomUUID(), text });
  };
  return (
    <form
      className="customer-composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <FormError message={send.error ? serverMessage(send.error) : null} />
      <label htmlFor="customer-text" className="visually-hidden">
        <Trans>Your message</Trans>
      </label>
      <textarea
        id="customer-text"
        value={text}
        rows={2}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder={t`Write a message`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" className="button" disabled={!text.trim() || send.isPending}>
        <Trans>Send</Trans>
      </button>
    </form>
  );
}

function Concluded({ conversationId, canRate, rating, domain, onNewService }: { conversationId: string; canRate: boolean; rating: number | null; domain: string; onNewService?: () => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const rate = trpc.customer.rate.useMutation({ onSuccess: () => utils.customer.conversation.invalidate({ conversationId }) });
  return (
    <div className="customer-concluded">
      <p>
        <Trans>This service is concluded.</Trans>
      </p>
      {canRate && (
        <fieldset className="rating">
          <legend>
            <Trans>How was the service?</Trans>
          </legend>
          {[1, 2, 3, 4, 5].map((stars) => (
            <button key={stars} type="button" className="rating-star" aria-label={t`${stars} of 5 stars`} disabled={rate.isPending} onClick={() => rate.mutate({ conversationId, stars })}>
              ★
            </button>
          ))}
        </fieldset>
      )}
      <FormError message={rate.error ? serverMessage(rate.error) : null} />
      {rating !== null && (
        <FormNotice>
          <Trans>Thank you for your rating ({rating} of 5).</Trans>
        </FormNotice>
      )}
      {onNewService ? (
        <button type="button" className="button" onClick={onNewService}>
          <Trans>Start a new service</Trans>
        </button>
      ) : (
        <Link className="button" to={`/${domain}/direct`}>
          <Trans>Start a new service</Trans>
        </Link>
      )}
    </div>
  );
}
