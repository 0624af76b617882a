import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';
import { trpc } from '../../trpc';
import { Dialog } from '../../ui/Dialog';
import { FormError } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { CheckboxField } from '../../ui/fields';
import { SettingsList } from './SettingsList';
import { useServerText } from './serverText';

type QueueRow = inferRouterOutputs<AppRouter>['queues']['list'][number];

/** /i/settings/queues: the service channels, who serves them, and a new one. */
export function QueuesPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Queues`}>{(company) => <QueueList domain={company.domain} />}</AdminScreen>;
}

/** /i/settings/queues/{id} ('new' creates one). */
export function QueueSettingsPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return (
    <AdminScreen title={id === 'new' ? t`New queue` : t`Queue`}>
      {(company) => (id === 'new' ? <QueueForm domain={company.domain} queue={null} /> : <QueueEditor domain={company.domain} queueId={id} />)}
    </AdminScreen>
  );
}

function QueueList({ domain }: { domain: string }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const queues = trpc.queues.list.useQuery({ domain });
  const remove = trpc.queues.delete.useMutation({ onSuccess: () => utils.queues.list.invalidate({ domain }) });
  return (
    <SettingsList<QueueRow>
      list={queues}
      nameHeader={<Trans>Queue</Trans>}
      nameDetail={(q) => <div className="muted">/{q.key}</div>}
      columns={[
        { header: <Trans>Groups</Trans>, cell: (q) => q.groups.map((g) => g.label).join(', ') },
        {
          header: <Trans>State</Trans>,
          cell: (q) => (
            <>
              <span className={q.active ? 'badge badge-ok' : 'badge badge-warn'}>{q.active ? t`Active` : t`Disabled`}</span>
              {q.internal && (
                <span className="badge">
                  <Trans>Internal</Trans>
                </span>
              )}
              {q.sla && <span className="badge">SLA</span>}
            </>
          ),
        },
        { header: <Trans>Waiting</Trans>, cell: (q) => q.waiting },
      ]}
      newLabel={<Trans>New queue</Trans>}
      removeTitle={(q) => t`Remove the queue ${q.name}?`}
      removedNotice={(q) => t`Queue ${q.name} removed.`}
      removeDetail={
        <p className="muted">
          <Trans>Links to this queue stop working. Conversations it served keep its name.</Trans>
        </p>
      }
      remove={{ ...remove, run: (q) => remove.mutateAsync({ domain, queueId: q.id }) }}
    />
  );
}

function QueueEditor({ domain, queueId }: { domain: string; queueId: string }) {
  const serverText = useServerText();
  const queue = trpc.queues.get.useQuery({ domain, queueId }, { retry: false });
  if (queue.isPending) return <Spinner />;
  if (queue.isError) {
    return (
      <div className="empty-state">
        <FormError message={serverText(queue.error.message)} />
        <Link to="/i/settings/queues">
          <Trans>Back to queues</Trans>
        </Link>
      </div>
    );
  }
  return <QueueForm domain={domain} queue={queue.data} />;
}

/**
 * One queue's settings: name, active or disabled, internal (not on the public page), SLA with
 * SLAtempoAtendimento, and the groups that serve it — at least one ('Definir Grupo').
 */
function QueueForm({ domain, queue }: { domain: string; queue: QueueRow | null }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const groups = trpc.groups.list.useQuery({ domain });
  const current = trpc.company.current.useQuery({ domain }, { staleTime: 60_000 });
  const features = current.data?.features;
  const create = trpc.queues.create.useMutation();
  const update = trpc.queues.update.useMutation();
  const [error, setError] = useState<string | null>(null);
  const [needsGroup, setNeedsGroup] = useState(false);
  const draft = useDraft({
    name: queue?.name ?? '',
    active: queue?.active ?? true,
    internal: queue?.internal ?? false,
    sla: queue?.sla ?? false,
    slaServiceTime: String(queue?.slaServiceTime ?? 1),
    groupIds: (queue?.groups ?? []).map((g) => g.value).sort(),
  });

  const [createdId, setCreatedId] = useState<string | null>(null);
  // Once the saved form is no longer dirty (so the unsaved-changes guard lets it go), open the new one.
  useEffect(() => {
    if (createdId && !draft.dirty) void navigate(`/i/settings/queues/${createdId}`, { replace: true });
  }, [createdId, draft.dirty, navigate]);

  async function save(): Promise<boolean> {
    setError(null);
    const v = draft.values;
    if (v.groupIds.length === 0) {
      setNeedsGroup(true);
      return false;
    }
    const input = { name: v.name, active: v.active, internal: v.internal, sla: v.sla, slaServiceTime: Math.max(1, Number(v.slaServiceTime) || 1), groupIds: v.groupIds };
    try {
      const saved = queue ? await update.mutateAsync({ domain, queueId: queue.id, ...input }) : await create.mutateAsync({ domain, ...input });
      draft.commit({ ...v, name: saved.name, slaServiceTime: String(saved.slaServiceTime) });
      await utils.queues.invalidate();
      if (!queue) setCreatedId(saved.id);
      return true;
    } catch (err) {
      setError(serverText((err as Error).message));
      return false;
    }
  }

  return (
    <>
      <Link to="/i/settings/queues" className="back-link">
        <Trans>Back to queues</Trans>
      </Link>
      {queue && (
        <p className="muted">
          <Trans>Link for customers:</Trans> <code>/{domain}/direct/queue/{queue.key}</code>
        </p>
      )}
      <EditForm draft={draft} save={save} pending={create.isPending || update.isPending} error={error} submitLabel={queue ? undefined : <Trans>Create queue</Trans>}>
        <TextField label={t`Name`} value={draft.values.name} maxLength={80} placeholder="(sem nome)" onChange={(e) => draft.set('name', e.target.value)} />
        <CheckboxField label={t`Active (taking requests)`} checked={draft.values.active} onChange={(on) => draft.set('active', on)} />
        <CheckboxField label={t`Internal (only members of the company can use it)`} checked={draft.values.internal} onChange={(on) => draft.set('internal', on)} />
        {/* The plan's sla flag; a queue that already has SLA keeps the box, to switch it off. */}
        {features?.sla || draft.values.sla ? (
          <CheckboxField label={t`SLA: requests have a due date`} checked={draft.values.sla} onChange={(on) => draft.set('sla', on)} />
        ) : (
          features && (
            <p className="field-hint muted">
              <Trans>Your plan does not include SLA.</Trans>
            </p>
          )
        )}
        {draft.values.sla && (
          <TextField
            label={t`Days to conclude a request (SLA)`}
            type="number"
            min={1}
            max={365}
            value={draft.values.slaServiceTime}
            onChange={(e) => draft.set('slaServiceTime', e.target.value)}
          />
        )}
        <fieldset className="checkbox-group">
          <legend>
            <Trans>Groups that serve this queue</Trans>
          </legend>
          {groups.isPending && <Spinner />}
          {groups.data?.map((g) => (
            <CheckboxField
              key={g.id}
              label={g.name}
              checked={draft.values.groupIds.includes(g.id)}
              onChange={(on) => draft.set('groupIds', on ? [...draft.values.groupIds, g.id].sort() : draft.values.groupIds.filter((id) => id !== g.id))}
            />
          ))}
        </fieldset>
      </EditForm>
      {needsGroup && (
        <Dialog title={t`Set a group`} onClose={() => setNeedsGroup(false)}>
          <p>
            <Trans>You need to set at least one service group for this channel</Trans>
          </p>
        </Dialog>
      )}
    </>
  );
}
