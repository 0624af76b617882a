import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useAccessRefusalRedirect } from '../../guard/accessRefusal';
import { useAccount, useLoginHere, useMyCompanies, useOpenCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, SubmitButton } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';

/** How often the waiting screen asks whether an admin has let the user in. */
const APPROVAL_POLL_MS = 3000;

/** CompanyLayout has already checked that :emp has a domain's shape. */
function useDomain(): string {
  return useParams().emp!;
}

/** Joining needs someone signed in: anonymous visitors go to the login and come back (spec 2). */
function SignedInOnly({ children }: { children: ReactNode }) {
  const { status } = useAccount();
  const loginHere = useLoginHere();
  if (status === 'loading') return <Spinner />;
  if (status === 'anonymous') return <Navigate to={loginHere} replace />;
  return children;
}

/** /{emp}/invite: ask to join the company (open to blocked members too, who are told why not). */
export function JoinCompanyPage() {
  return (
    <SignedInOnly>
      <JoinCompany invitation={false} />
    </SignedInOnly>
  );
}

/** /{emp}/invitation: an admin's invitation to accept. */
export function InvitationPage() {
  return (
    <SignedInOnly>
      <JoinCompany invitation />
    </SignedInOnly>
  );
}

/** /{emp}/newc/{id}: the company's shared invitation link; accepting it is asking to join. */
export function CompanyInvitationLinkPage() {
  return (
    <SignedInOnly>
      <JoinCompany invitation />
    </SignedInOnly>
  );
}

function JoinCompany({ invitation }: { invitation: boolean }) {
  const { t } = useLingui();
  const domain = useDomain();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const mine = useMyCompanies();
  const invites = trpc.invites.mine.useQuery();
  // There is no public "about this company" call yet: a domain still free to register is one no
  // company has, which is all this page needs to know before offering to join.
  const free = trpc.company.checkDomain.useQuery({ domain }, { retry: false });
  const company = useOpenCompany();
  const join = trpc.company.join.useMutation({
    onSuccess: ({ state }) => {
      // An admin's invitation is the approval: straight in. Otherwise wait for one.
      if (state === 'active') company.open(domain);
      else void navigate(`/${domain}/wait`);
    },
  });
  const redirecting = useAccessRefusalRedirect(domain, join.error);

  if (redirecting || mine.isPending || invites.isPending || free.isPending) return <Spinner />;
  if (free.isSuccess) return <DomainNotFound />;

  const membership = mine.data?.find((c) => c.domain === domain);
  const invite = invites.data?.find((i) => i.company.domain === domain);
  const name = membership?.name ?? invite?.company.name ?? domain;
  if (membership?.state === 'waiting') return <Navigate to={`/${domain}/wait`} replace />;

  const title = invitation ? t`Invitation` : t`Join the company`;
  if (membership?.state === 'active') {
    return (
      <section className="page page-centered company-join">
        <PageTitle title={title} />
        <p>
          <Trans>
            You are already a member of <strong>{name}</strong>.
          </Trans>
        </p>
        <FormError message={serverMessage(company.error)} />
        <button type="button" className="button" disabled={company.isPending} onClick={() => company.open(domain)}>
          <Trans>Open {name}</Trans>
        </button>
      </section>
    );
  }
  if (membership?.state === 'blocked') return <AccessBlocked />;

  return (
    <section className="page page-centered company-join">
      <PageTitle title={title} />
      <p className="company-join-name">
        <strong>{name}</strong> <span className="muted">/{domain}</span>
      </p>
      <p className="muted">
        {invitation || invite?.approved ? (
          <Trans>You were invited to join this company's team. Accept to start working in it.</Trans>
        ) : (
          <Trans>Ask to join this company's team. An administrator approves the request; you will see it here.</Trans>
        )}
      </p>
      <form
        className="company-join-actions"
        onSubmit={(event) => {
          event.preventDefault();
          join.mutate({ domain });
        }}
      >
        <FormError message={serverMessage(join.error ?? company.error)} />
        <SubmitButton pending={join.isPending || company.isPending}>
          {invitation || invite?.approved ? <Trans>Accept invitation</Trans> : <Trans>Ask to join</Trans>}
        </SubmitButton>
      </form>
    </section>
  );
}

/**
 * /{emp}/wait: the request is with the admins. The page asks every few seconds and, once an admin
 * approves, selects the company and opens the app in it.
 */
export function WaitApprovalPage() {
  return (
    <SignedInOnly>
      <WaitApproval />
    </SignedInOnly>
  );
}

function WaitApproval() {
  const { t } = useLingui();
  const domain = useDomain();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const current = trpc.company.current.useQuery(
    { domain },
    { retry: false, refetchInterval: APPROVAL_POLL_MS, refetchIntervalInBackground: true },
  );
  const company = useOpenCompany();
  const invites = trpc.invites.mine.useQuery();
  const invite = invites.data?.find((i) => i.company.domain === domain && !i.approved);
  const cancel = trpc.invites.cancel.useMutation({
    onSuccess: async () => {
      await utils.invalidate();
      await navigate('/i/selectCompany', { replace: true });
    },
  });

  const approved = current.isSuccess;
  const opened = useRef(false);
  useEffect(() => {
    if (!approved || opened.current) return;
    opened.current = true;
    company.open(domain);
  }, [approved, company, domain]);

  // Still waiting is this page's own state; being blocked or removed meanwhile is not.
  const access = (current.error?.data as { access?: string } | undefined)?.access;
  const redirecting = useAccessRefusalRedirect(domain, access === 'notAccepted' ? null : current.error);
  if (redirecting || current.isPending || approved) return <Spinner />;
  if (access === 'notMember') {
    return (
      <section className="page page-centered">
        <PageTitle title={t`Waiting for approval`} />
        <p className="muted">
          <Trans>There is no request of yours to join this company.</Trans>
        </p>
        <Link className="button" to={`/${domain}/invite`}>
          <Trans>Ask to join</Trans>
        </Link>
      </section>
    );
  }
  if (access !== 'notAccepted') {
    return (
      <section className="page page-centered">
        <PageTitle title={t`Waiting for approval`} />
        <FormError message={serverMessage(current.error)} />
      </section>
    );
  }
  const companyName = invite?.company.name ?? domain;
  return (
    <section className="page page-centered company-wait">
      <PageTitle title={t`Waiting for approval`} />
      <p>
        <Trans>
          Your request to join <strong>{companyName}</strong> was sent. An administrator needs to approve it: this page moves
          on by itself as soon as they do.
        </Trans>
      </p>
      <div className="spinner-ring" aria-hidden="true" />
      <FormError message={serverMessage(company.error ?? cancel.error)} />
      <div className="form-actions company-wait-actions">
        <Link className="button button-secondary" to="/i/selectCompany">
          <Trans>My companies</Trans>
        </Link>
        {invite && (
          <button type="button" className="button button-secondary" disabled={cancel.isPending} onClick={() => cancel.mutate({ inviteId: invite.id })}>
            <Trans>Cancel request</Trans>
          </button>
        )}
      </div>
    </section>
  );
}

/** /{emp}/block: a blocked or removed attendant (spec 6). */
export function BlockedPage() {
  return <AccessBlocked />;
}

function AccessBlocked() {
  const { t } = useLingui();
  return (
    <section className="page page-centered company-blocked">
      <PageTitle title={t`Access blocked!`} />
      <p>
        <Trans>You no longer have access to this organization!</Trans>
      </p>
      <Link className="button" to="/i/selectCompany">
        <Trans>My companies</Trans>
      </Link>
    </section>
  );
}

function DomainNotFound() {
  const { t } = useLingui();
  return (
    <section className="page page-centered">
      <PageTitle title={t`Domain not found`} />
      <p className="muted">
        <Trans>No company uses this address. Check the link you were given.</Trans>
      </p>
      <Link className="button" to="/i/selectCompany">
        <Trans>My companies</Trans>
      </Link>
    </section>
  );
}
