import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from 'react-router-dom';
import type { MemberState } from '../../../shared/domain/member-lifecycle';
import { useMyCompanies, useOpenCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { JoinByDomainForm } from '../company/JoinByDomainForm';

const STATE_LABELS: Record<MemberState, MessageDescriptor> = {
  active: msg`Active`,
  waiting: msg`Waiting for approval`,
  blocked: msg`Blocked`,
  removed: msg`Removed`,
};
const STATE_BADGES: Record<MemberState, string> = { active: 'badge-ok', waiting: 'badge-warn', blocked: 'badge-danger', removed: 'badge-danger' };

/** /i/selectCompany: the user's companies; choosing one makes it the selected company (empresaPadrao). */
export function SelectCompanyPage() {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const mine = useMyCompanies();
  const company = useOpenCompany();
  return (
    <section className="page companies-page">
      <PageTitle title={t`Choose company`} />
      <FormError message={serverMessage(company.error)} />
      {mine.isPending && mine.fetchStatus !== 'idle' ? (
        <Spinner />
      ) : mine.error ? (
        <FormError message={serverMessage(mine.error)} />
      ) : !mine.data?.length ? (
        <p className="muted">
          <Trans>You are not in any company yet. Register yours, or join one with its domain or an invitation link.</Trans>
        </p>
      ) : (
        <ul className="company-list">
          {mine.data.map((c) => (
            <li key={c.domain} className={c.isDefault ? 'company-item company-item-selected' : 'company-item'}>
              <div className="company-item-text">
                <strong>{c.name}</strong> <span className="muted">/{c.domain}</span>
                <div className="company-item-badges">
                  <span className={`badge ${STATE_BADGES[c.state]}`}>{i18n._(STATE_LABELS[c.state])}</span>
                  {c.isAdmin && c.state === 'active' && (
                    <span className="badge">
                      <Trans>Administrator</Trans>
                    </span>
                  )}
                  {c.isDefault && (
                    <span className="badge badge-ok">
                      <Trans>Selected</Trans>
                    </span>
                  )}
                </div>
              </div>
              <CompanyAction domain={c.domain} name={c.name} state={c.state} pending={company.isPending} onOpen={company.open} />
            </li>
          ))}
        </ul>
      )}
      <div className="companies-more">
        <Link className="button" to="/i/login/newpage">
          <Trans>Register company</Trans>
        </Link>
        <JoinByDomainForm />
      </div>
    </section>
  );
}

function CompanyAction(props: { domain: string; name: string; state: MemberState; pending: boolean; onOpen: (domain: string) => void }) {
  const { t } = useLingui();
  const { domain, name } = props;
  switch (props.state) {
    case 'active':
      return (
        <button type="button" className="button button-small" disabled={props.pending} aria-label={t`Open ${name}`} onClick={() => props.onOpen(domain)}>
          <Trans>Open</Trans>
        </button>
      );
    case 'waiting':
      return (
        <Link className="button button-secondary button-small" to={`/${domain}/wait`}>
          <Trans>See request</Trans>
        </Link>
      );
    case 'removed':
      // A removed member who asks again is re-invited (spec 4).
      return (
        <Link className="button button-secondary button-small" to={`/${domain}/invite`}>
          <Trans>Ask again</Trans>
        </Link>
      );
    case 'blocked':
      return null;
  }
}

/**
 * /i/invites: the user's pending invites. An admin's invitation is accepted by joining (the
 * invitation is the approval); the user's own requests wait for an admin. Either can be cancelled.
 */
export function InvitesPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const serverMessage = useServerMessage();
  const invites = trpc.invites.mine.useQuery();
  const company = useOpenCompany();
  const join = trpc.company.join.useMutation({
    onSuccess: async ({ state }, { domain }) => {
      await utils.invites.invalidate();
      if (state === 'active') company.open(domain);
      else await navigate(`/${domain}/wait`);
    },
  });
  const cancel = trpc.invites.cancel.useMutation({
    onSuccess: async () => {
      await Promise.all([utils.invites.invalidate(), utils.company.invalidate()]);
    },
  });
  const busy = join.isPending || cancel.isPending || company.isPending;

  return (
    <section className="page companies-page">
      <PageTitle title={t`Invitations`} />
      <FormError message={serverMessage(join.error ?? cancel.error ?? company.error)} />
      {invites.isPending ? (
        <Spinner />
      ) : invites.error ? (
        <FormError message={serverMessage(invites.error)} />
      ) : !invites.data.length ? (
        <p className="muted">
          <Trans>No pending invitations.</Trans>
        </p>
      ) : (
        <ul className="company-list">
          {invites.data.map((invite) => {
            const name = invite.company.name;
            const date = invite.invitedAt.toLocaleDateString();
            return (
              <li key={invite.id} className="company-item">
                <div className="company-item-text">
                  <strong>{name}</strong> <span className="muted">/{invite.company.domain}</span>
                  <div className="muted">
                    {invite.approved ? <Trans>Invited you on {date}</Trans> : <Trans>You asked to join on {date}; waiting for approval</Trans>}
                  </div>
                </div>
                <div className="form-actions">
                  {invite.approved && (
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      aria-label={t`Accept the invitation of ${name}`}
                      onClick={() => join.mutate({ domain: invite.company.domain })}
                    >
                      <Trans>Accept</Trans>
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={busy}
                    aria-label={invite.approved ? t`Decline the invitation of ${name}` : t`Cancel the request to join ${name}`}
                    onClick={() => cancel.mutate({ inviteId: invite.id })}
                  >
                    <Trans>Cancel</Trans>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
