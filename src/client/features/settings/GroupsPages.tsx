import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField } from '../../ui/fields';
import { SettingsList } from './SettingsList';
import { useServerText } from './serverText';

type GroupRow = inferRouterOutputs<AppRouter>['groups']['list'][number];

/** /i/settings/groups: the groups of attendants, their members and queues. */
export function GroupsPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Groups`}>{(company) => <GroupList domain={company.domain} />}</AdminScreen>;
}

/** /i/settings/groups/{id} ('new' creates one). */
export function GroupPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return (
    <AdminScreen title={id === 'new' ? t`New group` : t`Group`}>
      {(company) => (id === 'new' ? <GroupForm domain={company.domain} group={null} /> : <GroupEditor domain={company.domain} groupId={id} />)}
    </AdminScreen>
  );
}

function GroupList({ domain }: { domain: string }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const groups = trpc.groups.list.useQuery({ domain });
  const remove = trpc.groups.delete.useMutation({ onSuccess: () => utils.groups.list.invalidate({ domain }) });
  return (
    <SettingsList<GroupRow>
      list={groups}
      nameHeader={<Trans>Group</Trans>}
      columns={[
        { header: <Trans>Members</Trans>, cell: (g) => g.memberCount },
        { header: <Trans>Queues</Trans>, cell: (g) => g.queues.map((q) => q.label).join(', ') },
      ]}
      newLabel={<Trans>New group</Trans>}
      removeTitle={(g) => t`Remove the group ${g.name}?`}
      removedNotice={(g) => t`Group ${g.name} removed.`}
      remove={{ ...remove, run: (g) => remove.mutateAsync({ domain, groupId: g.id }) }}
    />
  );
}

function GroupEditor({ domain, groupId }: { domain: string; groupId: string }) {
  const serverText = useServerText();
  const group = trpc.groups.get.useQuery({ domain, groupId }, { retry: false });
  if (group.isPending) return <Spinner />;
  if (group.isError) {
    return (
      <div className="empty-state">
        <FormError message={serverText(group.error.message)} />
        <Link to="/i/settings/groups">
          <Trans>Back to groups</Trans>
        </Link>
      </div>
    );
  }
  return <GroupForm domain={domain} group={group.data} />;
}

/** A group's name, its members (who then see the requests of its queues) and its queues. */
function GroupForm({ domain, group }: { domain: string; group: GroupRow | null }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const members = trpc.members.list.useQuery({ domain });
  const queues = trpc.queues.list.useQuery({ domain });
  const create = trpc.groups.create.useMutation();
  const update = trpc.groups.update.useMutation();
  const [error, setError] = useState<string | null>(null);
  const draft = useDraft({
    name: group?.name ?? '',
    memberIds: (group?.members ?? []).map((m) => m.value).sort(),
    queueIds: (group?.queues ?? []).map((q) => q.value).sort(),
  });
  const toggle = (key: 'memberIds' | 'queueIds', id: string, on: boolean) =>
    draft.set(key, on ? [...draft.values[key], id].sort() : draft.values[key].filter((x) => x !== id));

  const [createdId, setCreatedId] = useState<string | null>(null);
  // Once the saved form is no longer dirty (so the unsaved-changes guard lets it go), open the new one.
  useEffect(() => {
    if (createdId && !draft.dirty) void navigate(`/i/settings/groups/${createdId}`, { replace: true });
  }, [createdId, draft.dirty, navigate]);

  async function save(): Promise<boolean> {
    setError(null);
    try {
      const saved = group ? await update.mutateAsync({ domain, groupId: group.id, ...draft.values }) : await create.mutateAsync({ domain, ...draft.values });
      draft.commit({ ...draft.values, name: saved.name });
      await Promise.all([utils.groups.invalidate(), utils.queues.invalidate(), utils.members.list.invalidate({ domain })]);
      if (!group) setCreatedId(saved.id);
      return true;
    } catch (err) {
      setError(serverText((err as Error).message));
      return false;
    }
  }

  const activeMembers = (members.data ?? []).filter((m) => m.state === 'active' || draft.values.memberIds.includes(m.id));
  return (
    <>
      <Link to="/i/settings/groups" className="back-link">
        <Trans>Back to groups</Trans>
      </Link>
      <EditForm draft={draft} save={save} pending={create.isPending || update.isPending} error={error} submitLabel={group ? undefined : <Trans>Create group</Trans>}>
        <TextField label={t`Name`} value={draft.values.name} maxLength={80} placeholder="(sem nome)" onChange={(e) => draft.set('name', e.target.value)} />
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Members</Trans>
          </legend>
          {members.isPending && <Spinner />}
          {activeMembers.map((m) => (
            <CheckboxField key={m.id} label={m.name || m.email || '—'} checked={draft.values.memberIds.includes(m.id)} onChange={(on) => toggle('memberIds', m.id, on)} />
          ))}
        </fieldset>
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Queues it serves</Trans>
          </legend>
          {queues.isPending && <Spinner />}
          {queues.data?.map((q) => (
            <CheckboxField key={q.id} label={q.name} checked={draft.values.queueIds.includes(q.id)} onChange={(on) => toggle('queueIds', q.id, on)} />
          ))}
        </fieldset>
      </EditForm>
    </>
  );
}
