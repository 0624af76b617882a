/**
 * The e-mail a contact of the company (not a member) gets when invited to an event or meeting, and
 * when it changes or is deleted: the text in the company's language and an .ics invitation (the
 * same ical-generator path as an appointment's), so the meeting lands in the contact's own
 * calendar. One UID per event and a rising SEQUENCE let their calendar update or remove it.
 * One cancelled occurrence of a series is the same UID with a RECURRENCE-ID (RFC 5546 §3.2.5):
 * the contact's calendar removes that date and keeps the rest of the series.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { CalendarEvent } from '../../../generated/prisma/client';
import { wallTime } from '../../../shared/domain/recurrence';
import { formatDay, formatWhen, serverText, type Lang } from '../../i18n';
import type { Mail } from '../../mail';

export type InviteKind = 'invited' | 'updated' | 'cancelled';
type EventFields = Pick<CalendarEvent, 'id' | 'title' | 'description' | 'start' | 'end' | 'timeZone' | 'allDay' | 'rrule'>;

/** One occurrence of a series: its key (the start the rule gives it) and its time now (moved or not). */
export interface Occurrence {
  occurrenceStart: Date;
  start: Date;
  end: Date;
}

interface InviteContext {
  lang: Lang;
  companyName: string;
  domain: string;
  inviterName: string;
  /** Seconds since the event was created: rises with each change. */
  sequence: number;
}

export function eventIcs(e: EventFields, to: string, c: InviteContext, kind: InviteKind) {
  const cal = ical({
    name: c.companyName,
    prodId: { company: 'Atende', product: 'calendar', language: c.lang.toUpperCase() },
    method: kind === 'cancelled' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  // A single event in UTC (any calendar reads it right); a series in wall time with its zone's
  // TZID, as feed.ts explains, so it keeps its local hour across DST.
  const w = (d: Date) => (e.rrule ? wallTime(d, e.timeZone) : d);
  cal.createEvent({
    id: `${e.id}@${c.domain}`,
    sequence: c.sequence,
    summary: e.title,
    description: e.description || undefined,
    ...(e.rrule && { timezone: e.timeZone, repeating: e.rrule.split('\n')[1]! }),
    allDay: e.allDay,
    start: w(e.start),
    end: w(e.end),
    status: kind === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    attendees: [{ email: to }],
  });
  return cal.toString();
}

/** The cancellation of one occurrence: METHOD:CANCEL, the series' UID, its RECURRENCE-ID in the series' zone, no rule. */
export function occurrenceCancelIcs(e: EventFields, o: Occurrence, to: string, c: InviteContext) {
  const cal = ical({
    name: c.companyName,
    prodId: { company: 'Atende', product: 'calendar', language: c.lang.toUpperCase() },
    method: ICalCalendarMethod.CANCEL,
  });
  // Wall time with the series' TZID, as the series itself was sent, so the RECURRENCE-ID matches.
  const w = (d: Date) => wallTime(d, e.timeZone);
  cal.createEvent({
    id: `${e.id}@${c.domain}`,
    sequence: c.sequence,
    summary: e.title,
    timezone: e.timeZone,
    recurrenceId: w(o.occurrenceStart),
    allDay: e.allDay,
    start: w(o.start),
    end: w(o.end),
    status: ICalEventStatus.CANCELLED,
    attendees: [{ email: to }],
  });
  return cal.toString();
}

/** The e-mail of one cancelled occurrence of a series, in the company's language. */
export function occurrenceCancelMail(e: EventFields, o: Occurrence, to: { name: string; email: string }, c: InviteContext): Mail {
  const t = (key: Parameters<typeof serverText>[1], p: Record<string, string> = {}) => serverText(c.lang, key, { company: c.companyName, title: e.title, ...p });
  return {
    to: to.email,
    subject: t('inviteOccurrenceCancelledSubject', { date: formatDay(o.start, e.timeZone, c.lang) }),
    text: [t('hello', { name: to.name }), t('inviteOccurrenceCancelledLine'), t('when', { when: formatWhen(o.start, e.timeZone, c.lang) })].join('\n'),
    attachments: [{ filename: 'invite.ics', content: occurrenceCancelIcs(e, o, to.email, c), contentType: 'text/calendar; charset=utf-8; method=CANCEL' }],
  };
}

export function inviteMail(
  e: EventFields,
  to: { name: string; email: string },
  c: InviteContext,
  kind: InviteKind,
): Mail {
  const t = (key: Parameters<typeof serverText>[1], p: Record<string, string> = {}) => serverText(c.lang, key, { company: c.companyName, title: e.title, ...p });
  const subject = t(kind === 'invited' ? 'inviteSubject' : kind === 'updated' ? 'inviteUpdatedSubject' : 'inviteCancelledSubject');
  const lines = [
    t('hello', { name: to.name }),
    kind === 'cancelled' ? t('inviteCancelledLine') : t('inviteLine', { inviter: c.inviterName || c.companyName }),
    t('when', { when: formatWhen(e.start, e.timeZone, c.lang) }),
    ...(e.description && kind !== 'cancelled' ? ['', e.description] : []),
  ];
  const method = kind === 'cancelled' ? 'CANCEL' : 'REQUEST';
  return {
    to: to.email,
    subject,
    text: lines.join('\n'),
    attachments: [{ filename: 'invite.ics', content: eventIcs(e, to.email, c, kind), contentType: `text/calendar; charset=utf-8; method=${method}` }],
  };
}
