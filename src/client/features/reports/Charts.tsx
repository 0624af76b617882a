import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AppRouter } from '../../../server/router';
import { Button, Card, Facts } from '../../ui';
import { downloadCsv, toCsv } from './csv';

/** The dashboard's cards and charts: a chunk of its own, so recharts loads only here. */
type Report = inferRouterOutputs<AppRouter>['reports']['dashboard'];

const KINDS: Record<string, MessageDescriptor> = {
  voice: msg`Voice`,
  video: msg`Video`,
  share: msg`Screen share`,
  recording: msg`Recording`,
  remote: msg`Remote assistance`,
  translate: msg`Translation`,
};

function ExportButton({ name, header, rows }: { name: string; header: string[]; rows: (string | number | null)[][] }) {
  return (
    <Button variant="quiet" size="small" icon={Download} onPress={() => downloadCsv(`${name}.csv`, toCsv(header, rows))}>
      <Trans>Export CSV</Trans>
    </Button>
  );
}

/** A chart with a name for screen readers; the figures are also in the CSV. */
function Chart({ label, children }: { label: string; children: ReactNode }) {
  return (
    <figure className="reports-chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height={240}>
        {children as never}
      </ResponsiveContainer>
    </figure>
  );
}

export default function Figures({ report: r, name }: { report: Report; name: string }) {
  const { t, i18n } = useLingui();
  const bytes = (n: number) => i18n.number(n / 1024 ** 2, { maximumFractionDigits: 1 }) + ' MB';
  const duration = (s: number | null) => (s === null ? '—' : s < 3600 ? t`${Math.round(s / 60)} min` : t`${i18n.number(s / 3600, { maximumFractionDigits: 1 })} h`);
  const kind = (k: string) => (KINDS[k] ? i18n._(KINDS[k]) : k);
  const summary: [string, string | number][] = [
    [t`Services`, r.services],
    [t`Customers served`, r.customersServed],
    [t`Attachments`, r.attachments],
    [t`Company rating`, `${i18n.number(r.companyRating.average, { maximumFractionDigits: 2 })} (${r.companyRating.count})`],
    [t`Ratings in the period`, r.ratings.average === null ? '—' : `${i18n.number(r.ratings.average)} (${r.ratings.count})`],
    [t`First response, median`, duration(r.firstResponseSeconds.median)],
    [t`First response, 90th percentile`, duration(r.firstResponseSeconds.p90)],
    [t`Resolution, median`, duration(r.resolutionSeconds.median)],
    [t`Resolution, 90th percentile`, duration(r.resolutionSeconds.p90)],
    [t`SLA met`, r.sla.met],
    [t`SLA missed`, r.sla.missed],
  ];
  const minutes = Object.entries(r.callMinutes).map(([k, m]) => ({ kind: kind(k), minutes: m }));
  const credits = r.creditsByKind.map((c) => ({ kind: kind(c.kind), amount: Number(c.amount) }));
  return (
    <div className="reports-grid">
      <Card
        title={t`Storage`}
        actions={<ExportButton name={`${name}-storage`} header={['figure', 'bytes']} rows={Object.entries(r.storage).map(([k, v]) => [k, v])} />}
      >
        <Facts
          items={[
            [t`Messages`, bytes(r.storage.bytesMessages)],
            [t`Attachments and recordings`, bytes(r.storage.bytesAttachments)],
            [t`Used`, bytes(r.storage.totalBytes)],
            [t`Plan size`, bytes(r.storage.planBytes)],
            [t`Free`, bytes(r.storage.freeBytes)],
          ]}
        />
        <meter className="reports-meter" min={0} max={r.storage.planBytes} value={r.storage.totalBytes} aria-label={t`Storage used`} />
      </Card>
      <Card title={t`Service`} actions={<ExportButton name={`${name}-summary`} header={['figure', 'value']} rows={summary} />}>
        <Facts items={summary.map(([k, v]) => [k, v] as const)} />
      </Card>
      <Card
        title={t`Conversations per day`}
        className="reports-wide"
        actions={<ExportButton name={`${name}-per-day`} header={['day', 'opened', 'concluded']} rows={r.perDay.map((d) => [d.day, d.opened, d.concluded])} />}
      >
        <Chart label={t`Conversations opened and concluded per day`}>
          <BarChart data={r.perDay}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            <Bar dataKey="opened" name={t`Opened`} fill="var(--accent)" />
            <Bar dataKey="concluded" name={t`Concluded`} fill="var(--ok)" />
          </BarChart>
        </Chart>
      </Card>
      <Card
        title={t`Ratings`}
        actions={<ExportButton name={`${name}-ratings`} header={['stars', 'count']} rows={r.ratings.distribution.map((d) => [d.stars, d.count])} />}
      >
        <Chart label={t`Ratings by stars`}>
          <BarChart data={r.ratings.distribution}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="stars" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Bar dataKey="count" name={t`Ratings`} fill="var(--accent)" />
          </BarChart>
        </Chart>
      </Card>
      <Card title={t`Call minutes`} actions={<ExportButton name={`${name}-call-minutes`} header={['kind', 'minutes']} rows={Object.entries(r.callMinutes).map(([k, m]) => [k, m])} />}>
        <Chart label={t`Call minutes by kind`}>
          <BarChart data={minutes}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="kind" />
            <YAxis />
            <Tooltip />
            <Bar dataKey="minutes" name={t`Minutes`} fill="var(--accent)" />
          </BarChart>
        </Chart>
      </Card>
      <Card title={t`Credits spent`} actions={<ExportButton name={`${name}-credits`} header={['kind', 'amount']} rows={r.creditsByKind.map((c) => [c.kind, c.amount])} />}>
        {credits.length === 0 ? (
          <p className="muted">
            <Trans>No credits were spent in this period.</Trans>
          </p>
        ) : (
          <Chart label={t`Credits spent by kind`}>
            <BarChart data={credits}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="kind" />
              <YAxis />
              <Tooltip />
              <Bar dataKey="amount" name={t`Credits`} fill="var(--danger)" />
            </BarChart>
          </Chart>
        )}
      </Card>
    </div>
  );
}
