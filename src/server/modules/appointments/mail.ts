/**
 * The customer's e-mails for an appointment: a confirmation (or change, or cancellation) with an
 * .ics invitation attached, so the appointment lands in their own calendar, and a reminder. The
 * .ics keeps one UID per appointment and a rising SEQUENCE, so a calendar app updates or removes
 * the entry it already has instead of adding a second one.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Appointment } from '../../../generated/prisma/client';
import type { Mail } from '../../mail';

export type AppointmentMailKind = 'booked' | 'rescheduled' | 'cancelled' | 'reminder';

interface Who {
  companyName: string;
  domain: string;
  attendantName: string;
  publicUrl: string;
  /** The signed page where the customer cancels, without an account (absent once cancelled). */
  cancelUrl?: string | null;
}

/** The moment in the customer's words: UTC plus the attendant's zone (we do not know theirs). */
function when(a: Pick<Appointment, 'start'>, timeZone: string) {
  const local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(a.start);
  return `${local} (${timeZone})`;
}

export function appointmentIcs(a: Pick<Appointment, 'id' | 'start' | 'end'>, who: Who, kind: AppointmentMailKind, sequence: number) {
  const cal = ical({
    name: who.companyName,
    prodId: { company: 'Atende', product: 'appointments', language: 'EN' },
    method: kind === 'cancelled' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  cal.createEvent({
    id: `appointment-${a.id}@${who.domain}`,
    sequence,
    start: a.start,
    end: a.end,
    summary: `${who.companyName}: ${who.attendantName}`,
    description: `${who.publicUrl}/${who.domain}`,
    status: kind === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return cal.toString();
}

const SUBJECT: Record<AppointmentMailKind, (who: Who) => string> = {
  booked: (w) => `Appointment confirmed with ${w.companyName}`,
  rescheduled: (w) => `Appointment with ${w.companyName} moved`,
  cancelled: (w) => `Appointment with ${w.companyName} cancelled`,
  reminder: (w) => `Reminder: your appointment with ${w.companyName} starts soon`,
};

export function appointmentMail(a: Appointment, who: Who, timeZone: string, kind: AppointmentMailKind, sequence: number): Mail {
  const lines = [
    `Hello ${a.customerName},`,
    kind === 'cancelled' ? 'Your appointment was cancelled:' : kind === 'reminder' ? 'Your appointment starts soon:' : 'Your appointment:',
    `${when(a, timeZone)} with ${who.attendantName} (${who.companyName}).`,
    '',
    `${who.publicUrl}/${who.domain}`,
    ...(kind !== 'cancelled' && who.cancelUrl ? ['', `To cancel: ${who.cancelUrl}`] : []),
  ];
  return {
    to: a.customerEmail,
    subject: SUBJECT[kind](who),
    text: lines.join('\n'),
    // The reminder needs no new invitation: the calendar entry is already there.
    ...(kind !== 'reminder' && {
      attachments: [{ filename: 'appointment.ics', content: appointmentIcs(a, who, kind, sequence), contentType: `text/calendar; charset=utf-8; method=${kind === 'cancelled' ? 'CANCEL' : 'REQUEST'}` }],
    }),
  };
}
