import { Trans, useLingui } from '@lingui/react/macro';
import { Bell, BellOff, Send } from 'lucide-react';
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatMessageEvent } from '../../../shared/chat-events';
import { CONVERSATION_STATE, MESSAGE_MAX_LENGTH, TYPING_DELAY_MS } from '../../../shared/constants';
import { ticksFor } from '../../../shared/domain/messages';
import { useServerMessage } from '../../guard/company';
import { getSocket } from '../../socket';
import { trpc } from '../../trpc';
import { Button, ButtonLink, IconButton } from '../../ui/Button';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { FileContent, FileLinkSource } from '../chat/FileContent';
import { dayKey, dayLabel, timeOf } from '../chat/format';
import { MessageText } from '../chat/MessageItem';
import { Avatar, Ticks } from '../chat/parts';
import { BudgetMessageCard } from '../commerce/BudgetCard';
import { FormMessageCard } from '../forms/ConversationForms';
import { describeServiceInfo, formatProtocol, STATE_LABELS } from './labels';
import { useSocketEvent } from './live';
import { useVisitorMute } from './visitorSound';
import { playSound } from '../chat/sounds';

/** Within this distance of the bottom the list follows new messages; further up it stays put. */
const STICK_PX = 80;

/** Live pushes carry dates as strings, tRPC answers as Dates. */
const isoOf = (d: string | Date) => new Date(d).toISOString();

type Attendant = { userId: string; name: string; hasAvatar: boolean; deliveredSeq: number; readSeq: number };

/**
 * The customer's side of one request (/{emp}/chat/{id}, /{emp}/ticket/{id}, and the queue page once
 * a request is sent), as a messenger: the place in line while waiting for the first attendant (and
 * leaving the line), then the conversation without the members' comments (own bubbles right, the
 * attendants' left with name and face, who is typing, ticks), answering, the SLA proposal, and
 * rating at the end. The composer (or the rating card) stays at the bottom; only the messages scroll.
 */
export function CustomerConversation({ conversationId, onNewService }: { conversationId: string; onNewService?: () => void }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery();
  const myId = me.data?.user?.id ?? null;
  const info = trpc.customer.conversation.useQuery({ conversationId }, { retry: false });
  const history = trpc.customer.messages.useQuery({ conversationId }, { retry: false });
  const [live, setLive] = useState<ChatMessageEvent[]>([]);
  const typing = useTypingIn(conversationId, myId);
  const refetchInfo = () => void utils.customer.conversation.invalidate({ conversationId });
  const sound = useVisitorMute();

  useSocketEvent(
    'message:new',
    (m) => {
      if (m.conversationId !== conversationId || m.isComment) return;
      setLive((list) => [...list, m]);
      if (m.authorId) typing.stopped(m.authorId);
      // Only when the visitor is elsewhere: a visible chat shows the message already.
      if (m.authorId && m.authorId !== myId && m.type !== 'info' && document.hidden && !sound.muted) playSound('receive');
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
    utils.customer.conversation.setData({ conversationId }, (old) => old && { ...old, position: p.position, estimatedWaitMinutes: p.estimatedWaitMinutes });
  });
  // An attendant received or read: my ticks follow.
  useSocketEvent('receipt:update', (r) => {
    if (r.conversationId !== conversationId || r.userId === myId) return;
    utils.customer.conversation.setData({ conversationId }, (old) => {
      if (!old) return old;
      const known = old.others.some((o) => o.userId === r.userId);
      if (!known) {
        refetchInfo();
        return old;
      }
      const others = old.others.map((o) =>
        o.userId !== r.userId
          ? o
          : {
              ...o,
              deliveredSeq: Math.max(o.deliveredSeq, r.uptoSeq),
              readSeq: r.kind === 'read' ? Math.max(o.readSeq, r.uptoSeq) : o.readSeq,
            },
      );
      return { ...old, others };
    });
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

  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const c = info.data;
  // New messages, the typing line and the rating card keep the view at the bottom when the reader was there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastSeq, typing.ids.length, c?.state, c?.position]);

  if (info.isPending || history.isPending) return <Spinner />;
  if (info.isError || !c) return <FormError message={info.error ? serverMessage(info.error) : null} />;
  const concluded = c.state === CONVERSATION_STATE.concluded;
  const waiting = c.state === CONVERSATION_STATE.waiting;
  const people = new Map<string, Attendant>(c.others.map((o) => [o.userId, o]));
  const typingNames = typing.ids.map((id) => people.get(id)?.name).filter((n): n is string => !!n);
  return (
    <div className="customer-conversation">
      <header className="customer-header">
        <div>
          <strong>{c.companyName}</strong> · <Trans>Protocol {formatProtocol(c.protocol)}</Trans>
        </div>
        <span className="customer-header-end">
          <span className="badge" role="status">
            {i18n._(STATE_LABELS[c.state] ?? STATE_LABELS[1]!)}
          </span>
          <IconButton
            label={t`Mute the message sound`}
            icon={sound.muted ? BellOff : Bell}
            aria-pressed={sound.muted}
            onPress={sound.toggle}
            tooltipPlacement="bottom"
          />
        </span>
      </header>
      {/* The line is for the first attendant only: a transfer hands the visitor on, it does not queue them again. */}
      {waiting && !c.takenAt && <WaitingInLine conversationId={conversationId} position={c.position} waitMinutes={c.estimatedWaitMinutes} queueName={c.queueName} canLeave={c.canLeaveQueue} />}
      {waiting && c.takenAt && (
        <p className="customer-notice" role="status">
          <Trans>You are being transferred to another attendant. Please wait a moment.</Trans>
        </p>
      )}
      {c.responsibleName && !concluded && !waiting && (
        <p className="customer-notice muted">
          <Trans>{c.responsibleName} is serving you.</Trans>
        </p>
      )}
      <FormError message={history.error ? serverMessage(history.error) : null} />
      <div
        ref={scroller}
        className="message-scroller customer-scroller"
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
        }}
      >
        <div role="log" aria-live="polite" aria-relevant="additions" aria-label={t`Messages`}>
          <ol className="message-list customer-messages">
            {messages.map((m, i) => {
              const previous = messages[i - 1];
              const newDay = !previous || dayKey(isoOf(previous.createdAt)) !== dayKey(isoOf(m.createdAt));
              const sameAuthorRun = !newDay && !!previous && previous.authorId === m.authorId && previous.type !== 'info';
              return (
                <Fragment key={m.seq}>
                  {newDay && (
                    <li className="day-separator">
                      <span>{dayLabel(isoOf(m.createdAt), i18n)}</span>
                    </li>
                  )}
                  <CustomerMessage
                    message={m}
                    mine={!!myId && m.authorId === myId}
                    firstOfRun={!sameAuthorRun}
                    author={m.authorId ? people.get(m.authorId) : undefined}
                    others={c.others}
                    conversationId={conversationId}
                    proposalOpen={c.sla.proposal === 'open'}
                  />
                </Fragment>
              );
            })}
          </ol>
        </div>
        {typingNames.length > 0 && (
          <p className="customer-typing typing" role="status">
            {typingNames.length === 1 ? <Trans>{typingNames[0]} is typing…</Trans> : <Trans>Several people are typing…</Trans>}
          </p>
        )}
      </div>
      {concluded ? (
        <Concluded conversationId={conversationId} canRate={c.canRate} rating={c.rating} domain={c.domain} onNewService={onNewService} />
      ) : (
        <Composer conversationId={conversationId} onSent={(m) => setLive((list) => [...list, m])} />
      )}
    </div>
  );
}

/** Who is typing here (not me), each shown until a little after their last typing event or their message. */
function useTypingIn(conversationId: string, myId: string | null) {
  const [until, setUntil] = useState<Record<string, number>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const stopped = (userId: string) => {
    clearTimeout(timers.current.get(userId));
    timers.current.delete(userId);
    setUntil((u) => {
      if (!(userId in u)) return u;
      const next = { ...u };
      delete next[userId];
      return next;
    });
  };
  useSocketEvent('typing', (p) => {
    if (p.conversationId !== conversationId || p.userId === myId) return;
    // Typing comes every TYPING_DELAY_MS while someone writes: a little longer bridges the gaps.
    const ms = TYPING_DELAY_MS * 2;
    setUntil((u) => ({ ...u, [p.userId]: Date.now() + ms }));
    clearTimeout(timers.current.get(p.userId));
    timers.current.set(
      p.userId,
      setTimeout(() => stopped(p.userId), ms),
    );
  });
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const timer of all.values()) clearTimeout(timer);
    };
  }, []);
  return { ids: Object.keys(until).sort(), stopped };
}

function WaitingInLine({
  conversationId,
  position,
  waitMinutes,
  queueName,
  canLeave,
}: {
  conversationId: string;
  position: number | null;
  waitMinutes: number | null;
  queueName: string | null;
  canLeave: boolean;
}) {
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
      {waitMinutes !== null && (
        <p className="queue-wait">
          <Trans>Estimated wait: about {waitMinutes} min</Trans>
        </p>
      )}
      {queueName && <p className="muted">{queueName}</p>}
      <FormError message={leave.error ? serverMessage(leave.error) : null} />
      {canLeave && (
        <Button variant="secondary" size="small" isPending={leave.isPending} onPress={() => leave.mutate({ conversationId })}>
          <Trans>Leave the queue</Trans>
        </Button>
      )}
    </div>
  );
}

interface MessageProps {
  message: ChatMessageEvent;
  mine: boolean;
  /** The first of a run by one author on one day: the attendant's face and name go here. */
  firstOfRun: boolean;
  author: Attendant | undefined;
  others: Attendant[];
  conversationId: string;
  proposalOpen: boolean;
}

/** One message as the member chat draws it: info lines centred, my bubbles right with ticks, the attendants' left. */
function CustomerMessage({ message: m, mine, firstOfRun, author, others, conversationId, proposalOpen }: MessageProps) {
  const { t, i18n } = useLingui();
  const time = <time dateTime={isoOf(m.createdAt)}>{timeOf(m.createdAt, i18n.locale)}</time>;
  if (m.type === 'info' || !m.authorId) {
    return (
      <li className="message-info">
        <span>{(m.type === 'info' && describeServiceInfo(i18n, m.data)) || m.text}</span> {time}
      </li>
    );
  }
  const removed = m.removed || m.type === 'removida';
  const name = author?.name ?? m.authorName ?? t`Attendant`;
  const className = ['message', mine ? 'mine' : 'theirs', 'customer-message', !mine && !firstOfRun ? 'customer-message-cont' : '', removed ? 'removed' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <li className={className}>
      {!mine && (
        <span className="customer-message-face" aria-hidden="true">
          {firstOfRun && <Avatar userId={m.authorId} name={name} hasAvatar={author?.hasAvatar} size={32} />}
        </span>
      )}
      <div className="bubble">
        {!mine && firstOfRun && <span className="message-author">{name}</span>}
        {removed ? (
          <p className="message-text muted">
            <Trans>Message removed</Trans>
          </p>
        ) : m.type === 'propostaSLA' ? (
          <SlaProposal message={m} conversationId={conversationId} proposalOpen={proposalOpen} />
        ) : m.type === 'formulario' ? (
          <FormMessageCard data={m.data} href={(formId) => `/i/form/${formId}`} />
        ) : m.type === 'orcamento' ? (
          <BudgetMessageCard data={m.data} />
        ) : (
          <>
            {m.file && (
              <FileLinkSource.Provider value="customer">
                <FileContent message={{ ...m, conversationId }} />
              </FileLinkSource.Provider>
            )}
            {m.text && (
              <p className="message-text">
                <MessageText text={m.text} mentionNames={[]} />
              </p>
            )}
          </>
        )}
        <span className="message-meta">
          {time}
          {mine && <Ticks state={ticksFor(m.seq, others)} />}
        </span>
      </div>
    </li>
  );
}

function SlaProposal({ message: m, conversationId, proposalOpen }: { message: ChatMessageEvent; conversationId: string; proposalOpen: boolean }) {
  const { i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const answer = trpc.customer.answerSla.useMutation({ onSuccess: () => utils.customer.conversation.invalidate({ conversationId }) });
  const data = (m.data ?? {}) as { offerDate?: string; escolhaProposta?: 'accepted' | 'declined' | null };
  const date = data.offerDate ? i18n.date(new Date(data.offerDate), { dateStyle: 'full', timeStyle: 'short' }) : '';
  return (
    <div className="customer-sla">
      <p className="message-text">
        <Trans>Proposed conclusion date: {date}</Trans>
      </p>
      <FormError message={answer.error ? serverMessage(answer.error) : null} />
      {!data.escolhaProposta && proposalOpen && !answer.isSuccess ? (
        <div className="form-actions">
          <Button variant="primary" size="small" isPending={answer.isPending} onPress={() => answer.mutate({ conversationId, accept: true })}>
            <Trans>Accept date</Trans>
          </Button>
          <Button variant="secondary" size="small" isDisabled={answer.isPending} onPress={() => answer.mutate({ conversationId, accept: false })}>
            <Trans>Decline</Trans>
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function Composer({ conversationId, onSent }: { conversationId: string; onSent: (m: ChatMessageEvent) => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [text, setText] = useState('');
  const lastTyping = useRef(0);
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
  // The attendant sees "typing", told at most once per TYPING_DELAY_MS like the member chat does.
  const typed = () => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_DELAY_MS) return;
    lastTyping.current = now;
    const socket = getSocket();
    if (socket.connected) socket.emit('typing', { conversationId });
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
        rows={1}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder={t`Write a message`}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value) typed();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <IconButton type="submit" label={t`Send`} icon={Send} isDisabled={!text.trim() || send.isPending} />
    </form>
  );
}

function Concluded({ conversationId, canRate, rating, domain, onNewService }: { conversationId: string; canRate: boolean; rating: number | null; domain: string; onNewService?: () => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const rate = trpc.customer.rate.useMutation({ onSuccess: () => utils.customer.conversation.invalidate({ conversationId }) });
  return (
    <section className="customer-concluded" aria-label={t`Service concluded`}>
      <p>
        <strong>
          <Trans>This service is concluded.</Trans>
        </strong>
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
        <Button variant="secondary" onPress={onNewService}>
          <Trans>Start a new service</Trans>
        </Button>
      ) : (
        <ButtonLink variant="secondary" to={`/${domain}/direct`}>
          <Trans>Start a new service</Trans>
        </ButtonLink>
      )}
    </section>
  );
}
