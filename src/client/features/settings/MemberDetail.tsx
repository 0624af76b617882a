import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField, SelectField } from '../../ui/fields';
import { ROLE_LABELS } from './labels';
import { MemberStateBadge } from './MemberList';
import { useServerText } from './serverText';
import type { MemberRow } from './types';

/** One member: who they are, what the lifecycle allows now, their profile and groups. */
export function MemberDetail({ domain, memberId }: { domain: string; memberId: string }) {
  const { i18n } = useLingui();
  const serverText = useServerText();
  // There is no members.get: the list is small and already cached by the members page.
  const members = trpc.members.list.useQuery({ domain });
  if (members.isPending) return <Spinner />;
  if (members.isError) return <p className="form-error" role="alert">{serverText(members.error.message)}</p>;
  const member = members.data.find((m) => m.id === memberId);
  if (!member) {
    return (
      <div className="empty-state">
        <p className="muted">
          <Trans>This member was not found.</Trans>
        </p>
        <Link to="/i/settings/members">
          <Trans>Back to members</Trans>
        </Link>
      </div>
    );
  }
  const when = (d: Date | null) => (d ? i18n.date(d, { dateStyle: 'short' }) : '—');
  return (
    <>
      <Link to="/i/settings/members" className="back-link">
        <Trans>Back to members</Trans>
      </Link>
      <dl className="facts">
        <dt>
          <Trans>Name</Trans>
        </dt>
        <dd>{member.name || '—'}</dd>
        <dt>
          <Trans>E-mail</Trans>
        </dt>
        <dd>{member.email ?? '—'}</dd>
        <dt>
          <Trans>Role</Trans>
        </dt>
        <dd>{i18n._(member.isAdmin ? ROLE_LABELS.admin : ROLE_LABELS.member)}</dd>
        <dt>
          <Trans>State</Trans>
        </dt>
        <dd>
          <MemberStateBadge state={member.state} />
        </dd>
        <dt>
          <Trans>Invited on</Trans>
        </dt>
        <dd>{when(member.invitedAt)}</dd>
        <dt>
          <Trans>Joined on</Trans>
        </dt>
        <dd>{when(member.joinedAt)}</dd>
      </dl>
      <MemberActions domain={domain} member={member} />
      {member.state !== 'removed' && <MemberAssignment domain={domain} member={member} />}
    </>
  );
}

type Action = 'approve' | 'refuse' | 'remove' | 'block' | 'unblock' | 'toggleAdmin';

/** The lifecycle's moves (spec 4) that apply to the member's current state. */
function actionsFor(member: MemberRow): Action[] {
  switch (member.state) {
    case 'waiting':
      return ['approve', 'refuse', 'block'];
    case 'active':
      return ['toggleAdmin', 'block', 'remove'];
    case 'blocked':
      return ['unblock', 'remove'];
    case 'removed':
      return ['block'];
  }
}

function MemberActions({ domain, member }: { domain: string; member: MemberRow }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const [done, setDone] = useState<string | null>(null);
  const options = {
    onMutate: () => setDone(null),
    onSuccess: async () => {
      await utils.members.list.invalidate({ domain });
      await utils.company.mine.invalidate();
    },
  };
  const mutations = {
    approve: trpc.members.approve.useMutation(options),
    refuse: trpc.members.refuse.useMutation(options),
    remove: trpc.members.remove.useMutation(options),
    block: trpc.members.block.useMutation(options),
    unblock: trpc.members.unblock.useMutation(options),
    toggleAdmin: trpc.members.toggleAdmin.useMutation(options),
  };
  const labels: Record<Action, string> = {
    approve: t`Approve`,
    refuse: t`Refuse`,
    remove: t`Remove from the company`,
    block: t`Block`,
    unblock: t`Unblock`,
    toggleAdmin: member.isAdmin ? t`Remove admin` : t`Make admin`,
  };
  const doneTexts: Record<Action, string> = {
    approve: t`Request approved.`,
    refuse: t`Request refused.`,
    remove: t`Member removed.`,
    block: t`Member blocked.`,
    unblock: t`Member unblocked.`,
    toggleAdmin: member.isAdmin ? t`Now an administrator.` : t`No longer an administrator.`,
  };
  const failed = Object.values(mutations).find((m) => m.isError);
  const busy = Object.values(mutations).some((m) => m.isPending);

  function run(action: Action) {
    Object.values(mutations).forEach((m) => m.reset());
    mutations[action].mutate({ domain, memberId: member.id }, { onSuccess: () => setDone(action) });
  }
  return (
    <section className="settings-section" aria-labelledby="member-actions-title">
      <h2 id="member-actions-title">
        <Trans>Actions</Trans>
      </h2>
      <FormError message={failed?.error ? serverText(failed.error.message) : null} />
      {/* Read after the refetch, so "toggleAdmin" describes the new role. */}
      {done && <FormNotice>{doneTexts[done as Action]}</FormNotice>}
      <div className="form-actions">
        {actionsFor(member).map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'approve' || action === 'toggleAdmin' || action === 'unblock' ? 'button' : 'button button-secondary'}
            disabled={busy}
            onClick={() => run(action)}
          >
            {labels[action]}
          </button>
        ))}
      </div>
    </section>
  );
}

/** Profile and groups, saved together. */
function MemberAssignment({ domain, member }: { domain: string; member: MemberRow }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const profiles = trpc.profiles.list.useQuery({ domain });
  const setProfile = trpc.members.setProfile.useMutation();
  const setGroups = trpc.members.setGroups.useMutation();
  const [error, setError] = useState<string | null>(null);
  // Every group of the company, from the same procedure as the groups screen (empty ones too).
  const groupList = trpc.groups.list.useQuery({ domain });
  const groups = useMemo(
    () => (groupList.data ?? []).map((g) => ({ value: g.id, label: g.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [groupList.data],
  );
  const draft = useDraft({ profile: member.profile, groupIds: member.groups.map((g) => g.value).sort() });

  async function save(): Promise<boolean> {
    setError(null);
    const { profile, groupIds } = draft.values;
    try {
      if (profile !== member.profile) await setProfile.mutateAsync({ domain, memberId: member.id, profileCode: profile });
      if (JSON.stringify(groupIds) !== JSON.stringify(member.groups.map((g) => g.value).sort())) {
        await setGroups.mutateAsync({ domain, memberId: member.id, groupIds });
      }
      draft.commit(draft.values);
      await Promise.all([utils.members.list.invalidate({ domain }), utils.profiles.list.invalidate({ domain }), utils.groups.list.invalidate({ domain })]);
      return true;
    } catch (err) {
      setError(serverText((err as Error).message));
      return false;
    }
  }
  if (profiles.isPending || groupList.isPending) return <Spinner />;
  const profileOptions = (profiles.data ?? []).map((p) => ({ value: p.code, label: `${p.name} (${p.code})` }));
  return (
    <section className="settings-section" aria-labelledby="member-assignment-title">
      <h2 id="member-assignment-title">
        <Trans>Profile and groups</Trans>
      </h2>
      <EditForm draft={draft} save={save} pending={setProfile.isPending || setGroups.isPending} error={error}>
        <SelectField label={t`Profile`} value={draft.values.profile} onChange={(e) => draft.set('profile', e.target.value)} options={profileOptions} />
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Groups</Trans>
          </legend>
          {groups.length === 0 && (
            <p className="muted">
              <Trans>No groups yet.</Trans>
            </p>
          )}
          {groups.map((g) => (
            <CheckboxField
              key={g.value}
              label={g.label}
              checked={draft.values.groupIds.includes(g.value)}
              onChange={(on) =>
                draft.set('groupIds', on ? [...draft.values.groupIds, g.value].sort() : draft.values.groupIds.filter((id) => id !== g.value))
              }
            />
          ))}
        </fieldset>
      </EditForm>
    </section>
  );
}
