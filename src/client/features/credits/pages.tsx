import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { BillingTag } from '../../../shared/domain/billing';
import { useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';

const TAGS: Record<BillingTag, MessageDescriptor> = {
  voice: msg`Voice call`,
  video: msg`Video call`,
  share: msg`Screen share`,
  recording: msg`Call recording`,
};

/** The company's credits and what calls cost per minute. */
function Balance({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const balance = trpc.billing.balance.useQuery({ domain });
  if (balance.isPending) return <Spinner />;
  if (balance.error) return <p className="form-error" role="alert">{serverMessage(balance.error)}</p>;
  const { credits, prices, billingExempt } = balance.data;
  const money = (value: string) => i18n.number(Number(value), { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  return (
    <section className="credits-balance" aria-label={t`Balance`}>
      <p className="credits-amount">
        <span className="muted">
          <Trans>Credits</Trans>
        </span>{' '}
        <strong>{money(credits)}</strong>
      </p>
      {billingExempt && (
        <p className="badge badge-ok">
          <Trans>This company is exempt from charges.</Trans>
        </p>
      )}
      <table className="credits-prices">
        <caption>
          <Trans>Prices per minute</Trans>
        </caption>
        <tbody>
          {(['voice', 'video', 'share', 'recording'] as const).map((tag) => (
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
    </section>
  );
}

/** /i/recarga: the balance, and where credits go. */
export function TopUpPage() {
  const { t } = useLingui();
  const { company, isPending } = useSelectedCompany();
  return (
    <section className="page">
      <PageTitle title={t`Credits`} />
      {isPending ? <Spinner /> : company ? <Balance domain={company.domain} /> : <Trans>Choose a company first.</Trans>}
      <p className="muted">
        <Trans>Credits are added to the company by the operator of this installation.</Trans>
      </p>
      {company?.isAdmin && (
        <Link className="section-link" to="/i/recarga/historico">
          <Trans>Statement</Trans>
        </Link>
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
  if (isPending || (domain && statement.isPending)) return <Spinner />;
  const entries = statement.data?.pages.flatMap((p) => p.entries) ?? [];
  const money = (value: string) => i18n.number(Number(value), { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  return (
    <section className="page">
      <PageTitle title={t`Statement`} />
      {company && <Balance domain={company.domain} />}
      {statement.error ? (
        <p className="form-error" role="alert">
          {serverMessage(statement.error)}
        </p>
      ) : entries.length === 0 ? (
        <p className="muted empty-state">
          <Trans>Nothing was charged yet.</Trans>
        </p>
      ) : (
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
                  <EntryDescription tag={e.tag} name={e.name} seconds={e.seconds} />
                </td>
                <td className={Number(e.amount) < 0 ? 'credits-debit' : 'credits-credit'}>{money(e.amount)}</td>
                <td>{money(e.balanceAfter)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {statement.hasNextPage && (
        <button type="button" className="button button-secondary" disabled={statement.isFetchingNextPage} onClick={() => void statement.fetchNextPage()}>
          <Trans>Load more</Trans>
        </button>
      )}
    </section>
  );
}

function EntryDescription({ tag, name, seconds }: { tag: BillingTag | null; name: string; seconds: number | null }) {
  const { i18n } = useLingui();
  const what = tag ? i18n._(TAGS[tag]) : '';
  const who = name;
  const secs = seconds ?? 0;
  return (
    <Trans>
      {what} · {who} · {secs} s
    </Trans>
  );
}
