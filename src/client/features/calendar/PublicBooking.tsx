/**
 * The company's public page offers appointments (issue 15): a link on /{emp} when somebody takes
 * them and the plan has `calendar`, and /{emp}/book to choose the attendant and a free time and
 * give a name and e-mail (the confirmation with an .ics invitation goes there), and
 * /{emp}/book/cancel/{id}?t=… where the customer moves or cancels from the e-mail's signed link.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarCheck, CalendarClock, CalendarPlus, CalendarX } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { trpc } from '../../trpc';
import { Button, ButtonLink, ConfirmDialog, EmptyState, Facts, LoadingSkeleton, PageTitle, RefusalState, toast } from '../../ui';
import { BookingForm, MoveToSlotDialog } from './SlotPicker';
import { useCalendarMessage } from './texts';

/** On /{emp}: "Book an appointment", only when someone can be booked. */
export function BookingLink({ domain }: { domain: string }) {
  const offer = trpc.booking.attendants.useQuery({ domain }, { staleTime: 60_000 });
  const queues = trpc.booking.queues.useQuery({ domain }, { staleTime: 60_000 });
  if (!offer.data?.length && !queues.data?.length) return null;
  return (
    <ButtonLink variant="secondary" icon={CalendarPlus} to={`/${domain}/book`}>
      <Trans>Book an appointment</Trans>
    </ButtonLink>
  );
}

/** /{emp}/book */
export function BookPage() {
  const { t, i18n } = useLingui();
  const domain = useParams().emp!;
  const message = useCalendarMessage();
  const me = trpc.auth.me.useQuery();
  const people = trpc.booking.attendants.useQuery({ domain }, { retry: false });
  const queues = trpc.booking.queues.useQuery({ domain }, { retry: false });
  // One list to choose from: the people ('u:' keys) and the queues ('q:' keys, named as queues).
  const offer = {
    isPending: people.isPending || queues.isPending,
    error: people.error ?? queues.error,
    data: [
      ...(people.data ?? []).map((a) => ({ key: `u:${a.userId}`, name: a.name })),
      ...(queues.data ?? []).map((q) => ({ key: `q:${q.queueId}`, name: t`${q.name} (queue)` })),
    ],
  };
  const [done, setDone] = useState<{ start: string | Date; end: string | Date; with: string; email: string } | null>(null);
  const book = trpc.booking.book.useMutation();
  const bookQueue = trpc.booking.bookQueue.useMutation();
  const booking = book.isPending || bookQueue.isPending;
  const user = me.data?.user;
  let body;
  if (offer.isPending || me.isPending) body = <LoadingSkeleton variant="form" />;
  else if (offer.error) body = <EmptyState title={message(offer.error) ?? ''} />;
  else if (done) {
    body = (
      <div className="schedule-done" role="status">
        <EmptyState icon={CalendarCheck} title={t`Your appointment is booked`} description={t`We sent the confirmation to ${done.email}, with an invitation for your calendar.`} />
        <Facts items={[[t`When`, i18n.date(new Date(done.start), { dateStyle: 'full', timeStyle: 'short' })], [t`With`, done.with]]} />
      </div>
    );
  } else if (!offer.data.length) {
    body = <EmptyState title={t`No appointments can be booked here at the moment`} />;
  } else {
    body = (
      <BookingForm
        choices={offer.data}
        known={user && !user.anonymous ? { name: user.name ?? '', email: user.email ?? '' } : undefined}
        useSlots={(key, range) => {
          const attendantId = key.startsWith('u:') ? key.slice(2) : '';
          const queueId = key.startsWith('q:') ? key.slice(2) : '';
          const a = trpc.booking.slots.useQuery({ domain, attendantId, ...range }, { enabled: !!attendantId });
          const q = trpc.booking.queueSlots.useQuery({ domain, queueId, ...range }, { enabled: !!queueId });
          const r = queueId ? q : a;
          return { data: r.data, isPending: r.isPending, error: r.error && { message: message(r.error) ?? '' } };
        }}
        book={({ key, ...v }) => {
          const onSuccess = (r: { start: string | Date; end: string | Date }) =>
            setDone({ start: r.start, end: r.end, with: offer.data.find((a) => a.key === key)?.name ?? '', email: v.email });
          if (key.startsWith('q:')) bookQueue.mutate({ domain, queueId: key.slice(2), ...v }, { onSuccess });
          else book.mutate({ domain, attendantId: key.slice(2), ...v }, { onSuccess });
        }}
        pending={booking}
        error={message(book.error ?? bookQueue.error)}
      />
    );
  }
  return (
    <section className="page schedule-public">
      <PageTitle title={t`Book an appointment`} />
      <Link to={`/${domain}`} className="back-link"><Trans>Back to the company's page</Trans></Link>
      {body}
    </section>
  );
}

/** /{emp}/book/cancel/{id}?t=…: the e-mail's link; no account, the signature opens this one appointment. */
export function CancelBookingPage() {
  const { t, i18n } = useLingui();
  const domain = useParams().emp!;
  const appointmentId = useParams().id!;
  const token = useSearchParams()[0].get('t') ?? '';
  const message = useCalendarMessage();
  const input = { domain, appointmentId, token };
  const view = trpc.booking.byLink.useQuery(input, { retry: false, enabled: !!token });
  const cancel = trpc.booking.cancelByLink.useMutation({ onSuccess: () => void view.refetch() });
  const [asking, setAsking] = useState<'cancel' | 'move' | null>(null);
  const a = view.data;
  let body;
  if (!token) body = <RefusalState title={t`This link is not valid`} />;
  else if (view.isPending) body = <LoadingSkeleton variant="form" />;
  else if (view.error) body = <RefusalState title={message(view.error) ?? ''} />;
  else if (a) {
    // Shown in the attendant's zone, named, like the e-mail: the link may open anywhere.
    const when = `${i18n.date(new Date(a.start), { dateStyle: 'full', timeStyle: 'short', timeZone: a.timeZone })} (${a.timeZone})`;
    const facts = <Facts items={[[t`When`, when], [t`With`, a.attendantName], [t`Name`, a.customerName]]} />;
    if (a.cancelled) {
      body = (
        <div role="status">
          <EmptyState icon={CalendarX} title={t`This appointment is cancelled`} description={t`The time is free again. You can book another one.`} />
          {facts}
          <ButtonLink variant="secondary" icon={CalendarPlus} to={`/${domain}/book`}><Trans>Book an appointment</Trans></ButtonLink>
        </div>
      );
    } else {
      body = (
        <div className="schedule-done">
          {facts}
          {a.started ? (
            <EmptyState title={t`This appointment has already started`} />
          ) : (
            <div className="form-actions">
              <Button variant="secondary" icon={CalendarClock} onPress={() => setAsking('move')}><Trans>Choose another time</Trans></Button>
              <Button variant="danger" icon={CalendarX} onPress={() => setAsking('cancel')}><Trans>Cancel the appointment</Trans></Button>
            </div>
          )}
          {asking === 'move' && (
            <MoveByLinkDialog input={input} attendantId={a.attendantId} queueId={a.queueId} onDone={() => { setAsking(null); void view.refetch(); }} onClose={() => setAsking(null)} />
          )}
          {asking === 'cancel' && (
            <ConfirmDialog
              title={t`Cancel this appointment?`}
              confirmLabel={t`Cancel the appointment`}
              danger
              pending={cancel.isPending}
              error={message(cancel.error)}
              onConfirm={() => cancel.mutate(input, { onSuccess: () => setAsking(null) })}
              onCancel={() => setAsking(null)}
            >
              <Trans>The attendant will be told, and the time will be free for others.</Trans>
            </ConfirmDialog>
          )}
        </div>
      );
    }
  }
  return (
    <section className="page schedule-public">
      <PageTitle title={t`Your appointment`} />
      <Link to={`/${domain}`} className="back-link"><Trans>Back to the company's page</Trans></Link>
      {body}
    </section>
  );
}

/** The customer picks another free time of the same attendant (shown in their own zone). */
function MoveByLinkDialog({ input, attendantId, queueId, onDone, onClose }: {
  input: { domain: string; appointmentId: string; token: string };
  attendantId: string | null;
  queueId: string | null;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const move = trpc.booking.rescheduleByLink.useMutation({
    onSuccess: () => {
      toast.ok(t`Appointment moved; we sent you an e-mail`);
      onDone();
    },
  });
  return (
    <MoveToSlotDialog
      title={t`Choose another time`}
      useSlots={(range) => {
        const person = trpc.booking.slots.useQuery({ domain: input.domain, attendantId: attendantId ?? '', ...range }, { enabled: !queueId });
        const queue = trpc.booking.queueSlots.useQuery({ domain: input.domain, queueId: queueId ?? '', ...range }, { enabled: !!queueId });
        return queueId ? queue : person;
      }}
      move={move}
      onMove={(start) => move.mutate({ ...input, start })}
      onClose={onClose}
    />
  );
}
