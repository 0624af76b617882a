import { useLingui } from '@lingui/react/macro';
import { trpc } from '../../trpc';
import { Facts, LoadingSkeleton } from '../../ui';

/** Used and free storage against the plan (company account screen, dashboard). */
export function StorageUsage({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const storage = trpc.reports.storage.useQuery({ domain }, { retry: false });
  if (storage.isPending) return <LoadingSkeleton variant="text" rows={2} />;
  if (storage.error) return null;
  const s = storage.data;
  const mb = (n: number) => `${i18n.number(n / 1024 ** 2, { maximumFractionDigits: 1 })} MB`;
  return (
    <div className="reports-storage">
      <Facts
        items={[
          [t`Storage used`, mb(s.totalBytes)],
          [t`Free`, mb(s.freeBytes)],
        ]}
      />
      <meter className="reports-meter" min={0} max={s.planBytes} value={s.totalBytes} aria-label={t`Storage used`} />
    </div>
  );
}
