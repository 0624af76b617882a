/**
 * The company's public page offers appointments (issue 15): a link on /{emp} when somebody takes
 * them and the plan has `calendar`, and /{emp}/book to choose the attendant and a free time and
 * give a name and e-mail (the confirmation with an .ics invitation goes there).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarCheck, CalendarPlus } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { trpc } from '../../trpc';
import { ButtonLink, EmptyState, Facts, LoadingSkeleton, PageTitle } from '../../ui';
import { BookingForm } from './SlotPicker';
import { useCalendarMessage } from './texts';

/** On /{emp}: "Book an appointment", only when someone can be booked. */
export function BookingLink({ domain }: { domain: string }) {
  const offer = trpc.booking.attendants.useQuery({ domain }, { staleTime: 60_000 });
  if (!offer.data?.length) return null;
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
  const offer = trpc.booking.attendants.useQuery({ domain }, { retry: false });
  const [done, setDone] = useState<{ start: string | Date; end: string | Date; with: string; email: string } | null>(null);
  const book = trpc.booking.book.useMutation();
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
        attendants={offer.data}
        known={user && !user.anonymous ? { name: user.name ?? '', email: user.email ?? '' } : undefined}
        useSlots={(attendantId, range) => {
          const q = trpc.booking.slots.useQuery({ domain, attendantId, ...range }, { enabled: !!attendantId });
          return { data: q.data, isPending: q.isPending, error: q.error && { message: message(q.error) ?? '' } };
        }}
        book={(v) =>
          book.mutate({ domain, ...v }, {
            onSuccess: (r) => setDone({ start: r.start, end: r.end, with: offer.data.find((a) => a.userId === v.attendantId)?.name ?? '', email: v.email }),
          })
        }
        pending={book.isPending}
        error={message(book.error)}
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
