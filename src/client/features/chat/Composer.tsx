import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useMatch, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGE_MAX_LENGTH } from '../../../shared/constants';
import { fillReply, matchReplies, replyQueryAt } from '../../../shared/domain/saved-replies';
import { trpc } from '../../trpc';
import { useChat, useConversationLog, useTranslateError } from './ChatProvider';
import type { Person } from './ConversationPage';
import { useDraft } from './drafts';
import { Icon } from './icons';
import { playSound } from './sounds';
import { normalizeMessage } from './sync';
import { UploadList } from './UploadList';
import { canRecord, VoiceRecorder } from './VoiceRecorder';

const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/** The "@name" being typed right before the caret, if any. */
function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,30})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/**
 * Writing a message: Enter sends, Shift+Enter starts a new line; at most MESSAGE_MAX_LENGTH
 * characters with a counter; '@' offers the participants to mention; the draft stays with the
 * conversation until sent (and goes when emptied); others see "typing" at most every 1.5 s.
 * An internal comment is seen by the company's members only. '/' offers the company's saved
 * replies (canned responses), filled with the customer's first name where they say {customer}.
 */
export function Composer(props: {
  conversationId: string;
  people: Person[];
  initialDraft: string;
  canComment: boolean;
  canSendAudio: boolean;
  /** The customer of a service conversation, for the saved replies' {customer}. */
  customerName?: string;
}) {
  const { conversationId, people } = props;
  const { t } = useLingui();
  const { engine, me, domain, uploads, companyName } = useChat();
  // Members only: elsewhere (a refusal) the composer simply offers none.
  const savedReplies = trpc.replies.list.useQuery({ domain }, { staleTime: 60_000, retry: false }).data ?? [];
  // The limit the upload store refuses bigger files by, said where files are picked.
  const maxUpload = trpc.chat.uploadLimits.useQuery({ domain }, { staleTime: Infinity }).data?.maxUploadBytes;
  const maxMb = maxUpload ? Math.floor(maxUpload / 1_048_576) : null;
  const navigate = useNavigate();
  const translate = useTranslateError();
  const replying = useMatch('/i/recent/chat/:id/reply') !== null;
  const [params] = useSearchParams();
  const replyToId = replying ? (params.get('to') ?? undefined) : undefined;
  const draft = useDraft(conversationId, props.initialDraft);
  const log = useConversationLog(conversationId);
  const editId = params.get('edit');
  const editing = editId ? log.messages.find((m) => m.id === editId && m.authorId === me.id && !m.removed) : undefined;
  const [editText, setEditText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const edit = trpc.chat.edit.useMutation({
    onSuccess: (updated) => {
      engine.receiveChange(normalizeMessage(updated));
      closeEdit();
    },
    onError: (err) => setError(translate(err.message)),
  });
  // Editing shows the message's own text; the draft waits untouched.
  const text = editing ? (editText ?? editing.text) : draft.text;
  const setText = (value: string) => (editing ? setEditText(value) : draft.setText(value));
  const [comment, setComment] = useState(false);
  const [mentioned, setMentioned] = useState<Map<string, string>>(new Map());
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [replyQuery, setReplyQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const ids = { input: useId(), counter: useId(), list: useId(), error: useId() };

  const over = text.length > MESSAGE_MAX_LENGTH;
  const candidates = mention
    ? people.filter((p) => p.userId !== me.id && fold(p.name).includes(fold(mention.query))).slice(0, 8)
    : [];
  const replyCandidates = replyQuery && !editing ? matchReplies(savedReplies, replyQuery.query) : [];
  // One list under the caret: people after '@', saved replies after '/'.
  const suggestions: { key: string; label: string; detail?: string; pick: () => void }[] = candidates.length
    ? candidates.map((p) => ({ key: p.userId, label: p.name, pick: () => pick(p) }))
    : replyCandidates.map((r) => ({ key: r.id, label: `/${r.shortcut}`, detail: r.title || r.text, pick: () => pickReply(r.text) }));
  const listOpen = suggestions.length > 0;

  useEffect(() => {
    if (replying || editing) input.current?.focus();
  }, [replying, replyToId, editing]);

  function closeEdit() {
    setEditText(null);
    setError(null);
    void navigate(`/i/recent/chat/${conversationId}`, { replace: true });
  }

  // Grows with its text up to a few lines, then scrolls.
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);

  function change(value: string, caret: number) {
    setText(value);
    setError(null);
    setMention(mentionAt(value, caret));
    setReplyQuery(replyQueryAt(value, caret));
    setActive(0);
    if (value.trim()) engine.typed(conversationId);
  }

  function pick(person: Person) {
    const el = input.current;
    if (!el || !mention) return;
    const caret = el.selectionStart ?? text.length;
    const inserted = `@${person.name} `;
    const value = text.slice(0, mention.start) + inserted + text.slice(caret);
    setText(value);
    setMentioned((m) => new Map(m).set(person.userId, person.name));
    setMention(null);
    const at = mention.start + inserted.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  }

  function pickReply(replyText: string) {
    const el = input.current;
    if (!el || !replyQuery) return;
    const caret = el.selectionStart ?? text.length;
    const inserted = fillReply(replyText, { customer: props.customerName, me: me.name, company: companyName });
    const value = text.slice(0, replyQuery.start) + inserted + text.slice(caret);
    setText(value);
    setReplyQuery(null);
    if (value.trim()) engine.typed(conversationId);
    const at = replyQuery.start + inserted.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  }

  function send() {
    const body = text.trim();
    if (!body) return;
    if (over) {
      setError(t`Messages have at most ${MESSAGE_MAX_LENGTH} characters`);
      return;
    }
    if (editing) {
      if (body === editing.text) return closeEdit();
      edit.mutate({ domain, conversationId, messageId: editing.id, text: body });
      return;
    }
    // Only mentions still written in the text count.
    const mentions = [...mentioned].filter(([, name]) => body.includes(`@${name}`)).map(([id]) => id);
    engine.send(conversationId, { text: body, replyToId, isComment: comment || undefined, mentions: mentions.length ? mentions : undefined });
    if (me.playReceive) playSound('send');
    draft.sent();
    setMentioned(new Map());
    setMention(null);
    setReplyQuery(null);
    if (replying) void navigate(`/i/recent/chat/${conversationId}`, { replace: true });
    input.current?.focus();
  }

  /** Files picked, pasted or dropped go out at once, each with its progress bar. */
  function sendFiles(files: Iterable<File>) {
    for (const file of files) {
      void uploads.start(conversationId, file, { name: file.name || 'file', replyToId, isComment: comment || undefined });
    }
    if (me.playReceive) playSound('send');
    if (replying) void navigate(`/i/recent/chat/${conversationId}`, { replace: true });
  }

  function keyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (listOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        (suggestions[active] ?? suggestions[0]!).pick();
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setMention(null);
        setReplyQuery(null);
        return;
      }
    }
    if (e.key === 'Escape' && editing) {
      e.preventDefault();
      closeEdit();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {listOpen && (
        <ul id={ids.list} className="mention-list" role="listbox" aria-label={candidates.length ? t`People to mention` : t`Saved replies`}>
          {suggestions.map((s, i) => (
            <li
              key={s.key}
              id={`${ids.list}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                s.pick();
              }}
            >
              {s.label}
              {s.detail && <span className="suggestion-detail">{s.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <div className="reply-bar composer-edit" role="status">
          <Icon name="edit" />
          <div className="reply-bar-quote">
            <span className="reply-quote-author">
              <Trans>Editing message</Trans>
            </span>
            <span className="reply-quote-text">{editing.text}</span>
          </div>
          <button type="button" className="icon-button" aria-label={t`Cancel editing`} onClick={closeEdit}>
            <Icon name="close" />
          </button>
        </div>
      )}
      <UploadList conversationId={conversationId} />
      <div className="composer-row">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label={t`Attach files`}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length) sendFiles(files);
          }}
        />
        <button type="button" className="icon-button" onClick={() => picker.current?.click()} aria-label={t`Attach files`} title={maxMb ? t`Attach files (at most ${maxMb} MB)` : t`Attach files`} disabled={!!editing}>
          <Icon name="clip" />
        </button>
        <label htmlFor={ids.input} className="visually-hidden">
          <Trans>Message</Trans>
        </label>
        <textarea
          ref={input}
          id={ids.input}
          rows={1}
          value={text}
          placeholder={savedReplies.length && !editing ? t`Write a message, or / for a saved reply` : t`Write a message`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={listOpen}
          aria-controls={listOpen ? ids.list : undefined}
          aria-activedescendant={listOpen ? `${ids.list}-${active}` : undefined}
          aria-invalid={over || undefined}
          aria-describedby={`${ids.counter}${error ? ` ${ids.error}` : ''}`}
          onChange={(e) => change(e.target.value, e.target.selectionStart)}
          onSelect={(e) => {
            setMention(mentionAt(e.currentTarget.value, e.currentTarget.selectionStart));
            setReplyQuery(replyQueryAt(e.currentTarget.value, e.currentTarget.selectionStart));
          }}
          onKeyDown={keyDown}
          onBlur={() => {
            setMention(null);
            setReplyQuery(null);
          }}
          onPaste={(e) => {
            const files = [...e.clipboardData.files];
            if (files.length && !editing) {
              e.preventDefault();
              sendFiles(files);
            }
          }}
        />
        {props.canSendAudio && canRecord() && !text.trim() && !editing && (
          <VoiceRecorder
            onRecorded={(audio, name, durationMs) => {
              void uploads.start(conversationId, audio, { name, recording: { durationMs }, replyToId, isComment: comment || undefined });
              if (me.playReceive) playSound('send');
            }}
          />
        )}
        <button
          type="submit"
          className="icon-button composer-send"
          aria-label={editing ? t`Save` : t`Send`}
          title={editing ? t`Save` : t`Send`}
          disabled={!text.trim() || edit.isPending}
        >
          <Icon name="send" />
        </button>
      </div>
      <div className="composer-foot">
        {props.canComment ? (
          <label className="composer-comment">
            <input type="checkbox" checked={comment} onChange={(e) => setComment(e.target.checked)} />
            <Trans>Internal comment (members only)</Trans>
          </label>
        ) : (
          <span />
        )}
        <span id={ids.counter} className={over ? 'composer-counter over' : 'composer-counter'}>
          <span className="visually-hidden">
            <Trans>Characters used:</Trans>
          </span>{' '}
          {text.length}/{MESSAGE_MAX_LENGTH}
        </span>
      </div>
      {error && (
        <p id={ids.error} className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
