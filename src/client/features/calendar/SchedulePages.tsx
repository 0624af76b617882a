/**
 * An attendant's appointments: /i/schedule (upcoming and past, book for a customer, cancel) and
 * /i/recent/schedule/{id} (one appointment: who, when in the viewer's zone, state, cancel or move,
 * the conversation when there is one). Times are shown in the viewer's zone and language; the
 * list refreshes when the server says one of my appointments changed.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { CalendarClock, CalendarPlus, MessageSquare, Settings2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AppRouter } from '../../../server/router';
import { trpc } from '../../trpc';
import { Badge, Button, ButtonLink, ConfirmDialog, EmptyState, Facts, FormError, LoadingSkeleton, ModalDialog, RefusalState, Tab, TabList, TabPanel, Tabs, toast } from '../../ui';
import { MemberScreen } from '../service/MemberScreen';
import { useSocketEvent } from '../service/live';
import { BookingForm, MoveToSlotDialog } from './SlotPicker';
import { useCalendarMessage } from './texts';

type Appointment = inferRouterOutputs<AppRouter>['appointments']['mine'][number];

function useWhen() {
  const { i18n } = useLingui();
  return (a: Pick<Appointment, 'start' | 'end'>) =>
    `${i18n.date(new Date(a.start), { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })} – ${i18n.date(new Date(a.end), { hour: '2-digit', minute: '2-digit' })}`;
}

function StateBadge({ a }: { a: Appointment }) {
  if (a.status === 'cancelled') return <Badge tone="danger"><Trans>Cancelled</Trans></Badge>;
  if (a.past) return <Badge><Trans>Done</Trans></Badge>;
  return <Badge tone="ok"><Trans>Booked</Trans></Badge>;
}

export function SchedulePage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Appointments`} className="schedule-page">{(company) => <ScheduleList domain={company.domain} />}</MemberScreen>;
}

function ScheduleList({ domain }: { domain: string }) {
  const { t } = useLingui();
  const message = useCalendarMessage();
  const utils = trpc.useUtils();
  const [booking, setBooking] = useState(false);
  const [cancelling, setCancelling] = useState<Appointment | null>(null);
  const upcoming = trpc.appointments.mine.useQuery({ domain, when: 'upcoming' }, { retry: false });
  const past = trpc.appointments.mine.useQuery({ domain, when: 'past' }, { retry: false });
  const cancel = trpc.appointments.cancel.useMutation({
    onSuccess: () => {
      toast.ok(t`Appointment cancelled`);
      setCancelling(null);
      void utils.appointments.mine.invalidate();
    },
  });
  useSocketEvent('appointments:changed', () => void utils.appointments.mine.invalidate());
  if (upcoming.error?.data?.code === 'FORBIDDEN') return <RefusalState title={t`Appointments unavailable`} message={message(upcoming.error)} />;
  return (
    <>
      <div className="schedule-toolbar">
        <Button variant="primary" icon={CalendarPlus} onPress={() => setBooking(true)}>
          <Trans>Book for a customer</Trans>
        </Button>
        <ButtonLink variant="secondary" icon={Settings2} to="/i/schedule/edit">
          <Trans>My availability</Trans>
        </ButtonLink>
      </div>
      <Tabs>
        <TabList aria-label={t`Appointments`}>
          <Tab id="upcoming"><Trans>Upcoming</Trans></Tab>
          <Tab id="past"><Trans>Past and cancelled</Trans></Tab>
        </TabList>
        <TabPanel id="upcoming">
          <AppointmentList query={upcoming} onCancel={setCancelling} empty={
            <EmptyState icon={CalendarClock} title={t`No upcoming appointments`} description={t`Customers book your free times on the company's page; set them in My availability.`} />
          } />
        </TabPanel>
        <TabPanel id="past">
          <AppointmentList query={past} empty={<EmptyState icon={CalendarClock} title={t`No past appointments`} />} />
        </TabPanel>
      </Tabs>
      {booking && <MemberBookDialog domain={domain} onClose={() => setBooking(false)} />}
      {cancelling && (
        <ConfirmDialog
          danger
          title={t`Cancel this appointment?`}
          confirmLabel={t`Cancel appointment`}
          pending={cancel.isPending}
          error={message(cancel.error)}
          onConfirm={() => cancel.mutate({ domain, appointmentId: cancelling.id })}
          onCancel={() => setCancelling(null)}
        >
          <p><Trans>The customer gets an e-mail saying so, and the time becomes free again.</Trans></p>
        </ConfirmDialog>
      )}
    </>
  );
}

function AppointmentList({ query, empty, onCancel }: {
  query: { data?: Appointment[]; isPending: boolean; error: { message: string } | null };
  empty: React.ReactNode;
  onCancel?: (a: Appointment) => void;
}) {
  const { t } = useLingui();
  const message = useCalendarMessage();
  const when = useWhen();
  if (query.isPending) return <LoadingSkeleton variant="list" rows={3} />;
  if (query.error) return <FormError message={message(query.error)} />;
  if (!query.data?.length) return <>{empty}</>;
  return (
    <ul className="schedule-list">
      {query.data.map((a) => (
        <li key={a.id} className="schedule-item">
          <Link to={`/i/recent/schedule/${a.id}`} className="schedule-item-link">
            <span className="schedule-item-when">{when(a)}</span>
            <span className="schedule-item-who">{a.customerName || a.customerEmail}</span>
          </Link>
          <StateBadge a={a} />
          {onCancel && a.status === 'booked' && !a.past && (
            <Button variant="quiet" size="small" icon={XCircle} aria-label={t`Cancel the appointment with ${a.customerName}`} onPress={() => onCancel(a)}>
              <Trans>Cancel</Trans>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A person or a queue ('u:' and 'q:' keys, as on the public page), a free time of theirs, the customer. */
function MemberBookDialog({ domain, onClose }: { domain: string; onClose: () => void }) {
  const { t } = useLingui();
  const message = useCalendarMessage();
  const utils = trpc.useUtils();
  const attendants = trpc.appointments.attendants.useQuery({ domain });
  const queues = trpc.appointments.bookableQueues.useQuery({ domain });
  const onSuccess = () => {
    toast.ok(t`Appointment booked; the customer gets an e-mail`);
    void utils.appointments.mine.invalidate();
    onClose();
  };
  const book = trpc.appointments.book.useMutation({ onSuccess });
  const bookQueue = trpc.appointments.bookQueue.useMutation({ onSuccess });
  const choices = [
    ...(attendants.data ?? []).map((a) => ({ key: `u:${a.userId}`, name: a.name })),
    ...(queues.data ?? []).map((q) => ({ key: `q:${q.queueId}`, name: t`${q.name} (queue)` })),
  ];
  return (
    <ModalDialog title={t`Book for a customer`} onCancel={onClose} actions={<Button variant="quiet" onPress={onClose}><Trans>Close</Trans></Button>}>
      {attendants.isPending || queues.isPending ? (
        <LoadingSkeleton variant="form" />
      ) : !choices.length ? (
        <EmptyState title={t`Nobody takes appointments yet`} description={t`Set your free times in My availability.`} />
      ) : (
        <BookingForm
          choices={choices}
          useSlots={(key, range) => {
            const attendantId = key.startsWith('u:') ? key.slice(2) : '';
            const queueId = key.startsWith('q:') ? key.slice(2) : '';
            const a = trpc.appointments.slots.useQuery({ domain, attendantId, ...range }, { enabled: !!attendantId });
            const q = trpc.appointments.queueSlots.useQuery({ domain, queueId, ...range }, { enabled: !!queueId });
            const r = queueId ? q : a;
            return { data: r.data, isPending: r.isPending, error: r.error && { message: message(r.error) ?? '' } };
          }}
          book={({ key, ...v }) => {
            if (key.startsWith('q:')) bookQueue.mutate({ domain, queueId: key.slice(2), ...v });
            else book.mutate({ domain, attendantId: key.slice(2), ...v });
          }}
          pending={book.isPending || bookQueue.isPending}
          error={message(book.error ?? bookQueue.error)}
        />
      )}
    </ModalDialog>
  );
}

export function AppointmentPage() {
  const { t } = useLingui();
  const id = useParams().id!;
  return <MemberScreen title={t`Appointment`} className="schedule-page">{(company) => <AppointmentView domain={company.domain} id={id} />}</MemberScreen>;
}

function AppointmentView({ domain, id }: { domain: string; id: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const message = useCalendarMessage();
  const when = useWhen();
  const utils = trpc.useUtils();
  const [step, setStep] = useState<'cancel' | 'move' | null>(null);
  const one = trpc.appointments.get.useQuery({ domain, appointmentId: id }, { retry: false });
  const done = (text: string) => {
    toast.ok(text);
    setStep(null);
    void utils.appointments.invalidate();
  };
  const cancel = trpc.appointments.cancel.useMutation({ onSuccess: () => done(t`Appointment cancelled`) });
  useSocketEvent('appointments:changed', (p) => p.appointmentId === id && void one.refetch());
  if (one.isPending) return <LoadingSkeleton variant="text" />;
  if (one.error) {
    return one.error.data?.code === 'FORBIDDEN'
      ? <RefusalState title={t`Appointments unavailable`} message={message(one.error)} />
      : <EmptyState title={message(one.error) ?? ''} action={<ButtonLink variant="secondary" to="/i/schedule"><Trans>My appointments</Trans></ButtonLink>} />;
  }
  const a = one.data;
  const open = a.status === 'booked' && !a.past;
  return (
    <div className="schedule-detail">
      <Link to="/i/schedule" className="back-link"><Trans>My appointments</Trans></Link>
      <Facts
        items={[
          [t`Customer`, a.customerName || '—'],
          [t`E-mail`, a.customerEmail || '—'],
          [t`When`, `${when(a)} (${Intl.DateTimeFormat().resolvedOptions().timeZone})`],
          [t`With`, a.queueId ? t`${a.queueName} (queue)` : a.attendantName],
          [t`State`, <StateBadge key="s" a={a} />],
        ]}
      />
      <div className="form-actions">
        {a.conversationId && (
          <Button variant="primary" icon={MessageSquare} onPress={() => void navigate(`/i/recent/chat/${a.conversationId}`)}>
            <Trans>Open the conversation</Trans>
          </Button>
        )}
        <ButtonLink variant="secondary" to={`/i/calendar?at=${new Date(a.start).toISOString()}`}><Trans>See in the calendar</Trans></ButtonLink>
        {open && <Button variant="secondary" icon={CalendarClock} onPress={() => setStep('move')}><Trans>Move</Trans></Button>}
        {open && <Button variant="danger" icon={XCircle} onPress={() => setStep('cancel')}><Trans>Cancel appointment</Trans></Button>}
      </div>
      {step === 'cancel' && (
        <ConfirmDialog danger title={t`Cancel this appointment?`} confirmLabel={t`Cancel appointment`} pending={cancel.isPending} error={message(cancel.error)}
          onConfirm={() => cancel.mutate({ domain, appointmentId: id })} onCancel={() => setStep(null)}>
          <p><Trans>The customer gets an e-mail saying so, and the time becomes free again.</Trans></p>
        </ConfirmDialog>
      )}
      {step === 'move' && <MoveDialog domain={domain} appointment={a} onDone={() => done(t`Appointment moved; the customer gets an e-mail`)} onClose={() => setStep(null)} />}
    </div>
  );
}

function MoveDialog({ domain, appointment, onDone, onClose }: { domain: string; appointment: Appointment; onDone: () => void; onClose: () => void }) {
  const { t } = useLingui();
  const move = trpc.appointments.reschedule.useMutation({ onSuccess: onDone });
  return (
    <MoveToSlotDialog
      title={t`Move the appointment`}
      // A queue's appointment moves among the queue's free times (the public offer), a person's among theirs.
      useSlots={(range) => {
        const mine = trpc.appointments.slots.useQuery({ domain, attendantId: appointment.attendantId ?? '', ...range }, { enabled: !appointment.queueId });
        const queue = trpc.booking.queueSlots.useQuery({ domain, queueId: appointment.queueId ?? '', ...range }, { enabled: !!appointment.queueId });
        return appointment.queueId ? queue : mine;
      }}
      move={move}
      onMove={(start) => move.mutate({ domain, appointmentId: appointment.id, start })}
      onClose={onClose}
    />
  );
}
