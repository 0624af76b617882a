/**
 * A member's private iCalendar feed (GET /calendar/feed/<token>.ics) that Google Calendar, Outlook
 * and Apple Calendar subscribe to: the events they see in one company, a series as one VEVENT with
 * its RRULE in its own zone (TZID), cancelled occurrences as EXDATE and changed ones as their own
 * VEVENT with RECURRENCE-ID. The token is the only credential; rotating it revokes the old URL.
 */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import ical from 'ical-generator';
import { parseRule, wallTime } from '../../../shared/domain/recurrence';
import type { AppDeps } from '../../deps';
import type { CalendarContext } from './service';

const feedPath = (token: string) => `/calendar/feed/${token}.ics`;

export async function feedUrl(ctx: CalendarContext & { config: AppDeps['config'] }, rotate: boolean) {
  const where = { companyId_userId: { companyId: ctx.company.id, userId: ctx.user.id } };
  let feed = rotate ? null : await ctx.db.calendarFeed.findUnique({ where });
  if (!feed) {
    const token = randomBytes(24).toString('base64url');
    feed = await ctx.db.calendarFeed.upsert({ where, create: { companyId: ctx.company.id, userId: ctx.user.id, token }, update: { token, createdAt: ctx.clock.now() } });
  }
  return { url: `${ctx.config.publicUrl}${feedPath(feed.token)}` };
}

export async function revokeFeed(ctx: CalendarContext) {
  await ctx.db.calendarFeed.deleteMany({ where: { companyId: ctx.company.id, userId: ctx.user.id } });
  return { ok: true };
}

/** The .ics of a feed token, or null when the token is unknown (revoked). */
export async function feedCalendar(db: AppDeps['db'], token: string): Promise<string | null> {
  const feed = await db.calendarFeed.findUnique({ where: { token } });
  if (!feed) return null;
  const company = await db.company.findUnique({ where: { id: feed.companyId }, select: { name: true, domain: true } });
  const events = await db.calendarEvent.findMany({
    where: { companyId: feed.companyId, OR: [{ creatorId: feed.userId }, { participants: { some: { userId: feed.userId, removed: false } } }] },
    include: { exceptions: true },
    take: 2000,
  });
  const cal = ical({ name: company?.name ?? 'Calendar', prodId: { company: 'Atende', product: 'calendar', language: 'EN' } });
  for (const e of events) {
    // ical-generator writes a plain Date's UTC fields after TZID (it converts only luxon/moment/
    // dayjs values): give it the wall time in the event's zone, in a Date's UTC fields.
    const w = (d: Date) => wallTime(d, e.timeZone);
    const uid = `${e.id}@${company?.domain ?? 'atende'}`;
    const base = { id: uid, summary: e.title, description: e.description || undefined, timezone: e.timeZone, allDay: e.allDay };
    if (!e.rrule) {
      cal.createEvent({ ...base, start: w(e.start), end: w(e.end) });
      continue;
    }
    // Every changed or cancelled occurrence is excluded from the rule; a changed one follows as its own event.
    const exdates = e.exceptions.map((x) => icsLocal(wallTime(x.occurrenceStart, e.timeZone)));
    const rule = e.rrule.split('\n')[1]!;
    cal.createEvent({ ...base, start: w(e.start), end: w(e.end), repeating: exdates.length ? `${rule}\nEXDATE;TZID=${parseRule(e.rrule).timeZone}:${exdates.join(',')}` : rule });
    for (const x of e.exceptions) {
      if (x.cancelled || !x.start || !x.end) continue;
      cal.createEvent({ ...base, id: `${e.id}-${x.occurrenceStart.getTime()}@${company?.domain ?? 'atende'}`, summary: x.title ?? e.title, description: x.description ?? (e.description || undefined), start: w(x.start), end: w(x.end) });
    }
  }
  return cal.toString();
}

const pad = (n: number) => String(n).padStart(2, '0');
const icsLocal = (w: Date) => `${w.getUTCFullYear()}${pad(w.getUTCMonth() + 1)}${pad(w.getUTCDate())}T${pad(w.getUTCHours())}${pad(w.getUTCMinutes())}${pad(w.getUTCSeconds())}`;

export function serveFeed(deps: Pick<AppDeps, 'db'>): RequestHandler {
  return (req, res, next) => {
    const token = /^([\w-]{20,64})\.ics$/.exec(String(req.params.file ?? ''))?.[1];
    if (!token) return void res.status(404).type('text/plain').send('Not found');
    feedCalendar(deps.db, token)
      .then((body) => {
        if (body === null) return void res.status(404).type('text/plain').send('Not found');
        res.set('Cache-Control', 'private, max-age=300').type('text/calendar; charset=utf-8').send(body);
      })
      .catch(next);
  };
}
