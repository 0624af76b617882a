import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BillingTag } from '../../../shared/domain/billing';
import { useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Badge, Button, ButtonLink, Card, EmptyState, FormError, LoadingSkeleton, PageHeader, RefusalState } from '../../ui';
import { PlanCard } from './PlanCard';
import { PaymentsTable, ReturnNotice, TopUpCard, useMoney } from './TopUp';

export { OperatorPage } from './OperatorPage';

const TAGS: Record<BillingTag | 'translate', MessageDescriptor> = {
  voice: msg`Voice call`,
  video: msg`Video call`,
  share: msg`Screen share`,
  recording: msg`Call recording`,
  remote: msg`Remote assistance`,
  translate: msg`Translation`,
};

/** The company's credits and what calls cost per minute. */
function Balance({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const balance = trpc.billing.balance.useQuery({ domain });
  const money = useMoney();
  if (balance.isPending) return <LoadingSkeleton variant="text" />;
  if (balance.error) return <FormError message={serverMessage(balance.error)} />;
  const { credits, prices, billingExempt } = balance.data;
  return (
    <Card className="credits-balance" title={t`Balance`}>
      <p className="credits-amount">
        <span className="muted">
          <Trans>Credits</Trans>
        </span>{' '}
        <strong data-testid="credits">{money(credits)}</strong>
      </p>
      {billingExempt && (
        <Badge tone="ok">
          <Trans>This company is exempt from charges.</Trans>
        </Badge>
      )}
      <table className="credits-prices">
        <caption>
          <Trans>Prices per minute</Trans>
        </caption>
        <tbody>
          {(['voice', 'video', 'share', 'recording', 'remote'] as const).map((tag) => (
            <tr key={tag}>
              <th scope="row">{i18n._(TAGS[tag])}</th>
              <td>{money(prices[tag])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        <Trans>Calls are charged every 30 seconds per person, at the price of what each one sends; a recording is charged on top. When the credits run out, calls end.</Trans>
      </p>
    </Card>
  );
}

/** /i/recarga: the balance; for admins, buying credits and the payments made. */
export function TopUpPage() {
  const { t } = useLingui();
  const { company, isPending } = useSelectedCompany();
  const operator = trpc.operator.me.useQuery(undefined, { retry: false });
  return (
    <section className="page credits-page">
      <PageHeader
        title={t`Credits`}
        description={t`What the company has to spend on calls, recordings and translation.`}
        actions={
          <>
            {company?.isAdmin && (
              <ButtonLink variant="secondary" to="/i/recarga/historico">
                <Trans>Statement</Trans>
              </ButtonLink>
            )}
            {operator.data?.operator && (
              <ButtonLink variant="quiet" to="/i/recarga/operator">
                <Trans>Operator console</Trans>
              </ButtonLink>
            )}
          </>
        }
      />
      {isPending ? (
        <LoadingSkeleton variant="text" />
      ) : !company ? (
        <EmptyState title={<Trans>Choose a company first.</Trans>} action={<ButtonLink to="/i/selectCompany">{t`Choose a company`}</ButtonLink>} />
      ) : (
        <>
          {company.isAdmin && <ReturnNotice domain={company.domain} />}
          <Balance domain={company.domain} />
          {company.isAdmin ? (
            <>
              <TopUpCard domain={company.domain} />
              <PlanCard domain={company.domain} />
              <PaymentsTable domain={company.domain} />
            </>
          ) : (
            <p className="muted">
              <Trans>The company's administrators buy credits.</Trans>
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** /i/recarga/historico: the statement (extrato), newest first, for the company's admins. */
export function StatementPage() {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const { company, isPending } = useSelectedCompany();
  const domain = company?.domain ?? '';
  const statement = trpc.billing.statement.useInfiniteQuery({ domain, limit: 50 }, { enabled: !!domain, getNextPageParam: (page) => page.nextCursor ?? undefined });
  const money = useMoney();
  const header = <PageHeader title={t`Statement`} back={{ to: '/i/recarga', label: t`Credits` }} />;
  if (isPending || (domain && statement.isPending)) {
    return (
      <section className="page">
        {header}
        <LoadingSkeleton variant="table" />
      </section>
    );
  }
  const entries = statement.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="page credits-page">
      {header}
      {company && <Balance domain={company.domain} />}
      {statement.error ? (
        <RefusalState title={<Trans>The statement cannot be shown</Trans>} message={serverMessage(statement.error)} />
      ) : entries.length === 0 ? (
        <EmptyState title={<Trans>Nothing was charged or credited yet.</Trans>} action={<ButtonLink to="/i/recarga">{t`Buy credits`}</ButtonLink>} />
      ) : (
        <div className="credits-scroll">
          <table className="credits-statement">
            <thead>
              <tr>
                <th scope="col">{t`Date`}</th>
                <th scope="col">{t`Description`}</th>
                <th scope="col">{t`Amount`}</th>
                <th scope="col">{t`Balance`}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{i18n.date(new Date(e.createdAt), { dateStyle: 'short', timeStyle: 'medium' })}</td>
                  <td>
                    <EntryDescription action={e.action} tag={e.tag} name={e.name} seconds={e.seconds} />
                  </td>
                  <td className={Number(e.amount) < 0 ? 'credits-debit' : 'credits-credit'}>{money(e.amount)}</td>
                  <td>{money(e.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {statement.hasNextPage && (
        <Button variant="secondary" isPending={statement.isFetchingNextPage} onPress={() => void statement.fetchNextPage()}>
          <Trans>Load more</Trans>
        </Button>
      )}
    </section>
  );
}

function EntryDescription({ action, tag, name, seconds }: { action: string; tag: BillingTag | 'translate' | null; name: string; seconds: number | null }) {
  const { i18n } = useLingui();
  if (action === 'credit') return <Trans>Credits bought</Trans>;
  if (action === 'refund') return <Trans>Payment refunded</Trans>;
  if (action === 'adjustment') return <Trans>Adjustment by the operator: {name}</Trans>;
  if (action === 'proration') return <Trans>Unused days of the plan {name}, given back on the plan change</Trans>;
  const what = tag ? i18n._(TAGS[tag]) : '';
  const secs = seconds ?? 0;
  return (
    <Trans>
      {what} · {name} · {secs} s
    </Trans>
  );
}
