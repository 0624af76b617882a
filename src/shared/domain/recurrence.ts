/**
 * Calendar recurrence (spec 7.7): the spec's options become an RFC 5545 rule anchored in the
 * event's IANA zone ("DTSTART;TZID=America/Sao_Paulo:20261201T090000\nRRULE:FREQ=WEEKLY;BYDAY=TU"),
 * expanded on read for the range on screen. rrule iterates wall-clock times (floating dates) and
 * each wall time is turned into an instant in the event's zone here, so a weekly 09:00 meeting
 * stays at 09:00 where it was created across daylight-saving changes, whatever zone views it.
 */
import * as rruleModule from 'rrule';
import type { Options, Weekday } from 'rrule';

// rrule is CommonJS: Node's ESM loader (npm start) hands its exports over as `default`, bundlers
// and Vitest by name. Either way, the same RRule.
const { RRule } = ('RRule' in rruleModule ? rruleModule : Reflect.get(rruleModule, 'default')) as typeof rruleModule;

export const UNTITLED = '( Sem Título )';
export const REPEAT_OPTIONS = ['todos', 'segsex', 'personalizarsemana', 'mensal', 'anual'] as const;
export type RepeatOption = (typeof REPEAT_OPTIONS)[number];
/** repeat{seg,ter,qua,qui,sex,sab,dom} */
export const WEEKDAYS = ['seg', 'ter', 'qua', 'qui', 'sex', 'sab', 'dom'] as const;
export type WeekdayKey = (typeof WEEKDAYS)[number];

/** Spec 5: an empty title is stored as '( Sem Título )'. */
export const eventTitle = (title: string | null | undefined) => title?.trim() || UNTITLED;

// ---- zones ------------------------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time of `instant` in `timeZone`, as a Date whose UTC fields carry it. */
export function wallTime(instant: Date, timeZone: string): Date {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  return new Date(Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!, instant.getUTCMilliseconds()));
}

const offsetAt = (instantMs: number, timeZone: string) => wallTime(new Date(instantMs), timeZone).getTime() - instantMs;

/**
 * The instant a wall-clock time (UTC fields of `wall`) names in `timeZone`. A time skipped by a
 * spring-forward gap moves forward by the gap (02:30 → 03:30), as calendar apps do; an
 * ambiguous autumn time takes its first (daylight) reading.
 */
export function zonedInstant(wall: Date, timeZone: string): Date {
  const w = wall.getTime();
  const before = offsetAt(w - 86_400_000, timeZone);
  const after = offsetAt(w + 86_400_000, timeZone);
  for (const offset of before === after ? [before] : [before, after]) {
    const t = w - offset;
    if (offsetAt(t, timeZone) === offset) return new Date(t);
  }
  return new Date(w - before);
}

// ---- rules ------------------------------------------------------------------------------------

const BYDAY: Record<WeekdayKey, Weekday> = { seg: RRule.MO, ter: RRule.TU, qua: RRule.WE, qui: RRule.TH, sex: RRule.FR, sab: RRule.SA, dom: RRule.SU };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const icsLocal = (wall: Date) =>
  `${wall.getUTCFullYear()}${pad(wall.getUTCMonth() + 1)}${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}${pad(wall.getUTCMinutes())}${pad(wall.getUTCSeconds())}`;

export interface RepeatChoice {
  repeat: RepeatOption;
  /** For personalizarsemana: the chosen weekdays (at least one). */
  weekdays?: WeekdayKey[];
  /** Last day (inclusive, in the event's zone), if the series ends. */
  until?: Date;
}

/** The RRULE line (without DTSTART) for one of the spec's options. */
export function rruleLine(choice: RepeatChoice): string {
  const opts: Partial<Options> = {};
  switch (choice.repeat) {
    case 'todos': opts.freq = RRule.DAILY; break;
    case 'segsex': opts.freq = RRule.WEEKLY; opts.byweekday = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR]; break;
    case 'personalizarsemana':
      if (!choice.weekdays?.length) throw new Error('personalizarsemana needs at least one weekday');
      opts.freq = RRule.WEEKLY;
      opts.byweekday = WEEKDAYS.filter((d) => choice.weekdays!.includes(d)).map((d) => BYDAY[d]);
      break;
    case 'mensal': opts.freq = RRule.MONTHLY; break;
    case 'anual': opts.freq = RRule.YEARLY; break;
  }
  if (choice.until) opts.until = choice.until;
  return `RRULE:${RRule.optionsToString(opts).replace(/^RRULE:/, '')}`;
}

/** The stored rule: the first start as wall time in its zone, then the RRULE. */
export function buildRule(start: Date, timeZone: string, choice: RepeatChoice): string {
  return `DTSTART;TZID=${timeZone}:${icsLocal(wallTime(start, timeZone))}\n${rruleLine(choice)}`;
}

interface ParsedRule { timeZone: string; wallStart: Date; options: Partial<Options> }

export function parseRule(rule: string): ParsedRule {
  const m = /^DTSTART;TZID=([^:]+):(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\r?\nRRULE:(.+)$/.exec(rule.trim());
  if (!m) throw new Error('not a stored recurrence rule');
  const [, timeZone, y, mo, d, h, mi, s, line] = m;
  return { timeZone: timeZone!, wallStart: new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!)), options: RRule.parseString(line!) };
}

/** Moves a stored rule's first start (e.g. the series was moved to another time). */
export function withStart(rule: string, start: Date): string {
  const { timeZone } = parseRule(rule);
  return rule.replace(/^DTSTART;TZID=[^:]+:\S+/, `DTSTART;TZID=${timeZone}:${icsLocal(wallTime(start, timeZone))}`);
}

// ---- expansion --------------------------------------------------------------------------------

export interface SeriesLike {
  start: Date;
  end: Date;
  timeZone: string;
  rrule: string | null;
}

export interface ExceptionLike {
  occurrenceStart: Date;
  cancelled: boolean;
  start?: Date | null;
  end?: Date | null;
  title?: string | null;
  description?: string | null;
}

export interface Occurrence {
  /** The start the rule gives this occurrence: its key for exceptions and reminders. */
  occurrenceStart: Date;
  start: Date;
  end: Date;
  /** Changed alone ('Esta Ocorrência'). */
  exception: boolean;
  title?: string;
  description?: string;
}

const DAY = 86_400_000;

/**
 * Occurrences overlapping [from, to), exceptions applied (cancelled ones dropped, moved ones at
 * their new time), in start order. Each keeps the first occurrence's wall-clock length.
 */
export function expand(series: SeriesLike, from: Date, to: Date, exceptions: ExceptionLike[] = [], limit = 1000): Occurrence[] {
  const byKey = new Map(exceptions.map((e) => [e.occurrenceStart.getTime(), e]));
  const starts: Date[] = [];
  const tz = series.timeZone;
  const wallLength = wallTime(series.end, tz).getTime() - wallTime(series.start, tz).getTime();
  if (!series.rrule) {
    starts.push(series.start);
  } else {
    const { wallStart, options, timeZone } = parseRule(series.rrule);
    const rule = new RRule({ ...options, dtstart: wallStart, tzid: null });
    // Wall times are within a day of instants; the slack covers the longest event in the window too.
    const fromWall = new Date(from.getTime() - DAY - Math.max(wallLength, 0));
    const toWall = new Date(to.getTime() + DAY);
    rule.between(fromWall, toWall, true, (_d, i) => i < limit).forEach((w) => starts.push(zonedInstant(w, timeZone)));
  }
  const out: Occurrence[] = [];
  for (const s of starts) {
    const plainEnd = series.rrule ? zonedInstant(new Date(wallTime(s, tz).getTime() + wallLength), tz) : series.end;
    const ex = byKey.get(s.getTime());
    if (ex?.cancelled) continue;
    const occ: Occurrence = {
      occurrenceStart: s,
      start: ex?.start ?? s,
      end: ex?.end ?? plainEnd,
      exception: !!ex,
      ...(ex?.title != null && { title: ex.title }),
      ...(ex?.description != null && { description: ex.description }),
    };
    if (occ.start < to && occ.end > from) out.push(occ);
  }
  // A moved occurrence may land in the range while its rule time is outside it.
  for (const ex of exceptions) {
    if (ex.cancelled || !ex.start || !ex.end || starts.some((s) => s.getTime() === ex.occurrenceStart.getTime())) continue;
    if (ex.start < to && ex.end > from && isOccurrence(series, ex.occurrenceStart)) {
      out.push({ occurrenceStart: ex.occurrenceStart, start: ex.start, end: ex.end, exception: true, ...(ex.title != null && { title: ex.title }), ...(ex.description != null && { description: ex.description }) });
    }
  }
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Whether the series has an occurrence starting exactly at `instant` (before exceptions). */
export function isOccurrence(series: SeriesLike, instant: Date): boolean {
  if (!series.rrule) return instant.getTime() === series.start.getTime();
  const { wallStart, options, timeZone } = parseRule(series.rrule);
  const rule = new RRule({ ...options, dtstart: wallStart, tzid: null });
  const wall = wallTime(instant, timeZone);
  return rule.between(new Date(wall.getTime() - 1), new Date(wall.getTime() + 1), true).some((w) => zonedInstant(w, timeZone).getTime() === instant.getTime());
}

/** The next `count` occurrences starting at or after `from` (the reminder horizon, spec's 15 ahead). */
export function nextOccurrences(series: SeriesLike, from: Date, count: number, exceptions: ExceptionLike[] = []): Occurrence[] {
  if (!series.rrule) return expand(series, from, new Date(8.64e15), exceptions).filter((o) => o.start >= from).slice(0, count);
  const found: Occurrence[] = [];
  let windowStart = from;
  for (let span = 31 * DAY; found.length < count && span <= 4 * 366 * DAY * 8; span *= 2) {
    const windowEnd = new Date(windowStart.getTime() + span);
    for (const o of expand(series, windowStart, windowEnd, exceptions)) {
      if (o.start >= from && !found.some((f) => f.occurrenceStart.getTime() === o.occurrenceStart.getTime())) found.push(o);
    }
    windowStart = windowEnd;
  }
  return found.sort((a, b) => a.start.getTime() - b.start.getTime()).slice(0, count);
}

// ---- who may do what (spec 6: only the creator edits or deletes a whole series) ----------------

export type EditScope = 'occurrence' | 'series';

export type DeleteEffect = 'deleteEvent' | 'cancelOccurrence' | 'removeSelf';

/** What a delete does: the creator deletes the series or one occurrence; anybody else leaves. */
export function deleteEffect(isCreator: boolean, recurring: boolean, scope: EditScope): DeleteEffect {
  if (!isCreator) return 'removeSelf';
  return recurring && scope === 'occurrence' ? 'cancelOccurrence' : 'deleteEvent';
}

/** Whether this person may make this edit: the creator always; a participant one occurrence only. */
export function mayEdit(isCreator: boolean, recurring: boolean, scope: EditScope): boolean {
  if (isCreator) return true;
  return recurring && scope === 'occurrence';
}
