import { Trans, useLingui } from '@lingui/react/macro';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { PLAN_FEATURE_LABELS } from './labels';
import { useServerText } from './serverText';
import type { CompanyAccount } from './types';

/**
 * The company's account (settings.companyAccount): credits, storage, plan state and, unless
 * `brief`, which plan features are included. Shared by the settings overview and configCompany.
 */
export function AccountSummary({ domain, brief = false }: { domain: string; brief?: boolean }) {
  const { i18n } = useLingui();
  const serverText = useServerText();
  const account = trpc.settings.companyAccount.useQuery({ domain });
  if (account.isPending) return <Spinner />;
  if (account.isError) return <FormError message={serverText(account.error.message)} />;
  const a = account.data;
  const included = Object.entries(a.plan).filter(([, v]) => v > 0);
  const credits = i18n.number(a.credits, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const gb = a.storage.planGb;
  return (
    <>
      <PlanState account={a} />
      <dl className="facts">
        <dt>
          <Trans>Credits</Trans>
        </dt>
        <dd>{credits}</dd>
        <dt>
          <Trans>Storage plan</Trans>
        </dt>
        <dd>
          <Trans>{gb} GB</Trans>
        </dd>
        <dt>
          <Trans>Plan features</Trans>
        </dt>
        <dd>
          {brief ? (
            <Trans>
              {included.length} of {Object.keys(a.plan).length} included
            </Trans>
          ) : included.length === 0 ? (
            <Trans>None</Trans>
          ) : (
            <ul className="plan-features">
              {included.map(([key, value]) => (
                <li key={key}>
                  {PLAN_FEATURE_LABELS[key] ? i18n._(PLAN_FEATURE_LABELS[key]) : key}
                  {value > 1 && <span className="muted"> × {value}</span>}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </>
  );
}

function PlanState({ account }: { account: CompanyAccount }) {
  if (account.blocked?.reason === 'deactivated') {
    return (
      <p className="notice-warn" role="status">
        <Trans>The company is deactivated: only administrators can work.</Trans>
      </p>
    );
  }
  if (account.blocked?.reason === 'planBlocked') {
    return (
      <p className="notice-warn" role="status">
        <Trans>The plan is blocked: only administrators can work until it is settled.</Trans>
      </p>
    );
  }
  if (account.billingExempt) {
    return (
      <p className="muted">
        <Trans>This company is exempt from billing.</Trans>
      </p>
    );
  }
  return null;
}
