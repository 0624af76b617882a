import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppRouter } from '../../../server/router';
import { answerText, type FormField, type FormFieldError } from '../../../shared/domain/forms';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { uploadAnswer } from './download';
import { FormFields, type ClientValue } from './FormFields';
import { SignaturePad } from './SignaturePad';

export type FormView = inferRouterOutputs<AppRouter>['forms']['form'];
export type Side = { side: 'member'; domain: string } | { side: 'customer' };

/** The calls a screen makes on a filled form, from its side (member procedures or the customer's). */
export function useFormCalls(who: Side) {
  const utils = trpc.useUtils();
  const c = utils.client;
  return {
    save: (formId: string, values: Record<string, unknown>) =>
      who.side === 'member' ? c.forms.saveDraft.mutate({ domain: who.domain, formId, values: values as never }) : c.formsCustomer.saveDraft.mutate({ formId, values: values as never }),
    submit: (formId: string, values: Record<string, unknown>) =>
      who.side === 'member' ? c.forms.submit.mutate({ domain: who.domain, formId, values: values as never }) : c.formsCustomer.submit.mutate({ formId, values: values as never }),
    link: (formId: string, fieldId: string, download = false) =>
      who.side === 'member' ? c.forms.fileLink.query({ domain: who.domain, formId, fieldId, download }) : c.formsCustomer.fileLink.query({ formId, fieldId, download }),
    removeFile: (formId: string, fieldId: string) =>
      who.side === 'member' ? c.forms.removeFile.mutate({ domain: who.domain, formId, fieldId }) : c.formsCustomer.removeFile.mutate({ formId, fieldId }),
  };
}

/** Answers without files: what a draft save or a submission sends (files are uploaded on their own). */
function typedAnswers(fields: readonly FormField[], values: Record<string, ClientValue>) {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.type === 'heading' || f.type === 'file' || f.type === 'image' || f.type === 'signature' || f.readOnly) continue;
    const v = values[f.id];
    if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) out[f.id] = v;
  }
  return out;
}

const AUTOSAVE_MS = 1200;

/**
 * Filling a form: answers are kept as a draft a moment after each change (and on leaving), the
 * rules are applied when it is submitted and each refused field says why, next to itself.
 */
export function FillForm({ form, who, onSubmitted }: { form: FormView; who: Side; onSubmitted?: () => void }) {
  const { t } = useLingui();
  const calls = useFormCalls(who);
  const serverMessage = useServerMessage();
  const [values, setValues] = useState<Record<string, ClientValue>>(form.values as Record<string, ClientValue>);
  const [errors, setErrors] = useState<Record<string, FormFieldError | undefined>>({});
  const [draft, setDraft] = useState<'clean' | 'dirty' | 'saving' | 'saved' | 'failed'>('clean');
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef(values);
  latest.current = values;
  const dirty = useRef(false);

  const saveNow = useCallback(async () => {
    if (!dirty.current) return;
    dirty.current = false;
    setDraft('saving');
    try {
      await calls.save(form.id, typedAnswers(form.fields, latest.current));
      setDraft((d) => (d === 'saving' ? 'saved' : d));
    } catch (err) {
      dirty.current = true;
      setDraft('failed');
      setFailure(serverMessage(err as { message: string }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form.id]);

  useEffect(() => {
    if (draft !== 'dirty') return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, values, saveNow]);
  // Leaving the screen keeps what was typed.
  useEffect(() => () => void saveNow(), [saveNow]);

  const change = (fieldId: string, value: ClientValue) => {
    setValues((v) => ({ ...v, [fieldId]: value }));
    setErrors((e) => ({ ...e, [fieldId]: undefined }));
    dirty.current = true;
    setDraft('dirty');
  };

  const submit = async () => {
    setSubmitting(true);
    setFailure(null);
    try {
      dirty.current = false;
      await calls.submit(form.id, typedAnswers(form.fields, latest.current));
      onSubmitted?.();
    } catch (err) {
      const e = err as { message: string; data?: { fieldErrors?: Record<string, string[] | undefined> } };
      const fieldErrors = e.data?.fieldErrors ?? {};
      setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v?.[0] as FormFieldError])));
      setFailure(serverMessage(e));
    } finally {
      setSubmitting(false);
    }
  };

  const fileSlot = (field: FormField) => (
    <FileAnswer
      formId={form.id}
      field={field}
      value={values[field.id] ?? null}
      calls={calls}
      onStored={(stored) => {
        setValues((v) => ({ ...v, [field.id]: stored }));
        setErrors((e) => ({ ...e, [field.id]: undefined }));
      }}
    />
  );

  return (
    <form
      className="form-fill"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <FormError message={failure} />
      <FormFields fields={form.fields} values={values} errors={errors} onChange={change} fileSlot={fileSlot} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={submitting} aria-busy={submitting || undefined}>
          <Trans>Submit form</Trans>
        </button>
        <span className="muted form-draft-state" role="status">
          {draft === 'saving' ? t`Saving draft…` : draft === 'saved' ? t`Draft saved` : draft === 'failed' ? t`The draft could not be saved` : ''}
        </span>
      </div>
    </form>
  );
}

type Calls = ReturnType<typeof useFormCalls>;

/** A file, image or signature answer: what is stored (a link, a picture) and how to change it. */
function FileAnswer({ formId, field, value, calls, onStored }: { formId: string; field: FormField; value: ClientValue; calls: Calls; onStored: (v: ClientValue) => void }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const serverMessage = useServerMessage();
  const stored = value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  const store = async (blob: Blob, name: string) => {
    setBusy(true);
    setError(null);
    try {
      onStored(await uploadAnswer(formId, field.id, blob, name));
    } catch (err) {
      setError(serverMessage(err as Error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="form-file-answer">
      {stored && <StoredFile formId={formId} field={field} file={stored} calls={calls} />}
      {field.type === 'signature' ? (
        <SignaturePad disabled={busy} onSave={(png) => void store(png, 'assinatura.png')} />
      ) : (
        <input
          type="file"
          aria-label={stored ? t`Replace ${field.label}` : t`Attach ${field.label}`}
          accept={field.type === 'image' ? 'image/*' : undefined}
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void store(file, file.name || 'file');
            e.target.value = '';
          }}
        />
      )}
      {stored && (
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            calls
              .removeFile(formId, field.id)
              .then(() => onStored(null))
              .catch((err: Error) => setError(serverMessage(err)))
              .finally(() => setBusy(false));
          }}
        >
          <Trans>Remove</Trans>
        </button>
      )}
      {busy && <span className="muted" role="status">{t`Sending…`}</span>}
      <FormError message={error} />
    </div>
  );
}

/** A stored file: images and signatures are shown, other files open from a short-lived link. */
export function StoredFile({ formId, field, file, calls }: { formId: string; field: FormField; file: { name: string; mime: string }; calls: Calls }) {
  const [src, setSrc] = useState<string | null>(null);
  const isImage = file.mime.startsWith('image/');
  useEffect(() => {
    let live = true;
    if (isImage) void calls.link(formId, field.id).then((l) => live && setSrc(l.url)).catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formId, field.id, file.name, isImage]);
  return (
    <div className="form-stored-file">
      {isImage && src && <img src={src} alt={field.label} className={field.type === 'signature' ? 'form-signature' : 'form-image'} />}
      <button type="button" className="link-button" onClick={() => void calls.link(formId, field.id, true).then((l) => window.open(l.url, '_blank', 'noopener'))}>
        {file.name}
      </button>
    </div>
  );
}

/** A submitted (or not yours to fill) form: every question with its answer, as written. */
export function FormAnswers({ form, who }: { form: FormView; who: Side }) {
  const { t } = useLingui();
  const calls = useFormCalls(who);
  const words = { yes: t`Yes`, no: t`No` };
  return (
    <dl className="form-answers">
      {form.fields.map((field) =>
        field.type === 'heading' ? (
          <div key={field.id} className="form-heading">
            <h4>{field.label}</h4>
            {field.help && <p className="muted">{field.help}</p>}
          </div>
        ) : (
          <div key={field.id} className="form-answer">
            <dt>{field.label}</dt>
            <dd>
              {field.type === 'file' || field.type === 'image' || field.type === 'signature' ? (
                form.values[field.id] ? (
                  <StoredFile formId={form.id} field={field} file={form.values[field.id] as { name: string; mime: string }} calls={calls} />
                ) : (
                  '—'
                )
              ) : (
                answerText(field, form.values[field.id] as never, words) || '—'
              )}
            </dd>
          </div>
        ),
      )}
    </dl>
  );
}

export function SubmittedNotice({ form }: { form: FormView }) {
  const { i18n } = useLingui();
  if (form.status !== 'submitted') return null;
  const when = form.submittedAt ? i18n.date(new Date(form.submittedAt), { dateStyle: 'short', timeStyle: 'short' }) : '';
  return (
    <FormNotice>
      <Trans>
        Submitted by {form.submittedByName ?? '—'} on {when}
      </Trans>
    </FormNotice>
  );
}
