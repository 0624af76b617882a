import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useId, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { trpc } from '../trpc';
import { useAccessRefusalRedirect } from './accessRefusal';
import { useSelectedCompany } from './company';

// The modal machinery (React Aria) is not part of the shell's first download: this dialog is rare.
const ModalDialog = lazy(() => import('../ui/Dialog').then((m) => ({ default: m.ModalDialog })));

/**
 * /i screens about the user rather than a company: they stay open whatever the selected company
 * says, so someone blocked there can still choose another company or answer an invitation.
 */
const COMPANY_FREE = /^\/i\/(selectCompany|invites|myAccount|settingsUser|notifications)(\/|$)/;

/**
 * The /i shell's check of the selected company (rendered by AppLayout above every screen):
 * a refusal of company.current sends a blocked or removed member to /{emp}/block and one still
 * waiting to /{emp}/wait. While the company's plan is blocked or the company deactivated, a
 * non-admin gets the spec's dialog (sign out, or carry on read-only); admins continue with a banner.
 */
export function CompanyGate() {
  const location = useLocation();
  const { company } = useSelectedCompany();
  const domain = company?.domain ?? '';
  const exempt = COMPANY_FREE.test(location.pathname);
  const current = trpc.company.current.useQuery({ domain }, { enabled: domain !== '' && !exempt, retry: false });
  // A refusal still cached from before (e.g. since unblocked) does not count while it is re-asked.
  const redirecting = useAccessRefusalRedirect(domain, exempt || current.isFetching ? null : current.error);
  if (exempt || redirecting || !current.data?.blocked) return null;
  return <CompanyBlockedNotice key={domain} isAdmin={current.data.me.isAdmin} />;
}

function CompanyBlockedNotice({ isAdmin }: { isAdmin: boolean }) {
  const [acknowledged, setAcknowledged] = useState(false);
  if (!isAdmin && !acknowledged) return <CompanyDeactivatedDialog onAcknowledge={() => setAcknowledged(true)} />;
  return (
    <p className="notice-warn company-blocked-banner" role="status">
      {isAdmin ? (
        <Trans>The company's account is deactivated: only administrators can work until it is active again.</Trans>
      ) : (
        <Trans>The company's account is deactivated: you can look, but not serve the queue or interact with conversations.</Trans>
      )}
    </p>
  );
}

/** Spec 6 and the error catalogue: 'desconectar' signs out to /i/login/entrar, 'entendi' closes it. */
function CompanyDeactivatedDialog({ onAcknowledge }: { onAcknowledge: () => void }) {
  const { t } = useLingui();
  const textId = useId();
  const signOut = trpc.auth.signOut.useMutation({
    // A full page load, as the header's sign-out: no cache or socket of this session survives.
    onSuccess: () => window.location.assign('/i/login/entrar'),
  });
  return (
    // Escape means "understood" too: the dialog informs, it does not ask for a decision.
    <Suspense fallback={null}>
    <ModalDialog
      title={t`Attention - Company deactivated`}
      className="dialog-wide"
      describedBy={textId}
      onCancel={onAcknowledge}
      actions={
        <>
          <button type="button" className="button button-secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            <Trans>Disconnect</Trans>
          </button>
          <button type="button" className="button" autoFocus onClick={onAcknowledge}>
            <Trans>Got it</Trans>
          </button>
        </>
      }
    >
      <p id={textId}>
        <Trans>The company's account is currently deactivated: you will not be able to serve the queue or interact with conversations.</Trans>
      </p>
      {signOut.error && (
        <p className="form-error" role="alert">
          <Trans>Could not sign out. Try again.</Trans>
        </p>
      )}
    </ModalDialog>
    </Suspense>
  );
}
