import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../trpc';
import { LoadingSkeleton, RefusalState } from '../../ui';
import { useSocketEvent } from '../service/live';
import { SelectField } from '../../ui/fields';
import { MEMBER_STATE_BADGE, MEMBER_STATE_LABELS, ROLE_LABELS } from './labels';
import { useServerText } from './serverText';
import type { MemberRow, MemberState } from './types';

type StateFilter = MemberState | 'all';
type RoleFilter = 'admin' | 'member' | 'all';

/** The members page's list: name, e-mail, role and state, filtered by text, state and role. */
export function MemberList({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverText = useServerText();
  const members = trpc.members.list.useQuery({ domain });
  // Live: a join request, an approval or a block elsewhere shows here at once.
  const utils = trpc.useUtils();
  const refetch = () => void utils.members.list.invalidate({ domain });
  useSocketEvent('members:changed', (p) => p.domain === domain && refetch(), refetch);
  const [query, setQuery] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const [role, setRole] = useState<RoleFilter>('all');
  const searchId = useId();

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (members.data ?? []).filter(
      (m) =>
        (state === 'all' || m.state === state) &&
        (role === 'all' || (role === 'admin') === m.isAdmin) &&
        (!q || m.name.toLowerCase().includes(q) || (m.email ?? '').toLowerCase().includes(q)),
    );
  }, [members.data, query, state, role]);

  if (members.isPending) return <LoadingSkeleton variant="table" rows={4} />;
  if (members.isError) return <RefusalState title={t`The members could not be loaded`} message={serverText(members.error.message)} />;
  const waiting = members.data.filter((m) => m.state === 'waiting').length;

  return (
    <section className="settings-section" aria-labelledby={`${searchId}-title`}>
      <h2 id={`${searchId}-title`}>
        <Trans>People</Trans>
      </h2>
      {waiting > 0 && (
        <p className="notice-warn">
          <Plural value={waiting} one="# person is waiting for approval." other="# people are waiting for approval." />
        </p>
      )}
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor={searchId}>
            <Trans>Search by name or e-mail</Trans>
          </label>
          <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <SelectField
          label={t`State`}
          value={state}
          onChange={(e) => setState(e.target.value as StateFilter)}
          options={[
            { value: 'all', label: t`All` },
            ...(Object.keys(MEMBER_STATE_LABELS) as MemberState[]).map((s) => ({ value: s, label: i18n._(MEMBER_STATE_LABELS[s]) })),
          ]}
        />
        <SelectField
          label={t`Role`}
          value={role}
          onChange={(e) => setRole(e.target.value as RoleFilter)}
          options={[
            { value: 'all', label: t`All` },
            { value: 'admin', label: i18n._(ROLE_LABELS.admin) },
            { value: 'member', label: i18n._(ROLE_LABELS.member) },
          ]}
        />
      </div>
      {shown.length === 0 ? (
        <p className="muted">
          <Trans>No member matches these filters.</Trans>
        </p>
      ) : (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col">
                <Trans>E-mail</Trans>
              </th>
              <th scope="col">
                <Trans>Role</Trans>
              </th>
              <th scope="col">
                <Trans>State</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => (
              <MemberListRow key={m.id} member={m} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function MemberListRow({ member }: { member: MemberRow }) {
  const { i18n } = useLingui();
  return (
    <tr>
      <th scope="row">
        <Link to={member.id}>{member.name || member.email || '—'}</Link>
      </th>
      <td>{member.email ?? '—'}</td>
      <td>{i18n._(member.isAdmin ? ROLE_LABELS.admin : ROLE_LABELS.member)}</td>
      <td>
        <MemberStateBadge state={member.state} />
      </td>
    </tr>
  );
}

export function MemberStateBadge({ state }: { state: MemberState }) {
  const { i18n } = useLingui();
  return <span className={MEMBER_STATE_BADGE[state]}>{i18n._(MEMBER_STATE_LABELS[state])}</span>;
}
