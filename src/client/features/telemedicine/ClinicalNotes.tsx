import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { trpc } from '../../trpc';
import { FormError, LoadingSkeleton, SubmitButton, TextAreaField } from '../../ui';
import { useSocketEvent } from '../service/live';
import { useTeleText } from './texts';

/** The consultation's clinical notes: its doctor writes them; its doctor and patient read them (each read is logged). */
export function ClinicalNotes({ consultationId, canWrite }: { consultationId: string; canWrite: boolean }) {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const notes = trpc.telemedicine.notes.useQuery({ consultationId });
  useSocketEvent('telemedicine:changed', (p) => p.consultationId === consultationId && void utils.telemedicine.notes.invalidate({ consultationId }));
  const [draft, setDraft] = useState('');
  const add = trpc.telemedicine.addNote.useMutation({
    onSuccess: async () => {
      setDraft('');
      await utils.telemedicine.notes.invalidate({ consultationId });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (draft.trim()) add.mutate({ consultationId, text: draft.trim() });
  }
  return (
    <section className="tele-notes" aria-labelledby={`notes-${consultationId}`}>
      <h3 id={`notes-${consultationId}`}>
        <Trans>Clinical notes</Trans>
      </h3>
      <p className="muted">
        <Trans>Only the doctor of this consultation and the patient can read these notes; every read is logged.</Trans>
      </p>
      {notes.isPending ? (
        <LoadingSkeleton variant="text" rows={2} />
      ) : notes.isError ? (
        <FormError message={text(notes.error.message)} />
      ) : notes.data.length === 0 ? (
        <p className="muted">
          <Trans>No notes yet.</Trans>
        </p>
      ) : (
        <ul className="tele-note-list">
          {notes.data.map((n) => (
            <li key={n.id}>
              <p>{n.text}</p>
              <small className="muted">
                {n.authorName} · {i18n.date(n.createdAt, { dateStyle: 'short', timeStyle: 'short' })}
              </small>
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <form onSubmit={submit}>
          <TextAreaField label={t`New note`} value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={5000} rows={3} />
          <FormError message={add.error ? text(add.error.message) : null} />
          <div className="form-actions">
            <SubmitButton pending={add.isPending}>
              <Trans>Add note</Trans>
            </SubmitButton>
          </div>
        </form>
      )}
    </section>
  );
}
