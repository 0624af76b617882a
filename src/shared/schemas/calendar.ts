import { z } from 'zod';
import { isTimeZone, REPEAT_OPTIONS, WEEKDAYS } from '../domain/recurrence';
import { domainSchema } from './company';

export const CALENDAR_MESSAGES = {
  notFound: 'Event not found',
  onlySeriesCreator: 'Only the creator can change or delete the whole series',
  onlyCreator: 'Only the creator can change this event',
  endBeforeStart: 'The end must be after the start',
  noOccurrence: 'This occurrence does not exist',
  notColleague: 'Participants must be active members of this company',
  notContact: 'Invited contacts must be contacts of this company',
  weekdays: 'Choose at least one weekday',
  timeZone: 'Unknown time zone',
  tooLong: 'An event lasts at most 31 days',
} as const;
const M = CALENDAR_MESSAGES;

const id = z.uuid();
const inCompany = { domain: domainSchema };
// Whole seconds: a rule's DTSTART has no milliseconds, and occurrences are keyed by their start.
const instant = z.coerce
  .date()
  .refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() > 1970 && d.getUTCFullYear() < 2200, 'Invalid date')
  .transform((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
const timeZone = z.string().max(64).refine(isTimeZone, M.timeZone);
export const editScope = z.enum(['occurrence', 'series']);

const repeatFields = {
  /** repetir.value; null or absent: no repetition. */
  repeat: z.enum(REPEAT_OPTIONS).nullable().optional(),
  weekdays: z.array(z.enum(WEEKDAYS)).max(7).optional(),
  /** The last day of the series (YYYY-MM-DD in the event's zone). */
  until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().optional(),
};

const DAY = 86_400_000;
const checkTimes = <T extends { start?: Date; end?: Date; repeat?: string | null; weekdays?: string[] }>(v: T, ctx: z.RefinementCtx) => {
  if (v.start && v.end && v.end <= v.start) ctx.addIssue({ code: 'custom', message: M.endBeforeStart, path: ['end'] });
  if (v.start && v.end && v.end.getTime() - v.start.getTime() > 31 * DAY) ctx.addIssue({ code: 'custom', message: M.tooLong, path: ['end'] });
  if (v.repeat === 'personalizarsemana' && !v.weekdays?.length) ctx.addIssue({ code: 'custom', message: M.weekdays, path: ['weekdays'] });
};

export const calendarRangeInput = z
  .object({ ...inCompany, from: instant, to: instant })
  .refine((v) => v.to > v.from && v.to.getTime() - v.from.getTime() <= 62 * DAY, 'Choose a range of at most 62 days');

export const calendarEventInput = z.object({ ...inCompany, eventId: id });

export const calendarCreateInput = z
  .object({
    ...inCompany,
    title: z.string().max(200).default(''),
    description: z.string().max(5000).default(''),
    start: instant,
    end: instant,
    allDay: z.boolean().default(false),
    timeZone,
    isMeeting: z.boolean().default(false),
    remind: z.boolean().default(true),
    participantIds: z.array(id).max(100).default([]),
    /** Contacts of the company (not members): invited by e-mail with an .ics. */
    contactIds: z.array(id).max(100).default([]),
    ...repeatFields,
  })
  .superRefine(checkTimes);

export const calendarUpdateInput = z
  .object({
    ...inCompany,
    eventId: id,
    scope: editScope,
    /** Which occurrence was opened or dragged (its start as the rule gives it). */
    occurrenceStart: instant.optional(),
    title: z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    start: instant.optional(),
    end: instant.optional(),
    allDay: z.boolean().optional(),
    isMeeting: z.boolean().optional(),
    remind: z.boolean().optional(),
    participantIds: z.array(id).max(100).optional(),
    contactIds: z.array(id).max(100).optional(),
    ...repeatFields,
  })
  .superRefine(checkTimes);

export const calendarRemoveInput = z.object({ ...inCompany, eventId: id, scope: editScope, occurrenceStart: instant.optional() });
