import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { getSocket } from '../../socket';
import { trpc } from '../../trpc';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useChat, useTranslateError } from './ChatProvider';
import type { ConversationOutletContext } from './ConversationPage';
import { PanelClose } from './DetailsPanel';
import { Avatar } from './parts';

/** The server's limit for one note. */
const NOTE_MAX = 5000;

type Note = { id: string; text: string; authorId: string | null; authorName: string | null; authorHasAvatar: boolean; createdAt: Date; editedAt: Date | null; mine: boolean };

/**
 * /i/recent/chat/{id}/anotacoes: internal notes on the conversation, for the company's members
 * only (customers never see them). Anyone in it adds; each edits or deletes their own. Other
 * people's changes arrive live.
 */
export function AnnotationsPage() {
  const { t, i18n } = useLingui();
  const { conversationId } = useOutletContext<ConversationOutletContext>();
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const translate = useTranslateError();
  const notes = trpc.chat.notes.useQuery({ domain, conversationId });
  const [deleting, setDeleting] = useState<Note | null>(null);
  const refresh = () => utils.chat.notes.invalidate({ domain, conversationId });
  const remove = trpc.chat.deleteNote.useMutation({
    onSuccess: async () => {
      setDeleting(null);
      await refresh();
    },
  });

  useEffect(() => {
    const socket = getSocket();
    const onNotes = (p: { conversationId: string }) => {
      if (p.conversationId === conversationId) void utils.chat.notes.invalidate({ domain, conversationId });
    };
    socket.on('conversation:notes', onNotes);
    return () => void socket.off('conversation:notes', onNotes);
  }, [utils, domain, conversationId]);

  return (
    <section className="panel">
      <div className="panel-head">
        <PageTitle title={t`Annotations`} />
        <PanelClose />
      </div>
      <p className="muted">
        <Trans>Only the company's members see these notes.</Trans>
      </p>
      <NoteForm conversationId={conversationId} onSaved={refresh} />
      {notes.isPending ? (
        <Spinner />
      ) : notes.isError ? (
        <p className="form-error" role="alert">
          {translate(notes.error.message)}
        </p>
      ) : notes.data.length === 0 ? (
        <p className="muted">
          <Trans>No notes yet.</Trans>
        </p>
      ) : (
        <ul className="notes-list">
          {[...notes.data].reverse().map((n) => (
            <NoteItem key={n.id} note={n} locale={i18n.locale} conversationId={conversationId} onChanged={refresh} onDelete={() => setDeleting(n)} />
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={t`Delete this note?`}
          confirmLabel={t`Delete`}
          danger
          pending={remove.isPending}
          error={remove.error ? translate(remove.error.message) : null}
          onConfirm={() => remove.mutate({ domain, conversationId, noteId: deleting.id })}
          onCancel={() => {
            remove.reset();
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}

function NoteForm({ conversationId, onSaved, note, onCancel }: { conversationId: string; onSaved: () => unknown; note?: Note; onCancel?: () => void }) {
  const { t } = useLingui();
  const { domain } = useChat();
  const translate = useTranslateError();
  const id = useId();
  const [text, setText] = useState(note?.text ?? '');
  const done = async () => {
    if (!note) setText('');
    await onSaved();
    onCancel?.();
  };
  const add = trpc.chat.addNote.useMutation({ onSuccess: done });
  const edit = trpc.chat.editNote.useMutation({ onSuccess: done });
  const pending = add.isPending || edit.isPending;
  const error = add.error ?? edit.error;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    if (note) edit.mutate({ domain, conversationId, noteId: note.id, text });
    else add.mutate({ domain, conversationId, text });
  }
  return (
    <form className="note-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{note ? t`Edit note` : t`New note`}</label>
        <textarea id={id} rows={3} value={text} maxLength={NOTE_MAX} onChange={(e) => setText(e.target.value)} />
      </div>
      <FormError message={error ? translate(error.message) : null} />
      <div className="form-actions">
        <button type="submit" className="button button-small" disabled={pending || !text.trim()} aria-busy={pending || undefined}>
          {note ? <Trans>Save</Trans> : <Trans>Add note</Trans>}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary button-small" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
    </form>
  );
}

function NoteItem(props: { note: Note; locale: string; conversationId: string; onChanged: () => unknown; onDelete: () => void }) {
  const { t } = useLingui();
  const { note } = props;
  const [editing, setEditing] = useState(false);
  const when = new Date(note.createdAt).toLocaleString(props.locale, { dateStyle: 'short', timeStyle: 'short' });
  if (editing) {
    return (
      <li className="note">
        <NoteForm conversationId={props.conversationId} note={note} onSaved={props.onChanged} onCancel={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="note">
      <div className="note-head">
        {note.authorId && <Avatar userId={note.authorId} name={note.authorName ?? ''} hasAvatar={note.authorHasAvatar} size={24} />}
        <strong>{note.authorName ?? t`Someone`}</strong>
        <time className="muted" dateTime={new Date(note.createdAt).toISOString()}>
          {when}
        </time>
        {note.editedAt && (
          <span className="muted message-edited">
            <Trans>edited</Trans>
          </span>
        )}
      </div>
      <p className="note-text">{note.text}</p>
      {note.mine && (
        <div className="form-actions">
          <button type="button" className="link-button" onClick={() => setEditing(true)}>
            <Trans>Edit</Trans>
          </button>
          <button type="button" className="link-button" onClick={props.onDelete}>
            <Trans>Delete</Trans>
          </button>
        </div>
      )}
    </li>
  );
}
