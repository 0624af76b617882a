/**
 * Notes (/i/notes, /i/notes/{id}): the member's own notes and those colleagues shared, searchable,
 * with the conversation annotations of their conversations listed beside them; one note in the
 * rich-text editor (its own chunk: the editor loads only here), with sharing and files.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NOTE_TITLE_MAX, type NoteDoc } from '../../../shared/domain/note-doc';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Dialog } from '../../ui/Dialog';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { putFile } from '../feeds/upload';
import { MemberScreen } from '../service/MemberScreen';
import { useSocketEvent } from '../service/live';

const NoteEditor = lazy(() => import('./NoteEditor').then((m) => ({ default: m.NoteEditor })));

export function NotesPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Notes`} className="notes-page">{(company) => <NotesList domain={company.domain} />}</MemberScreen>;
}

function NotesList({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [q, setQ] = useState('');
  const [scope, setScope] = useState<'all' | 'mine' | 'shared'>('all');
  const search = useDebounced(q.trim(), 300);
  const notes = trpc.notes.list.useQuery({ domain, q: search || undefined, scope });
  const annotations = trpc.notes.annotations.useQuery({ domain, q: search || undefined });
  useSocketEvent('note:changed', () => void utils.notes.list.invalidate(), () => void utils.notes.list.invalidate());
  const create = trpc.notes.create.useMutation({ onSuccess: ({ id }) => void navigate(`/i/notes/${id}`) });

  return (
    <>
      <div className="notes-bar">
        <div className="field">
          <label htmlFor="notes-search">
            <Trans>Search notes</Trans>
          </label>
          <input id="notes-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="notes-scope">
            <Trans>Show</Trans>
          </label>
          <select id="notes-scope" value={scope} onChange={(e) => setScope(e.target.value as typeof scope)}>
            <option value="all">{t`All notes`}</option>
            <option value="mine">{t`My notes`}</option>
            <option value="shared">{t`Shared with me`}</option>
          </select>
        </div>
        <button type="button" className="button" disabled={create.isPending} onClick={() => create.mutate({ domain, title: '' })}>
          <Trans>New note</Trans>
        </button>
      </div>
      <FormError message={serverMessage(create.error)} />
      {notes.isPending && <Spinner />}
      {notes.isError && <FormError message={serverMessage(notes.error)} />}
      {notes.data && notes.data.length === 0 && (
        <p className="empty-state muted">{search ? <Trans>No note matches your search.</Trans> : <Trans>No notes yet. Notes are private until you share them.</Trans>}</p>
      )}
      {notes.data && notes.data.length > 0 && (
        <ul className="notes-list">
          {notes.data.map((n) => (
            <li key={n.id}>
              <Link to={`/i/notes/${n.id}`} className="notes-item">
                <strong>{n.title || t`Untitled note`}</strong>
                <span className="muted">{n.excerpt}</span>
                <span className="muted notes-meta">
                  {i18n.date(new Date(n.updatedAt), { dateStyle: 'short', timeStyle: 'short' })}
                  {' · '}
                  {n.mine ? n.sharedWith > 0 ? <Trans>Shared with {n.sharedWith}</Trans> : <Trans>Private</Trans> : <Trans>Shared by {n.ownerName}</Trans>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="annotations-title" className="notes-annotations">
        <h2 id="annotations-title">
          <Trans>Conversation annotations</Trans>
        </h2>
        {annotations.isPending && <Spinner />}
        {annotations.isError && <FormError message={serverMessage(annotations.error)} />}
        {annotations.data?.length === 0 && (
          <p className="muted">
            <Trans>Annotations written in your conversations appear here.</Trans>
          </p>
        )}
        <ul className="notes-list">
          {annotations.data?.map((a) => (
            <li key={a.id}>
              <Link to={`/i/recent/chat/${a.conversationId}/anotacoes`} className="notes-item">
                <strong>{a.conversationTitle || a.protocol}</strong>
                <span>{a.text}</span>
                <span className="muted notes-meta">
                  {a.authorName ?? ''} · {i18n.date(new Date(a.createdAt), { dateStyle: 'short', timeStyle: 'short' })}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function NotePage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Note`} className="notes-page">{(company) => <NoteScreen key={useParams().id} domain={company.domain} />}</MemberScreen>;
}

function NoteScreen({ domain }: { domain: string }) {
  const noteId = useParams().id ?? '';
  const serverMessage = useServerMessage();
  const note = trpc.notes.get.useQuery({ domain, noteId }, { retry: false, refetchOnWindowFocus: false });
  if (note.isPending) return <Spinner />;
  if (note.isError)
    return (
      <div className="empty-state">
        <FormError message={serverMessage(note.error)} />
        <Link to="/i/notes">
          <Trans>Back to notes</Trans>
        </Link>
      </div>
    );
  return <NoteForm domain={domain} note={note.data} />;
}

type LoadedNote = inferRouterOutputs<AppRouter>['notes']['get'];

function NoteForm({ domain, note }: { domain: string; note: LoadedNote }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState(note.title);
  const [doc, setDoc] = useState<NoteDoc>(note.doc);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [upload, setUpload] = useState<{ name: string; progress: number; error?: string } | null>(null);
  const refresh = () => utils.notes.get.invalidate({ domain, noteId: note.id });
  const update = trpc.notes.update.useMutation({
    onSuccess: () => {
      setDirty(false);
      setSaved(true);
      void utils.notes.list.invalidate();
    },
  });
  const remove = trpc.notes.remove.useMutation({ onSuccess: () => void navigate('/i/notes') });
  const removeFile = trpc.notes.removeAttachment.useMutation({ onSuccess: refresh });
  // Someone else saved it: a reader sees the new text at once (an editor with changes keeps theirs).
  useSocketEvent('note:changed', (e) => {
    if (e.noteId !== note.id) return;
    if (e.change === 'removed') return void navigate('/i/notes');
    if (!dirty) void refresh();
  });
  useEffect(() => {
    if (!dirty) {
      setTitle(note.title);
      setDoc(note.doc);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [note.updatedAt]);

  function attach(file: File | undefined) {
    if (!file) return;
    setUpload({ name: file.name, progress: 0 });
    putFile(`/uploads/note/${domain}/${note.id}?name=${encodeURIComponent(file.name)}`, file, (progress) => setUpload({ name: file.name, progress }))
      .then(() => (setUpload(null), refresh()))
      .catch((err: Error) => setUpload({ name: file.name, progress: 0, error: serverMessage(err) ?? err.message }));
  }

  return (
    <form
      className="note-form"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ domain, noteId: note.id, title, doc });
      }}
    >
      <p>
        <Link to="/i/notes">
          <Trans>Back to notes</Trans>
        </Link>
      </p>
      {!note.mine && (
        <p className="muted">
          {note.canEdit ? <Trans>Shared by {note.ownerName}: you can edit it.</Trans> : <Trans>Shared by {note.ownerName}: read only.</Trans>}
        </p>
      )}
      <div className="field">
        <label htmlFor="note-title">
          <Trans>Title</Trans>
        </label>
        <input id="note-title" value={title} maxLength={NOTE_TITLE_MAX} readOnly={!note.canEdit} onChange={(e) => (setTitle(e.target.value), setDirty(true), setSaved(false))} />
      </div>
      <Suspense fallback={<Spinner />}>
        <NoteEditor key={note.canEdit ? 'edit' : 'read'} doc={doc} editable={note.canEdit} label={t`Text of the note`} onChange={(d) => (setDoc(d), setDirty(true), setSaved(false))} />
      </Suspense>
      <FormError message={serverMessage(update.error)} />
      {saved && !dirty && <FormNotice>{t`Saved`}</FormNotice>}
      <div className="form-actions">
        {note.canEdit && (
          <button type="submit" className="button" disabled={update.isPending || !dirty}>
            <Trans>Save</Trans>
          </button>
        )}
        {note.mine && (
          <button type="button" className="button button-secondary" onClick={() => setSharing(true)}>
            <Trans>Share</Trans>
          </button>
        )}
        {note.mine && (
          <button type="button" className="button button-secondary" onClick={() => setRemoving(true)}>
            <Trans>Delete</Trans>
          </button>
        )}
      </div>
      {note.mine && note.shares.length > 0 && (
        <p className="muted">
          <Trans>Shared with:</Trans> {note.shares.map((s) => `${s.name ?? '—'}${s.canEdit ? ` (${t`can edit`})` : ''}`).join(', ')}
        </p>
      )}
      <section aria-labelledby="note-files" className="note-files">
        <h2 id="note-files">
          <Trans>Files</Trans>
        </h2>
        <ul>
          {note.attachments.map((a) => (
            <li key={a.id}>
              {a.isImage ? (
                <a href={a.url} target="_blank" rel="noopener noreferrer">
                  <img src={a.url} alt={a.name} className="note-image" />
                </a>
              ) : (
                <a href={a.url} download={a.name}>
                  {a.name}
                </a>
              )}
              {note.canEdit && (
                <button type="button" className="link-button" aria-label={t`Remove ${a.name}`} onClick={() => removeFile.mutate({ domain, noteId: note.id, attachmentId: a.id })}>
                  <Trans>Remove</Trans>
                </button>
              )}
            </li>
          ))}
        </ul>
        {upload && (upload.error ? <FormError message={upload.error} /> : <progress max={1} value={upload.progress} aria-label={t`Uploading ${upload.name}`} />)}
        {note.canEdit && (
          <label className="button button-secondary button-small">
            <Trans>Add a file</Trans>
            <input type="file" className="visually-hidden" onChange={(e) => attach(e.target.files?.[0])} />
          </label>
        )}
      </section>
      {sharing && <ShareDialog domain={domain} note={note} onClose={() => (setSharing(false), void refresh())} />}
      {removing && (
        <ConfirmDialog
          title={t`Delete this note?`}
          confirmLabel={t`Delete`}
          danger
          pending={remove.isPending}
          error={serverMessage(remove.error)}
          onConfirm={() => remove.mutate({ domain, noteId: note.id })}
          onCancel={() => setRemoving(false)}
        />
      )}
    </form>
  );
}

/** Who the note is shared with: colleagues of this company, each to read or also to edit. */
function ShareDialog({ domain, note, onClose }: { domain: string; note: LoadedNote; onClose: () => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const colleagues = trpc.chat.contacts.useQuery({ domain, limit: 200 });
  const [shares, setShares] = useState(new Map(note.shares.map((s) => [s.userId, s.canEdit])));
  const share = trpc.notes.share.useMutation({ onSuccess: onClose });
  const toggle = (userId: string, on: boolean) => setShares((m) => { const next = new Map(m); if (on) next.set(userId, false); else next.delete(userId); return next; });
  const setEdit = (userId: string, canEdit: boolean) => setShares((m) => new Map(m).set(userId, canEdit));
  return (
    <Dialog
      title={t`Share the note`}
      onClose={onClose}
      confirmLabel={t`Save sharing`}
      onConfirm={() => share.mutate({ domain, noteId: note.id, shares: [...shares].map(([userId, canEdit]) => ({ userId, canEdit })) })}
    >
      {colleagues.isPending && <Spinner />}
      <FormError message={serverMessage(colleagues.error ?? share.error)} />
      <ul className="note-share-list">
        {colleagues.data?.items.map((c) => (
          <li key={c.userId}>
            <label className="checkbox">
              <input type="checkbox" checked={shares.has(c.userId)} onChange={(e) => toggle(c.userId, e.target.checked)} />
              <span>{c.name}</span>
            </label>
            {shares.has(c.userId) && (
              <label className="checkbox">
                <input type="checkbox" checked={!!shares.get(c.userId)} onChange={(e) => setEdit(c.userId, e.target.checked)} />
                <span>
                  <Trans>can edit</Trans>
                </span>
              </label>
            )}
          </li>
        ))}
      </ul>
      {colleagues.data?.items.length === 0 && (
        <p className="muted">
          <Trans>No colleagues to share with yet.</Trans>
        </p>
      )}
    </Dialog>
  );
}
