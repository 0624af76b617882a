import { z } from 'zod';
import { isTimeZone } from '../domain/recurrence';
import { domainSchema } from './company';

/** Texts the appointment procedures answer with (mapped for the browser in guard/serverMessages.ts). */
export const APPOINTMENT_MESSAGES = {
  slotTaken: 'This time is no longer available; choose another',
  notFound: 'Appointment not found',
  notBookable: 'This attendant does not take appointments',
  alreadyCancelled: 'This appointment was cancelled',
  past: 'This appointment has already started',
  schedule: 'Check the availability: slots of 5 to 480 minutes, a buffer of at most 240, windows that do not overlap',
  timeZone: 'Unknown time zone',
  range: 'Choose a range of at most 62 days',
  nameRequired: 'Fill in all fields',
  email: 'Invalid email',
  badLink: 'This link is not valid',
  queueNotBookable: 'This queue does not take appointments',
} as const;
const M = APPOINTMENT_MESSAGES;

const DAY = 86_400_000;
const id = z.uuid();
const inCompany = { domain: domainSchema };
// Slots start on whole minutes; milliseconds a browser adds must not miss the unique index.
const instant = z.coerce
  .date()
  .refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() > 1970 && d.getUTCFullYear() < 2200, 'Invalid date')
  .transform((d) => new Date(Math.floor(d.getTime() / 60_000) * 60_000));
const range = { from: instant, to: instant };
const rangeOk = (v: { from: Date; to: Date }) => v.to > v.from && v.to.getTime() - v.from.getTime() <= 62 * DAY;

export const scheduleWindowSchema = z.object({
  weekday: z.number().int().min(0).max(6),
  startMinute: z.number().int().min(0).max(1440),
  endMinute: z.number().int().min(0).max(1440),
});

export const saveScheduleInput = z.object({
  ...inCompany,
  timeZone: z.string().max(64).refine(isTimeZone, M.timeZone),
  slotMinutes: z.number().int(),
  bufferMinutes: z.number().int(),
  windows: z.array(scheduleWindowSchema).max(70),
});

export const slotsInput = z.object({ ...inCompany, attendantId: id, ...range }).refine(rangeOk, M.range);
export const appointmentIdInput = z.object({ ...inCompany, appointmentId: id });
export const myAppointmentsInput = z.object({ ...inCompany, when: z.enum(['upcoming', 'past']).default('upcoming') });

const customerFields = {
  name: z.string().trim().min(1, M.nameRequired).max(120),
  email: z.email(M.email).max(200),
};
/** A member books for a customer (name and e-mail typed in). */
export const bookInput = z.object({ ...inCompany, attendantId: id, start: instant, ...customerFields });
export const rescheduleInput = z.object({ ...inCompany, appointmentId: id, start: instant });

/** A queue's own availability (admins): the same settings, for one queue of the company. */
export const queueScheduleInput = z.object({ ...inCompany, queueId: id, zone: z.string().max(64).optional() });
export const saveQueueScheduleInput = saveScheduleInput.extend({ queueId: id });
export const queueSlotsInput = z.object({ ...inCompany, queueId: id, ...range }).refine(rangeOk, M.range);
export const queueBookInput = z.object({ ...inCompany, queueId: id, start: instant, ...customerFields });

/** The public page: a visitor books for himself. */
export const publicBookInput = bookInput;
export const publicSlotsInput = slotsInput;

/** The cancel link of the customer's e-mail: the appointment and its signature (no account needed). */
export const cancelLinkInput = z.object({ ...inCompany, appointmentId: id, token: z.string().trim().min(1).max(128) });
/** The customer moves their booking from the same signed link. */
export const rescheduleLinkInput = cancelLinkInput.extend({ start: instant });
