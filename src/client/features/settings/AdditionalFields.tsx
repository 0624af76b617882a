import { RowActions } from './RowActions';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { createAdditionalFieldInput } from '../../../shared/schemas/profiles';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { useFormErrors } from '../login/formErrors';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField } from '../../ui/fields';
import { ListField } from './ListField';
import { useServerText } from './serverText';
import type { AdditionalFieldRow } from './types';

const FIELD_NAMES = ['name', 'tag', 'options'] as const;

type Editing = { kind: 'new' } | { kind: 'edit'; field: AdditionalFieldRow } | null;

/** Additional fields (campos adicionais): name, TAG, and multiple choice with its options. */
export function AdditionalFields({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const fields = trpc.additionalFields.list.useQuery({ domain });
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = trpc.additionalFields.delete.useMutation({
    onMutate: () => setNotice(null),
    onSuccess: async () => {
      setNotice(t`Field deleted.`);
      await utils.additionalFields.list.invalidate({ domain });
    },
  });
  const open = (next: Editing) => {
    setNotice(null);
    setEditing(next);
  };

  return (
    <section className="settings-section" aria-labelledby="fields-title">
      <h2 id="fields-title">
        <Trans>Additional fields</Trans>
      </h2>
      <p className="muted">
        <Trans>Extra information kept for each customer. The TAG names the field in templates and integrations.</Trans>
      </p>
      <FormError message={remove.error ? serverText(remove.error.message) : null} />
      {notice && <FormNotice>{notice}</FormNotice>}
      {fields.isPending && <Spinner />}
      {fields.isError && <FormError message={serverText(fields.error.message)} />}
      {fields.data?.length === 0 && (
        <p className="muted">
          <Trans>No additional fields yet.</Trans>
        </p>
      )}
      {!!fields.data?.length && (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col">TAG</th>
              <th scope="col">
                <Trans>Options</Trans>
              </th>
              <th scope="col">
                <span className="visually-hidden">
                  <Trans>Actions</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.data.map((f) => (
              <tr key={f.id}>
                <th scope="row">{f.name}</th>
                <td>
                  <code>{f.tag}</code>
                </td>
                <td>{f.multipleChoice ? f.options.join(', ') : <span className="muted">{t`Free text`}</span>}</td>
                <RowActions
                  name={f.name}
                  deleting={remove.isPending}
                  onEdit={() => open({ kind: 'edit', field: f })}
                  onDelete={() => {
                    setEditing(null);
                    remove.mutate({ domain, fieldId: f.id });
                  }}
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <AdditionalFieldForm
          key={editing.kind === 'edit' ? editing.field.id : 'new'}
          domain={domain}
          field={editing.kind === 'edit' ? editing.field : null}
          onClose={() => setEditing(null)}
          onCreated={(name) => {
            setEditing(null);
            setNotice(t`Field ${name} created.`);
          }}
        />
      ) : (
        <button type="button" className="button" onClick={() => open({ kind: 'new' })}>
          <Trans>New field</Trans>
        </button>
      )}
    </section>
  );
}

function AdditionalFieldForm({
  domain,
  field,
  onClose,
  onCreated,
}: {
  domain: string;
  field: AdditionalFieldRow | null;
  onClose: () => void;
  onCreated: (name: string) => void;
}) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const { errors, validate, showServerError } = useFormErrors(FIELD_NAMES);
  const draft = useDraft({
    name: field?.name ?? '',
    tag: field?.tag ?? '',
    multipleChoice: field?.multipleChoice ?? false,
    options: field?.options ?? [],
  });
  const create = trpc.additionalFields.create.useMutation();
  const update = trpc.additionalFields.update.useMutation();

  async function save(): Promise<boolean> {
    const input = validate(createAdditionalFieldInput, draft.values);
    if (!input) return false;
    try {
      if (field) {
        const saved = await update.mutateAsync({ domain, fieldId: field.id, ...input });
        draft.commit({ name: saved.name, tag: saved.tag, multipleChoice: saved.multipleChoice, options: saved.options });
      } else {
        await create.mutateAsync({ domain, ...input });
        draft.commit(draft.values);
        onCreated(input.name);
      }
      await utils.additionalFields.list.invalidate({ domain });
      return true;
    } catch (err) {
      showServerError(err as Parameters<typeof showServerError>[0]);
      return false;
    }
  }
  const title = field ? t`Edit field ${field.name}` : t`New field`;
  return (
    <div className="settings-subform">
      <h3>{title}</h3>
      <EditForm
        draft={draft}
        save={save}
        pending={create.isPending || update.isPending}
        error={errors.form}
        label={title}
        submitLabel={field ? undefined : <Trans>Create field</Trans>}
        actions={
          <button type="button" className="button button-secondary" onClick={onClose}>
            <Trans>Close</Trans>
          </button>
        }
      >
        <TextField label={t`Field name`} value={draft.values.name} onChange={(e) => draft.set('name', e.target.value)} error={errors.fields.name} maxLength={80} />
        <TextField
          label="TAG"
          value={draft.values.tag}
          onChange={(e) => draft.set('tag', e.target.value)}
          error={errors.fields.tag}
          maxLength={40}
          hint={<Trans>Letters, digits, _ and - only.</Trans>}
        />
        <CheckboxField label={t`Multiple choice`} checked={draft.values.multipleChoice} onChange={(on) => draft.set('multipleChoice', on)} />
        {draft.values.multipleChoice && (
          <>
            <ListField label={t`Options`} items={draft.values.options} onChange={(o) => draft.set('options', o)} duplicateMessage={t`This option is already in the list`} />
            {errors.fields.options && (
              <p className="field-error" role="alert">
                {errors.fields.options}
              </p>
            )}
          </>
        )}
      </EditForm>
    </div>
  );
}
