/**
 * The customer's e-mails for an appointment: a confirmation (or change, or cancellation) with an
 * .ics invitation attached, so the appointment lands in their own calendar, and a reminder. The
 * .ics keeps one UID per appointment and a rising SEQUENCE, so a calendar app updates or removes
 * the entry it already has instead of adding a second one.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Appointment } from '../../../generated/prisma/client';
import { formatWhen, serverText, type Lang } from '../../i18n';
import type { Mail } from '../../mail';

export type AppointmentMailKind = 'booked' | 'rescheduled' | 'cancelled' | 'reminder';

interface Who {
  companyName: string;
  domain: string;
  attendantName: string;
  publicUrl: string;
  /** The signed page where the customer moves or cancels, without an account (absent once cancelled). */
  cancelUrl?: string | null;
  /** The company's language: the customer has no setting we know. */
  lang: Lang;
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

const SUBJECT = { booked: 'apptBookedSubject', rescheduled: 'apptMovedSubject', cancelled: 'apptCancelledSubject', reminder: 'apptReminderSubject' } as const;

export function appointmentMail(a: Appointment, who: Who, timeZone: string, kind: AppointmentMailKind, sequence: number): Mail {
  const t = (key: Parameters<typeof serverText>[1], p: Record<string, string> = {}) => serverText(who.lang, key, { company: who.companyName, ...p });
  const lines = [
    t('hello', { name: a.customerName }),
    t(kind === 'cancelled' ? 'apptCancelledLine' : kind === 'reminder' ? 'apptSoonLine' : 'apptYours'),
    // The attendant's zone, named: we do not know the customer's.
    t('apptWith', { when: formatWhen(a.start, timeZone, who.lang), attendant: who.attendantName }),
    '',
    `${who.publicUrl}/${who.domain}`,
    ...(kind !== 'cancelled' && who.cancelUrl ? ['', t('apptManage', { url: who.cancelUrl })] : []),
  ];
  return {
    to: a.customerEmail,
    subject: t(SUBJECT[kind]),
    text: lines.join('\n'),
    // The reminder needs no new invitation: the calendar entry is already there.
    ...(kind !== 'reminder' && {
      attachments: [{ filename: 'appointment.ics', content: appointmentIcs(a, who, kind, sequence), contentType: `text/calendar; charset=utf-8; method=${kind === 'cancelled' ? 'CANCEL' : 'REQUEST'}` }],
    }),
  };
}

/** To the attendant, when the customer moved the booking from their link: the new time and where to see it. */
export function attendantMovedMail(a: Appointment, to: { email: string; name: string; lang: Lang }, companyName: string, timeZone: string, link: string): Mail {
  const t = (key: Parameters<typeof serverText>[1], p: Record<string, string> = {}) => serverText(to.lang, key, { company: companyName, ...p });
  return {
    to: to.email,
    subject: `${companyName}: ${t('apptMovedByCustomer')}`,
    text: [t('hello', { name: to.name }), `${t('apptMovedByCustomer')}: ${a.customerName}`, t('when', { when: formatWhen(a.start, timeZone, to.lang) }), '', link].join('\n'),
  };
}
