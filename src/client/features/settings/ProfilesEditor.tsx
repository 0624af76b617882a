import { RowActions } from './RowActions';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { ProfilePermissions } from '../../../shared/domain/profiles';
import { createProfileInput } from '../../../shared/schemas/profiles';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { useFormErrors } from '../login/formErrors';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField, SelectField } from '../../ui/fields';
import { PERMISSION_KEYS, PERMISSION_LABELS, PROFILE_TYPE_LABELS } from './labels';
import { useServerText } from './serverText';
import type { ProfileRow } from './types';

const NO_PERMISSIONS = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) as ProfilePermissions;
const PROFILE_FIELDS = ['name'] as const;

type Editing = { kind: 'new' } | { kind: 'edit'; profile: ProfileRow } | null;

/**
 * Permission profiles (perfis): the list, one form to create or edit, and deletion (refused while
 * a member uses the profile, spec 5). Queues chosen restrict its members to those queues; none
 * chosen means every queue.
 */
export function ProfilesEditor({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const profiles = trpc.profiles.list.useQuery({ domain });
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = trpc.profiles.delete.useMutation({
    onMutate: () => setNotice(null),
    onSuccess: async (_data, input) => {
      const name = profiles.data?.find((p) => p.id === input.profileId)?.name ?? '';
      setNotice(t`Profile ${name} deleted.`);
      await utils.profiles.list.invalidate({ domain });
    },
  });

  return (
    <section className="settings-section" aria-labelledby="profiles-title">
      <h2 id="profiles-title">
        <Trans>Profiles</Trans>
      </h2>
      <p className="muted">
        <Trans>A profile says what its members may do. Administrators may do everything.</Trans>
      </p>
      <FormError message={remove.error ? serverText(remove.error.message) : null} />
      {notice && <FormNotice>{notice}</FormNotice>}
      {profiles.isPending && <Spinner />}
      {profiles.isError && <FormError message={serverText(profiles.error.message)} />}
      {profiles.data && (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Profile</Trans>
              </th>
              <th scope="col">
                <Trans>Type</Trans>
              </th>
              <th scope="col">
                <Trans>Members</Trans>
              </th>
              <th scope="col">
                <span className="visually-hidden">
                  <Trans>Actions</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {profiles.data.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  {p.name} <span className="muted">({p.code})</span>
                </th>
                <td>{i18n._(PROFILE_TYPE_LABELS[p.type])}</td>
                <td>{p.membersUsing}</td>
                <RowActions
                  name={p.name}
                  deleting={remove.isPending}
                  onEdit={() => {
                    setNotice(null);
                    setEditing({ kind: 'edit', profile: p });
                  }}
                  onDelete={
                    p.builtIn
                      ? undefined
                      : () => {
                          setEditing(null);
                          remove.mutate({ domain, profileId: p.id });
                        }
                  }
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <ProfileForm
          key={editing.kind === 'edit' ? editing.profile.id : 'new'}
          domain={domain}
          profile={editing.kind === 'edit' ? editing.profile : null}
          others={(profiles.data ?? []).filter((p) => editing.kind === 'new' || p.id !== editing.profile.id)}
          onClose={() => setEditing(null)}
          onCreated={(profile) => {
            setEditing(null);
            setNotice(t`Profile ${profile.name} created.`);
          }}
        />
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => {
            setNotice(null);
            setEditing({ kind: 'new' });
          }}
        >
          <Trans>New profile</Trans>
        </button>
      )}
    </section>
  );
}

function ProfileForm({
  domain,
  profile,
  others,
  onClose,
  onCreated,
}: {
  domain: string;
  profile: ProfileRow | null;
  others: ProfileRow[];
  onClose: () => void;
  onCreated: (profile: ProfileRow) => void;
}) {
  const { t, i18n } = useLingui();
  const utils = trpc.useUtils();
  const { errors, validate, showServerError } = useFormErrors(PROFILE_FIELDS);
  const draft = useDraft({
    name: profile?.name ?? '',
    type: profile?.type ?? ('internal' as ProfileRow['type']),
    permissions: profile?.permissions ?? NO_PERMISSIONS,
    reportProfiles: profile?.reportProfiles ?? [],
    queueIds: [...(profile?.queueIds ?? [])].sort(),
  });
  const queues = trpc.queues.list.useQuery({ domain });
  const create = trpc.profiles.create.useMutation();
  const update = trpc.profiles.update.useMutation();
  // The server refuses a type change for A01/M01 and for a profile in use: say so before.
  const typeLocked = profile !== null && (profile.builtIn || profile.membersUsing > 0);

  async function save(): Promise<boolean> {
    const input = validate(createProfileInput, draft.values);
    if (!input) return false;
    try {
      if (profile) {
        const saved = await update.mutateAsync({ domain, profileId: profile.id, ...draft.values });
        draft.commit({ name: saved.name, type: saved.type, permissions: saved.permissions, reportProfiles: saved.reportProfiles, queueIds: [...saved.queueIds].sort() });
      } else {
        const created = await create.mutateAsync({ domain, ...draft.values });
        draft.commit(draft.values);
        onCreated(created);
      }
      await utils.profiles.list.invalidate({ domain });
      return true;
    } catch (err) {
      showServerError(err as Parameters<typeof showServerError>[0]);
      return false;
    }
  }
  const setPermission = (key: keyof ProfilePermissions, on: boolean) => draft.set('permissions', { ...draft.values.permissions, [key]: on });

  return (
    <div className="settings-subform">
      <h3>{profile ? t`Edit profile ${profile.name}` : t`New profile`}</h3>
      <EditForm
        draft={draft}
        save={save}
        pending={create.isPending || update.isPending}
        error={errors.form}
        label={profile ? t`Edit profile ${profile.name}` : t`New profile`}
        submitLabel={profile ? undefined : <Trans>Create profile</Trans>}
        actions={
          <button type="button" className="button button-secondary" onClick={onClose}>
            <Trans>Close</Trans>
          </button>
        }
      >
        <TextField label={t`Profile name`} value={draft.values.name} onChange={(e) => draft.set('name', e.target.value)} error={errors.fields.name} maxLength={80} />
        <SelectField
          label={t`Type`}
          value={draft.values.type}
          disabled={typeLocked}
          onChange={(e) => draft.set('type', e.target.value as ProfileRow['type'])}
          options={(['internal', 'admin'] as const).map((v) => ({ value: v, label: i18n._(PROFILE_TYPE_LABELS[v]) }))}
        />
        <p className="field-hint muted">
          {typeLocked ? (
            <Trans>The type cannot change while members use this profile, nor for the built-in profiles.</Trans>
          ) : (
            <Trans>Members given an administrator profile become administrators.</Trans>
          )}
        </p>
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Permissions</Trans>
          </legend>
          {PERMISSION_KEYS.map((key) => (
            <CheckboxField key={key} label={i18n._(PERMISSION_LABELS[key])} checked={draft.values.permissions[key]} onChange={(on) => setPermission(key, on)} />
          ))}
        </fieldset>
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Queues</Trans>
          </legend>
          <p className="field-hint muted">
            <Trans>Members with this profile see and take requests only from the queues chosen here. None chosen: every queue.</Trans>
          </p>
          {queues.isPending && <Spinner />}
          {queues.data?.map((q) => (
            <CheckboxField
              key={q.id}
              label={q.name}
              checked={draft.values.queueIds.includes(q.id)}
              onChange={(on) => draft.set('queueIds', on ? [...draft.values.queueIds, q.id].sort() : draft.values.queueIds.filter((id) => id !== q.id))}
            />
          ))}
        </fieldset>
        {draft.values.permissions.viewReports && others.length > 0 && (
          <fieldset className="checkbox-group">
            <legend>
              <Trans>Also see the reports of these profiles</Trans>
            </legend>
            {others.map((o) => (
              <CheckboxField
                key={o.code}
                label={`${o.name} (${o.code})`}
                checked={draft.values.reportProfiles.includes(o.code)}
                onChange={(on) =>
                  draft.set('reportProfiles', on ? [...draft.values.reportProfiles, o.code] : draft.values.reportProfiles.filter((c) => c !== o.code))
                }
              />
            ))}
          </fieldset>
        )}
      </EditForm>
    </div>
  );
}
