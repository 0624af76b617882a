import { z } from 'zod';
import { domainSchema } from './company';

import { REPORT_MESSAGES } from '../messages/reports';
export { REPORT_MESSAGES } from '../messages/reports';

function knownTimeZone(tz: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');

/** A dashboard filter: days are whole calendar days in `timeZone`, both ends included. */
export const reportInput = z
  .object({
    domain: domainSchema,
    from: day,
    to: day,
    timeZone: z.string().max(64).refine(knownTimeZone, 'Unknown time zone').default('UTC'),
    queueId: z.uuid().optional(),
    attendantId: z.uuid().optional(),
  })
  .refine((v) => v.from <= v.to && Date.parse(v.to) - Date.parse(v.from) <= 366 * 86_400_000, { message: REPORT_MESSAGES.range, path: ['to'] });
export type ReportInput = z.infer<typeof reportInput>;
