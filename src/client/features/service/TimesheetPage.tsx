import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { MemberScreen } from './MemberScreen';

const hours = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** The local date and time as a datetime-local input shows it. */
function localNow() {
  const d = new Date();
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** /i/recent/chat/{id}/timesheet: time spent on the conversation, per person, with a new entry. */
export function TimesheetPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <MemberScreen title={t`Timesheet`}>{(company) => <Timesheet domain={company.domain} conversationId={id} />}</MemberScreen>;
}

function Timesheet({ domain, conversationId }: { domain: string; conversationId: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const sheet = trpc.service.timesheet.useQuery({ domain, conversationId }, { retry: false });
  const refresh = () => utils.service.timesheet.invalidate({ domain, conversationId });
  const [startedAt, setStartedAt] = useState(localNow);
  const [minutes, setMinutes] = useState('30');
  const [description, setDescription] = useState('');
  const add = trpc.service.addTime.useMutation({
    onSuccess: () => {
      setDescription('');
      void refresh();
    },
  });
  const remove = trpc.service.removeTime.useMutation({ onSuccess: () => void refresh() });

  if (sheet.isPending) return <Spinner />;
  if (sheet.isError) return <FormError message={serverMessage(sheet.error)} />;
  const total = hours(sheet.data.totalMinutes);
  return (
    <>
      <FormError message={remove.error ? serverMessage(remove.error) : null} />
      <table className="settings-table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>When</Trans>
            </th>
            <th scope="col">
              <Trans>Who</Trans>
            </th>
            <th scope="col">
              <Trans>Time</Trans>
            </th>
            <th scope="col">
              <Trans>Description</Trans>
            </th>
            <th scope="col">
              <span className="visually-hidden">
                <Trans>Actions</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sheet.data.entries.map((e) => (
            <tr key={e.id}>
              <td>{i18n.date(new Date(e.startedAt), { dateStyle: 'short', timeStyle: 'short' })}</td>
              <td>{e.name}</td>
              <td>{hours(e.minutes)}</td>
              <td>{e.description}</td>
              <td className="row-actions">
                {e.mine && (
                  <button type="button" className="button button-secondary button-small" disabled={remove.isPending} onClick={() => remove.mutate({ domain, entryId: e.id })}>
                    <Trans>Delete</Trans>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <strong>
          <Trans>Total: {total}</Trans>
        </strong>{' '}
        <span className="muted">{sheet.data.totals.map((p) => `${p.name} ${hours(p.minutes)}`).join(' · ')}</span>
      </p>
      <form
        className="settings-form"
        aria-label={t`New time entry`}
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate({ domain, conversationId, startedAt: new Date(startedAt), minutes: Number(minutes), description });
        }}
      >
        <FormError message={add.error ? serverMessage(add.error) : null} />
        <TextField label={t`Started at`} type="datetime-local" required value={startedAt} onChange={(e) => setStartedAt(e.target.value)} />
        <TextField label={t`Minutes`} type="number" min={1} max={1440} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />
        <TextField label={t`Description`} value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={add.isPending}>
            <Trans>Add time</Trans>
          </button>
        </div>
      </form>
    </>
  );
}
