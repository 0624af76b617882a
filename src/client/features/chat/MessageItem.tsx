import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useId, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ticksFor } from '../../../shared/domain/messages';
import { trpc } from '../../trpc';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useChat, useRecentsList, useTranslateError } from './ChatProvider';
import type { Person } from './ConversationPage';
import { BudgetMessageCard } from '../commerce/BudgetCard';
import { FormMessageCard } from '../forms/ConversationForms';
import { FileContent } from './FileContent';
import { infoText, messageSummary, timeOf } from './format';
import { Icon, type IconName } from './icons';
import { useJumpToMessage } from './jump';
import { Ticks } from './parts';
import { normalizeMessage, type ChatMessage, type OutgoingMessage } from './sync';

/** How many conversations one forward reaches at most (the server's limit). */
const FORWARD_MAX = 20;

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/**
 * A message's text as React nodes: links for http(s) addresses, @Name highlighted for the people
 * it mentions. Never HTML: whatever the text holds is shown as text.
 */
export function MessageText({ text, mentionNames }: { text: string; mentionNames: string[] }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(...withMentions(text.slice(last, at), mentionNames, parts.length));
    parts.push(
      <a key={`u${at}`} href={match[0]} target="_blank" rel="noopener noreferrer">
        {match[0]}
      </a>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(...withMentions(text.slice(last), mentionNames, parts.length));
  return <>{parts}</>;
}

function withMentions(text: string, names: string[], keyBase: number): ReactNode[] {
  if (names.length === 0) return [text];
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`@(?:${escaped.join('|')})`, 'g');
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push(
      <strong key={`m${keyBase}-${at}`} className="mention">
        {match[0]}
      </strong>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

interface ItemProps {
  message: ChatMessage;
  mine: boolean;
  showAuthor: boolean;
  watermarks: { deliveredSeq: number; readSeq: number }[];
  people: Person[];
  conversationId: string;
  /** Its row in the virtualized list, and the list's measuring ref. */
  index?: number;
  measure?: (el: Element | null) => void;
  /** Reached from a reply's quote: marked, and focusable so focus can land on it. */
  jumped?: boolean;
}

/**
 * One message: info messages as a centred line, the others as a bubble with time and ticks.
 * Memoized: the virtualized list re-renders on every scroll frame, its rows only when they change.
 */
export const MessageItem = memo(function MessageItem({ message, mine, showAuthor, watermarks, people, index, measure, jumped }: ItemProps) {
  const { t, i18n } = useLingui();
  // A relay (channels module) gave up on this message: the provider's reason, as it said it.
  const relayFailed = (message.data as { relayFailed?: { channel: string; reason: string } } | null)?.relayFailed;
  const { domain } = useChat();

  if (message.type === 'info') {
    return (
      <li ref={measure} data-index={index} className={jumped ? 'message-info jumped' : 'message-info'} id={`msg-${message.seq}`} tabIndex={jumped ? -1 : undefined}>
        <span>{infoText(message, i18n)}</span> <time dateTime={message.createdAt}>{timeOf(message.createdAt, i18n.locale)}</time>
      </li>
    );
  }

  const removed = message.removed || message.type === 'removida';
  const mentionNames = message.mentions.map((id) => people.find((p) => p.userId === id)?.name).filter((n): n is string => !!n);
  const className = ['message', mine ? 'mine' : 'theirs', message.isComment ? 'comment' : '', removed ? 'removed' : '', jumped ? 'jumped' : ''].filter(Boolean).join(' ');

  return (
    <li ref={measure} data-index={index} className={className} id={`msg-${message.seq}`} tabIndex={jumped ? -1 : undefined}>
      <div className="bubble">
        {showAuthor && !mine && <span className="message-author">{message.authorName ?? t`Someone`}</span>}
        {message.isComment && (
          <span className="message-tag">
            <Trans>Internal comment</Trans>
          </span>
        )}
        {message.forwarded && (
          <span className="message-tag">
            <Icon name="forward" size={14} /> <Trans>Forwarded</Trans>
          </span>
        )}
        {message.replyToId && <ReplyQuote message={message} />}
        {!removed && message.file && <FileContent message={message} />}
        {removed ? (
          <p className="message-text muted">
            <Trans>Message removed</Trans>
          </p>
        ) : message.type === 'formulario' ? (
          <FormMessageCard data={message.data} href={(formId) => `/i/recent/chat/${message.conversationId}/form/${domain}/${formId}`} />
        ) : message.type === 'orcamento' ? (
          <BudgetMessageCard data={message.data} />
        ) : (
          message.text && (
            <p className="message-text">
              <MessageText text={message.text} mentionNames={mentionNames} />
            </p>
          )
        )}
        <span className="message-meta">
          {message.editedAt && !removed && (
            <span className="message-edited">
              <Trans>edited</Trans>
            </span>
          )}
          <time dateTime={message.createdAt}>{timeOf(message.createdAt, i18n.locale)}</time>
          {mine && <Ticks state={relayFailed ? 'failed' : ticksFor(message.seq, watermarks)} />}
        </span>
        {relayFailed && !removed && (
          <p className="channels-relay-failed muted" role="note">
            {relayFailed.channel === 'telegram'
              ? t`Not delivered on Telegram: ${relayFailed.reason}`
              : relayFailed.channel === 'email'
                ? t`Not delivered by e-mail: ${relayFailed.reason}`
                : t`Not delivered on WhatsApp: ${relayFailed.reason}`}
          </p>
        )}
      </div>
      {!removed && <MessageActions message={message} mine={mine} />}
    </li>
  );
});

/**
 * What one can do with a message, behind one button so the list stays calm: reply, forward; on
 * my own, edit (text only) and the receipts page; delete for its author or an administrator.
 */
function MessageActions({ message, mine }: { message: ChatMessage; mine: boolean }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { isAdmin } = useChat();
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<'forward' | 'delete' | null>(null);
  const listId = useId();
  const act = (fn: () => void) => () => {
    setOpen(false);
    fn();
  };
  const item = (label: string, icon: IconName, onClick: () => void) => (
    <button type="button" className="icon-button" aria-label={label} title={label} onClick={act(onClick)}>
      <Icon name={icon} />
    </button>
  );
  return (
    <div className="message-actions">
      <button
        type="button"
        className="icon-button"
        aria-label={t`Message actions`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      >
        <Icon name="more" />
      </button>
      {open && (
        <div id={listId} className="message-action-list" role="group" aria-label={t`Message actions`} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
          {item(t`Reply`, 'reply', () => void navigate(`/i/recent/chat/${message.conversationId}/reply?to=${message.id}`))}
          {item(t`Forward`, 'forward', () => setDialog('forward'))}
          {mine && message.type === 'texto' && item(t`Edit`, 'edit', () => void navigate(`/i/recent/chat/${message.conversationId}?edit=${message.id}`))}
          {mine && item(t`Message details`, 'info', () => void navigate(`/i/recent/${message.conversationId}/messageDetails/${message.id}`))}
          {(mine || isAdmin) && item(t`Delete`, 'trash', () => setDialog('delete'))}
        </div>
      )}
      {dialog === 'forward' && <ForwardDialog message={message} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteMessageDialog message={message} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** Removing a message: it becomes 'removida' for everyone; refusals carry the spec's [code]. */
function DeleteMessageDialog({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const { t } = useLingui();
  const { engine, domain } = useChat();
  const translate = useTranslateError();
  const remove = trpc.chat.deleteMessage.useMutation({
    onSuccess: (updated) => {
      engine.receiveChange(normalizeMessage(updated));
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={t`Delete this message for everyone?`}
      confirmLabel={t`Delete`}
      danger
      pending={remove.isPending}
      error={remove.error ? translate(remove.error.message) : null}
      onConfirm={() => remove.mutate({ domain, conversationId: message.conversationId, messageId: message.id })}
      onCancel={onClose}
    />
  );
}

/** Forwarding: pick one or more of my conversations (the list, searchable by title). */
function ForwardDialog({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const { t } = useLingui();
  const { domain } = useChat();
  const translate = useTranslateError();
  const recents = useRecentsList();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [clientId] = useState(() => crypto.randomUUID());
  const forward = trpc.chat.forward.useMutation({ onSuccess: onClose });
  const q = query.trim().toLowerCase();
  const targets = (recents.data?.pages.flatMap((p) => p.items) ?? []).filter(
    (r) => !r.removed && (chosen.has(r.conversationId) || !q || r.title.toLowerCase().includes(q)),
  );
  return (
    <ConfirmDialog
      title={t`Forward to…`}
      confirmLabel={t`Forward`}
      pending={forward.isPending}
      confirmDisabled={chosen.size === 0}
      error={forward.error ? translate(forward.error.message) : null}
      onConfirm={() => forward.mutate({ domain, conversationId: message.conversationId, messageId: message.id, toConversationIds: [...chosen], clientId })}
      onCancel={onClose}
    >
      <div className="field">
        <label htmlFor={`fwd-${message.id}`}>
          <Trans>Search conversations</Trans>
        </label>
        <input id={`fwd-${message.id}`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoFocus />
      </div>
      <fieldset className="people-checks">
        <legend>
          <Trans>Conversations</Trans> ({chosen.size})
        </legend>
        {targets.map((r) => (
          <label key={r.conversationId} className="people-check">
            <input
              type="checkbox"
              checked={chosen.has(r.conversationId)}
              disabled={!chosen.has(r.conversationId) && chosen.size >= FORWARD_MAX}
              onChange={(e) =>
                setChosen((s) => {
                  const next = new Set(s);
                  if (e.target.checked) next.add(r.conversationId);
                  else next.delete(r.conversationId);
                  return next;
                })
              }
            />
            {r.title || t`(no title)`}
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}

/** The quote of the message a reply answers (kept by the server); clicking it scrolls to the original. */
function ReplyQuote({ message }: { message: ChatMessage }) {
  const { t, i18n } = useLingui();
  const { engine } = useChat();
  const jumpTo = useJumpToMessage();
  const quote = message.replyTo;
  const original = engine.log(message.conversationId).messages.find((m) => m.id === message.replyToId);
  const text = quote
    ? quote.removed
      ? t`Message removed`
      : quote.text || quote.fileName || messageSummary({ type: quote.type, text: '' }, i18n).text
    : original
      ? messageSummary(original, i18n).text
      : t`(not loaded)`;
  const seq = quote?.seq ?? original?.seq;
  return (
    <button
      type="button"
      className="reply-quote"
      onClick={() => {
        if (!seq) return;
        if (jumpTo) jumpTo(seq);
        else document.getElementById(`msg-${seq}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      }}
      aria-label={t`Go to the message this replies to`}
    >
      <span className="reply-quote-author">{quote?.authorName ?? original?.authorName ?? t`Earlier message`}</span>
      <span className="reply-quote-text">{text}</span>
    </button>
  );
}

/** A message of mine on its way: "sending", or "not sent" with retry and remove. */
export function OutgoingItem({ message, index, measure }: { message: OutgoingMessage; index?: number; measure?: (el: Element | null) => void }) {
  const { t, i18n } = useLingui();
  const { engine } = useChat();
  const translate = useTranslateError();
  const failed = message.state === 'failed';
  const reason =
    message.error === 'network' ? t`No connection.` : message.error === 'timeout' ? t`The server did not answer.` : message.error ? translate(message.error) : '';
  return (
    <li ref={measure} data-index={index} className={failed ? 'message mine outgoing failed' : 'message mine outgoing'}>
      <div className="bubble">
        <p className="message-text">
          <MessageText text={message.text} mentionNames={[]} />
        </p>
        <span className="message-meta">
          <time dateTime={message.createdAt}>{timeOf(message.createdAt, i18n.locale)}</time>
          <Ticks state={failed ? 'failed' : 'sending'} />
        </span>
      </div>
      {failed && (
        <div className="message-failed" role="alert">
          <span>
            <Trans>Not sent.</Trans> {reason}
          </span>
          <button type="button" className="link-button" onClick={() => engine.retry(message.clientId)}>
            <Trans>Try again</Trans>
          </button>
          <button type="button" className="link-button" onClick={() => engine.discard(message.clientId)}>
            <Trans>Remove</Trans>
          </button>
        </div>
      )}
    </li>
  );
}
