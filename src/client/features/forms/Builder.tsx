import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useReducer, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { FORM_FIELD_TYPES, SIZE_MEANING, type FormField, type FormFieldType } from '../../../shared/domain/forms';
import { useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError, FormNotice } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { LoadingSkeleton } from '../../ui';
import { UnsavedChangesGuard } from '../../ui/UnsavedChanges';
import { builderReducer, type BuilderAction } from './builder';
import { downloadCsv } from './download';
import { FormFields } from './FormFields';
import { lossOf, TemplateLostDialog, useLiveTemplates, useTemplateLoss } from './live';
import { FIELD_TYPE_LABELS } from './texts';

/** /i/forma/{id}: the builder of a template ('new' for a new one), with its preview. */
export function BuilderPage() {
  const { t } = useLingui();
  const { id = 'new' } = useParams();
  const { company, isPending } = useSelectedCompany();
  if (isPending) return <LoadingSkeleton variant="form" />;
  if (!company) {
    return (
      <section className="page">
        <PageTitle title={t`Form`} />
        <p className="muted">
          <Trans>Sign in and choose a company to design its forms.</Trans>
        </p>
      </section>
    );
  }
  return <Builder key={id} domain={company.domain} templateId={id === 'new' ? null : id} />;
}

function Builder({ domain, templateId }: { domain: string; templateId: string | null }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  useLiveTemplates(domain);
  const loss = useTemplateLoss(templateId);
  const template = trpc.forms.template.useQuery({ domain, templateId: templateId ?? '' }, { enabled: !!templateId, retry: false });
  const [fields, dispatch] = useReducer(builderReducer, []);
  const [name, setName] = useState('');
  const [editorIds, setEditorIds] = useState<string[]>([]);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [newType, setNewType] = useState<FormFieldType>('shortText');
  const nameId = useId();

  // Load the saved template once (and again after a save); later pushes must not wipe an edit in progress.
  const loaded = template.data;
  useEffect(() => {
    if (!loaded || dirty) return;
    setName(loaded.name);
    setEditorIds(loaded.editorIds);
    dispatch({ type: 'reset', fields: loaded.fields });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded?.id, loaded?.version, loaded?.updatedAt]);

  const change = (action: BuilderAction) => {
    dispatch(action);
    setDirty(true);
    setNotice(null);
  };
  const [created, setCreated] = useState<string | null>(null);
  const onSaved = (saved: { id: string }) => {
    setDirty(false);
    setNotice(t`Form saved`);
    void utils.forms.templates.invalidate({ domain });
    if (!templateId) setCreated(saved.id);
  };
  // A new template gets its own address once saved (after the unsaved-changes guard saw it saved).
  useEffect(() => {
    if (created && !dirty) void navigate(`/i/forma/${created}`, { replace: true });
  }, [created, dirty, navigate]);
  const create = trpc.forms.create.useMutation({ onSuccess: onSaved });
  const update = trpc.forms.update.useMutation({ onSuccess: (saved) => (utils.forms.template.setData({ domain, templateId: saved.id }, saved), onSaved(saved)) });
  const setPrivate = trpc.forms.setPrivate.useMutation({ onSuccess: () => void template.refetch() });
  const remove = trpc.forms.delete.useMutation({ onSuccess: () => void navigate('/i/settings/forms', { replace: true }) });
  const save = async () => {
    try {
      // Editors are sent only by who may change them (the creator and admins); others keep them as they are.
      const editors = !loaded || loaded.mayChangeEditors ? { editorIds } : {};
      if (templateId) await update.mutateAsync({ domain, templateId, name, fields, ...editors });
      else await create.mutateAsync({ domain, name, fields, ...editors });
      return true;
    } catch {
      return false;
    }
  };

  const lost = loss.lost ?? lossOf(template.error?.message);
  if (lost) return <TemplateLostDialog reason={lost} />;
  if (templateId && template.isPending) return <LoadingSkeleton variant="form" />;
  if (templateId && template.error) {
    return (
      <section className="page">
        <PageTitle title={t`Form`} />
        <FormError message={serverMessage(template.error)} />
        <Link to="/i/settings/forms">
          <Trans>Back to the forms</Trans>
        </Link>
      </section>
    );
  }
  const rights = loaded?.rights ?? { edit: true, remove: false, export: false, changePrivacy: true };
  const readOnly = !rights.edit;
  const saveError = create.error ?? update.error;
  const move = (field: FormField, to: number) => {
    change({ type: 'move', id: field.id, to });
    setAnnounce(t`${field.label || i18n._(FIELD_TYPE_LABELS[field.type])} moved to position ${Math.max(1, Math.min(fields.length, to + 1))} of ${fields.length}`);
  };

  return (
    <section className="page form-builder">
      <UnsavedChangesGuard dirty={dirty && !readOnly} onSave={save} />
      <header className="form-builder-head">
        <Link to="/i/settings/forms">
          <Trans>Back to the forms</Trans>
        </Link>
        <PageTitle title={templateId ? t`Edit form` : t`New form`} />
        {loaded && (
          <p className="muted">
            <Trans>
              Version {loaded.version} · created by {loaded.creatorName ?? '—'} · {loaded.submissions} submitted
            </Trans>
            {loaded.isPrivate && (
              <>
                {' '}
                <span className="badge badge-warn">
                  <Trans>Private</Trans>
                </span>
              </>
            )}
          </p>
        )}
      </header>
      <FormError message={saveError ? serverMessage(saveError) : null} />
      {notice && <FormNotice>{notice}</FormNotice>}
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
      <div className="form-builder-body">
        <form
          className="form-builder-edit"
          aria-label={t`Fields`}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="field">
            <label htmlFor={nameId}>
              <Trans>Form name</Trans>
            </label>
            <input
              id={nameId}
              value={name}
              maxLength={120}
              required
              readOnly={readOnly}
              onChange={(e) => {
                setName(e.target.value);
                setDirty(true);
              }}
            />
          </div>
          <EditorsPicker
            domain={domain}
            editorIds={editorIds}
            names={loaded?.editorNames ?? []}
            creatorId={loaded?.creatorId ?? null}
            canChange={!readOnly && (!loaded || loaded.mayChangeEditors)}
            onChange={(ids) => {
              setEditorIds(ids);
              setDirty(true);
              setNotice(null);
            }}
          />
          <ol className="builder-fields" aria-label={t`Fields of the form`}>
            {fields.map((field, index) => (
              <FieldEditor key={field.id} field={field} index={index} count={fields.length} readOnly={readOnly} onChange={change} onMove={move} />
            ))}
          </ol>
          {fields.length === 0 && (
            <p className="muted">
              <Trans>No fields yet: add the first one below.</Trans>
            </p>
          )}
          {!readOnly && (
            <div className="builder-add">
              <label htmlFor="builder-new-type">
                <Trans>New field</Trans>
              </label>
              <select id="builder-new-type" value={newType} onChange={(e) => setNewType(e.target.value as FormFieldType)}>
                {FORM_FIELD_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {i18n._(FIELD_TYPE_LABELS[type])}
                  </option>
                ))}
              </select>
              <button type="button" className="button button-secondary" onClick={() => change({ type: 'add', fieldType: newType, label: i18n._(FIELD_TYPE_LABELS[newType]) })}>
                <Trans>Add field</Trans>
              </button>
            </div>
          )}
          <div className="form-actions">
            {!readOnly && (
              <button type="submit" className="button" disabled={create.isPending || update.isPending} aria-busy={create.isPending || update.isPending || undefined}>
                <Trans>Save form</Trans>
              </button>
            )}
            {loaded && rights.changePrivacy && (
              <button type="button" className="button button-secondary" disabled={setPrivate.isPending} onClick={() => setPrivate.mutate({ domain, templateId: loaded.id, isPrivate: !loaded.isPrivate })}>
                {loaded.isPrivate ? <Trans>Make public</Trans> : <Trans>Make private</Trans>}
              </button>
            )}
            {loaded && rights.export && (
              <button type="button" className="button button-secondary" onClick={() => void downloadCsv(utils, domain, loaded.id, i18n.locale)}>
                <Trans>Export CSV</Trans>
              </button>
            )}
            {loaded && rights.remove && (
              <button type="button" className="button button-danger" onClick={() => setConfirmDelete(true)}>
                <Trans>Delete form</Trans>
              </button>
            )}
          </div>
          <FormError message={setPrivate.error ? serverMessage(setPrivate.error) : null} />
        </form>
        <section className="form-builder-preview" aria-label={t`Preview`}>
          <h2>
            <Trans>Preview</Trans>
          </h2>
          <div className="form-sheet">
            <h3 className="form-sheet-title">{name || t`(no name)`}</h3>
            <FormFields fields={fields} values={{}} errors={{}} disabled onChange={() => undefined} />
          </div>
        </section>
      </div>
      {confirmDelete && loaded && (
        <ConfirmDialog
          title={t`Delete the form “${loaded.name}”?`}
          confirmLabel={t`Delete form`}
          danger
          pending={remove.isPending}
          error={remove.error ? serverMessage(remove.error) : null}
          onConfirm={() => remove.mutate({ domain, templateId: loaded.id })}
          onCancel={() => setConfirmDelete(false)}
        >
          <p>
            <Trans>Forms already filled stay readable in their conversations.</Trans>
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The field being dragged in the builder (one drag at a time per tab). */
let dragged: string | null = null;

/**
 * One field in the builder: drag it by its row, or move it with the buttons (or Alt+Arrow keys on
 * the row); its label, help, rules and options open under it.
 */
function FieldEditor(props: { field: FormField; index: number; count: number; readOnly: boolean; onChange: (a: BuilderAction) => void; onMove: (f: FormField, to: number) => void }) {
  const { t, i18n } = useLingui();
  const { field, index, count, readOnly, onChange, onMove } = props;
  const [open, setOpen] = useState(field.label === i18n._(FIELD_TYPE_LABELS[field.type]));
  const [over, setOver] = useState(false);
  const base = useId();
  const set = (patch: Partial<FormField>) => onChange({ type: 'change', id: field.id, patch });
  const size = SIZE_MEANING[field.type];
  const typeLabel = i18n._(FIELD_TYPE_LABELS[field.type]);
  const choice = field.type === 'singleChoice' || field.type === 'multipleChoice';
  return (
    <li
      className={over ? 'builder-field drop-over' : 'builder-field'}
      data-field-id={field.id}
      onDragOver={(e) => {
        if (readOnly || !dragged) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        const id = dragged;
        dragged = null;
        if (!id || id === field.id) return;
        e.preventDefault();
        onChange({ type: 'move', id, to: index });
      }}
      onKeyDown={(e) => {
        if (readOnly || !e.altKey || e.target !== e.currentTarget) return;
        if (e.key === 'ArrowUp') onMove(field, index - 1);
        else if (e.key === 'ArrowDown') onMove(field, index + 1);
        else return;
        e.preventDefault();
      }}
      tabIndex={0}
      aria-label={t`${field.label || typeLabel}, ${typeLabel}, position ${index + 1} of ${count}`}
    >
      {/* The row is what one drags (never the inputs under it, where a drag selects text). */}
      <div
        className="builder-field-row"
        draggable={!readOnly}
        onDragStart={(e) => {
          dragged = field.id;
          // Some browsers start a drag only with data set.
          e.dataTransfer.setData('text/plain', field.label);
          e.dataTransfer.effectAllowed = 'move';
        }}
        onDragEnd={() => (dragged = null)}
      >
        <span className="builder-grip" aria-hidden="true">
          ⋮⋮
        </span>
        <span className="builder-field-name">
          <strong>{field.label || t`(no label)`}</strong> <span className="muted">{typeLabel}</span>
          {field.required && <span className="badge">{t`Required`}</span>}
        </span>
        {!readOnly && (
          <span className="builder-field-actions">
            <button type="button" className="button button-small button-secondary" disabled={index === 0} aria-label={t`Move ${field.label || typeLabel} up`} onClick={() => onMove(field, index - 1)}>
              ↑
            </button>
            <button type="button" className="button button-small button-secondary" disabled={index === count - 1} aria-label={t`Move ${field.label || typeLabel} down`} onClick={() => onMove(field, index + 1)}>
              ↓
            </button>
          </span>
        )}
        <button type="button" className="button button-small button-secondary" aria-expanded={open} aria-controls={`${base}-edit`} onClick={() => setOpen((o) => !o)}>
          {open ? <Trans>Close</Trans> : readOnly ? <Trans>Details</Trans> : <Trans>Edit</Trans>}
        </button>
      </div>
      {open && (
        <fieldset id={`${base}-edit`} className="builder-field-edit" disabled={readOnly}>
          <legend className="visually-hidden">{t`Field ${field.label || typeLabel}`}</legend>
          <div className="field">
            <label htmlFor={`${base}-label`}>{field.type === 'heading' ? <Trans>Heading</Trans> : <Trans>Label</Trans>}</label>
            <input id={`${base}-label`} value={field.label} maxLength={200} onChange={(e) => set({ label: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={`${base}-help`}>
              <Trans>Help text</Trans>
            </label>
            <input id={`${base}-help`} value={field.help} maxLength={1000} onChange={(e) => set({ help: e.target.value })} />
          </div>
          {field.type !== 'heading' && (
            <div className="builder-checks">
              <label>
                <input type="checkbox" checked={field.required} onChange={(e) => set({ required: e.target.checked })} /> <Trans>Required</Trans>
              </label>
              {!['file', 'image', 'signature'].includes(field.type) && (
                <label>
                  <input type="checkbox" checked={field.readOnly} onChange={(e) => set({ readOnly: e.target.checked })} /> <Trans>Read-only (shows a fixed value)</Trans>
                </label>
              )}
              {(field.type === 'shortText' || field.type === 'longText') && (
                <label>
                  <input type="checkbox" checked={field.validateEmail} onChange={(e) => set({ validateEmail: e.target.checked })} /> <Trans>Check it is an e-mail address</Trans>
                </label>
              )}
            </div>
          )}
          {size && (
            <div className="builder-sizes">
              <NumberInput
                label={size === 'characters' ? t`Minimum size (characters)` : size === 'value' ? t`Minimum value` : t`Minimum choices`}
                value={field.minSize}
                onChange={(minSize) => set({ minSize })}
              />
              <NumberInput
                label={size === 'characters' ? t`Maximum size (characters)` : size === 'value' ? t`Maximum value` : t`Maximum choices`}
                value={field.maxSize}
                onChange={(maxSize) => set({ maxSize })}
              />
            </div>
          )}
          {choice && (
            <div className="field">
              <label htmlFor={`${base}-options`}>
                <Trans>Options (one per line)</Trans>
              </label>
              <textarea
                id={`${base}-options`}
                rows={4}
                value={field.options.join('\n')}
                onChange={(e) => set({ options: e.target.value.split('\n').map((o) => o.trimStart()).filter((o, i, all) => o !== '' || i === all.length - 1) })}
                onBlur={() => set({ options: field.options.map((o) => o.trim()).filter(Boolean) })}
              />
            </div>
          )}
          {field.readOnly && field.type !== 'heading' && (
            <div className="field">
              <label htmlFor={`${base}-default`}>
                <Trans>Fixed value</Trans>
              </label>
              <input id={`${base}-default`} value={field.defaultValue} maxLength={5000} onChange={(e) => set({ defaultValue: e.target.value })} />
            </div>
          )}
          <button type="button" className="button button-small button-danger" onClick={() => onChange({ type: 'remove', id: field.id })}>
            <Trans>Remove field</Trans>
          </button>
        </fieldset>
      )}
    </li>
  );
}

function NumberInput({ label, value, onChange }: { label: string; value: number | null; onChange: (v: number | null) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} />
    </div>
  );
}

/**
 * Who else may edit the template (spec: templateEditableFor). The creator and admins choose among
 * the colleagues; everyone else sees the names.
 */
function EditorsPicker(props: { domain: string; editorIds: string[]; names: string[]; creatorId: string | null; canChange: boolean; onChange: (ids: string[]) => void }) {
  const { t } = useLingui();
  const colleagues = trpc.chat.contacts.useQuery({ domain: props.domain, limit: 200 }, { enabled: props.canChange });
  if (!props.canChange) {
    return (
      <p className="muted">
        <Trans>Who else may edit it</Trans>: {props.names.length ? props.names.join(', ') : '—'}
      </p>
    );
  }
  const others = colleagues.data?.items.filter((c) => c.userId !== props.creatorId) ?? [];
  return (
    <fieldset className="field builder-editors">
      <legend>
        <Trans>Who else may edit it</Trans>
      </legend>
      {colleagues.isPending && <Spinner />}
      {others.map((c) => (
        <label key={c.userId} className="checkbox">
          <input
            type="checkbox"
            aria-label={t`${c.name} may edit it`}
            checked={props.editorIds.includes(c.userId)}
            onChange={(e) => props.onChange(e.target.checked ? [...props.editorIds, c.userId] : props.editorIds.filter((id) => id !== c.userId))}
          />
          <span>{c.name}</span>
        </label>
      ))}
      {colleagues.isSuccess && others.length === 0 && <p className="muted">—</p>}
    </fieldset>
  );
}
