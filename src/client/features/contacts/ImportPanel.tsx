import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { putFile } from '../feeds/upload';
import { useSocketEvent } from '../service/live';

/**
 * CSV import: the file is sent, then the progress comes over the socket (contacts:import) with
 * contacts.importStatus polled as well, so a tab whose socket is down still sees it finish; the
 * report lists every refused row with its line and reason.
 */
export function ImportPanel({ domain, onDone }: { domain: string; onDone: () => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [importId, setImportId] = useState<string | null>(null);
  const [sending, setSending] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState<{ processed: number; total: number } | null>(null);
  const status = trpc.contacts.importStatus.useQuery(
    { domain, importId: importId ?? '' },
    { enabled: !!importId, refetchInterval: (q) => (q.state.data?.status === 'running' ? 2000 : false) },
  );
  useSocketEvent('contacts:import', (e) => {
    if (e.importId !== importId) return;
    setLive({ processed: e.processed, total: e.total });
    if (e.status !== 'running') void status.refetch();
  });
  const finished = status.data && status.data.status !== 'running';
  useEffect(() => {
    if (finished) onDone();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [finished]);

  function send(file: File | undefined) {
    if (!file) return;
    setError(null);
    setImportId(null);
    setLive(null);
    setSending(0);
    putFile<{ importId: string; total: number }>(`/uploads/contacts/${domain}/import?name=${encodeURIComponent(file.name)}`, file, setSending)
      .then((r) => {
        setImportId(r.importId);
        setLive({ processed: 0, total: r.total });
      })
      .catch((err: Error) => setError(serverMessage(err) ?? err.message))
      .finally(() => setSending(null));
  }
  const processed = Math.max(live?.processed ?? 0, status.data?.processed ?? 0);
  const total = status.data?.total ?? live?.total ?? 0;
  const report = finished ? status.data : null;

  return (
    <section className="contacts-import" aria-labelledby="import-title">
      <h2 id="import-title">
        <Trans>Import from CSV</Trans>
      </h2>
      <p className="muted">
        <Trans>Columns: name (required), email, phone, company, tags, notes, and your additional fields by TAG or name. Separated by commas or semicolons.</Trans>
      </p>
      <label className="button button-secondary">
        <Trans>Choose a CSV file</Trans>
        <input type="file" accept=".csv,text/csv" className="visually-hidden" onChange={(e) => (send(e.target.files?.[0]), (e.target.value = ''))} />
      </label>
      <FormError message={error} />
      {sending !== null && <progress max={1} value={sending} aria-label={t`Sending the file`} />}
      {importId && (
        <div className="contacts-import-progress">
          <progress max={total || 1} value={processed} aria-label={t`Import progress`} aria-valuenow={processed} aria-valuemax={total} data-testid="import-progress" />
          <span role="status">
            <Trans>
              {processed} of {total} rows
            </Trans>
          </span>
        </div>
      )}
      {report && (
        <div className="contacts-import-report" data-testid="import-report">
          <p role="status">
            {report.status === 'failed' ? (
              <Trans>The import stopped before the end.</Trans>
            ) : (
              <Trans>
                Import finished: {report.created} added, {report.updated} updated, {report.failed} refused.
              </Trans>
            )}
          </p>
          {report.errors.length > 0 && (
            <table className="contacts-table">
              <caption>
                <Trans>Rows not imported</Trans>
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Row</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Why</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.errors.map((e) => (
                  <tr key={e.row}>
                    <td>{e.row}</td>
                    <td>{rowReason(e.message, serverMessage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}

/** "email: Invalid email" — the column as written, the reason in the reader's language. */
function rowReason(message: string, serverMessage: (e: { message: string }) => string | null): string {
  const at = message.indexOf(': ');
  if (at < 0) return serverMessage({ message }) ?? message;
  return `${message.slice(0, at)}: ${serverMessage({ message: message.slice(at + 2) }) ?? message.slice(at + 2)}`;
}
