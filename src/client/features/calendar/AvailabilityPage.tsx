/**
 * /i/schedule/edit: my availability for appointments: weekly windows (a day, from, to; several a
 * day), the length of a slot, the minutes kept free after each, and the time zone the windows are
 * read in (09:00 stays 09:00 there across daylight-saving changes). The server checks it again
 * (shared/domain/appointments.ts scheduleProblems). An admin may choose "for a queue" instead:
 * the same settings as that queue's own availability (customers then book the queue, not a person).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { scheduleProblems, type AvailabilityWindowLike } from '../../../shared/domain/appointments';
import { trpc } from '../../trpc';
import { Button, ButtonLink, EmptyState, FormError, IconButton, LoadingSkeleton, NumberField, RefusalState, SelectField, TextField, toast } from '../../ui';
import { MemberScreen } from '../service/MemberScreen';
import { browserTimeZone, useCalendarMessage } from './texts';

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const minutes = (v: string) => {
  const [h, m] = v.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
/** The zones the browser knows, for the picker (older browsers: just the current one). */
const zones = () => {
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return all.length ? all : [browserTimeZone()];
};

export function AvailabilityPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`My availability`} className="schedule-page">{(company) => <AvailabilityChoice domain={company.domain} />}</MemberScreen>;
}

/** Admins choose whose availability they edit: their own (a person) or a queue's. */
function AvailabilityChoice({ domain }: { domain: string }) {
  const { t } = useLingui();
  const queues = trpc.appointments.queues.useQuery({ domain }, { retry: false });
  const [kind, setKind] = useState<'person' | 'queue'>('person');
  const [queueId, setQueueId] = useState('');
  const list = queues.data ?? [];
  const chosen = kind === 'queue' ? (list.find((q) => q.queueId === queueId) ?? list[0]) : undefined;
  return (
    <>
      {list.length > 0 && (
        <div className="schedule-edit-numbers">
          <SelectField
            label={t`Availability`}
            options={[{ value: 'person', label: t`For a person (me)` }, { value: 'queue', label: t`For a queue` }]}
            value={kind}
            onChange={(e) => setKind(e.target.value === 'queue' ? 'queue' : 'person')}
          />
          {kind === 'queue' && (
            <SelectField label={t`Queue`} options={list.map((q) => ({ value: q.queueId, label: q.name }))} value={chosen?.queueId ?? ''} onChange={(e) => setQueueId(e.target.value)} />
          )}
        </div>
      )}
      <AvailabilityForm key={chosen?.queueId ?? 'me'} domain={domain} queueId={chosen?.queueId} />
    </>
  );
}

function AvailabilityForm({ domain, queueId }: { domain: string; queueId?: string }) {
  const { t, i18n } = useLingui();
  const message = useCalendarMessage();
  const utils = trpc.useUtils();
  const mine = trpc.appointments.schedule.useQuery({ domain, zone: browserTimeZone() }, { retry: false, enabled: !queueId });
  const queue = trpc.appointments.queueSchedule.useQuery({ domain, queueId: queueId ?? '', zone: browserTimeZone() }, { retry: false, enabled: !!queueId });
  const current = queueId ? queue : mine;
  const [timeZone, setTimeZone] = useState(browserTimeZone());
  const [slotMinutes, setSlot] = useState(30);
  const [bufferMinutes, setBuffer] = useState(0);
  const [windows, setWindows] = useState<AvailabilityWindowLike[]>([]);
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    if (!current.data) return;
    setTimeZone(current.data.timeZone);
    setSlot(current.data.slotMinutes);
    setBuffer(current.data.bufferMinutes);
    setWindows(current.data.windows);
  }, [current.data]);
  const saveMine = trpc.appointments.saveSchedule.useMutation({
    onSuccess: (data) => {
      utils.appointments.schedule.setData({ domain, zone: browserTimeZone() }, data);
      toast.ok(t`Availability saved`);
    },
  });
  const saveQueue = trpc.appointments.saveQueueSchedule.useMutation({
    onSuccess: (data) => {
      utils.appointments.queueSchedule.setData({ domain, queueId: queueId ?? '', zone: browserTimeZone() }, data);
      toast.ok(t`Availability saved`);
    },
  });
  const save = queueId ? saveQueue : saveMine;
  if (current.isPending) return <LoadingSkeleton variant="form" />;
  if (current.error) return <RefusalState title={t`Appointments unavailable`} message={message(current.error)} />;

  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) => ({ value: String(d), label: i18n.date(new Date(Date.UTC(2026, 0, 4 + d)), { weekday: 'long', timeZone: 'UTC' }) }));
  const problems = checked ? scheduleProblems({ timeZone, slotMinutes, bufferMinutes, windows }) : [];
  const change = (i: number, patch: Partial<AvailabilityWindowLike>) => setWindows((ws) => ws.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <form
      className="settings-form schedule-edit"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setChecked(true);
        if (scheduleProblems({ timeZone, slotMinutes, bufferMinutes, windows }).length) return;
        const v = { domain, timeZone, slotMinutes, bufferMinutes, windows };
        if (queueId) saveQueue.mutate({ ...v, queueId });
        else saveMine.mutate(v);
      }}
    >
      <p className="muted">
        <Trans>Customers book these times on the company's page. Each week repeats; times are read in the zone below.</Trans>
      </p>
      <SelectField label={t`Time zone`} options={zones().map((z) => ({ value: z, label: z }))} value={timeZone} onChange={(e) => setTimeZone(e.target.value)} />
      <div className="schedule-edit-numbers">
        <NumberField label={t`Minutes per appointment`} value={slotMinutes} minValue={5} maxValue={480} step={5} onChange={(v) => setSlot(v ?? 0)} error={problems.includes('slotMinutes') ? t`From 5 to 480 minutes` : null} />
        <NumberField label={t`Minutes free after each`} value={bufferMinutes} minValue={0} maxValue={240} step={5} onChange={(v) => setBuffer(v ?? 0)} error={problems.includes('bufferMinutes') ? t`At most 240 minutes` : null} />
      </div>
      <fieldset className="schedule-windows">
        <legend><Trans>Weekly times</Trans></legend>
        {windows.length === 0 && <EmptyState title={t`No times yet`} description={t`Add the times of the week you take appointments.`} />}
        {windows.map((w, i) => (
          <div key={i} className="schedule-window">
            <SelectField label={t`Day`} options={weekdays} value={String(w.weekday)} onChange={(e) => change(i, { weekday: Number(e.target.value) })} />
            <TextField label={t`From`} type="time" value={hhmm(w.startMinute)} onChange={(e) => change(i, { startMinute: minutes(e.target.value) })} />
            <TextField label={t`To`} type="time" value={hhmm(Math.min(w.endMinute, 1439))} onChange={(e) => change(i, { endMinute: minutes(e.target.value) })} />
            <IconButton icon={Trash2} label={t`Remove these times`} onPress={() => setWindows((ws) => ws.filter((_, j) => j !== i))} />
          </div>
        ))}
        <Button variant="secondary" icon={Plus} onPress={() => setWindows((ws) => [...ws, { weekday: 1, startMinute: 540, endMinute: 720 }])}>
          <Trans>Add times</Trans>
        </Button>
      </fieldset>
      <FormError message={problems.includes('window') ? t`Each time must end after it starts` : problems.includes('overlap') ? t`Times of one day must not overlap` : message(save.error)} />
      <div className="form-actions">
        <ButtonLink variant="quiet" to="/i/schedule"><Trans>My appointments</Trans></ButtonLink>
        <Button type="submit" variant="primary" isPending={save.isPending}><Trans>Save</Trans></Button>
      </div>
    </form>
  );
}
