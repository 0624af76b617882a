/**
 * Appointment slots (issue 15): an attendant's weekly windows, read as wall-clock times in the
 * attendant's IANA zone, cut into slots of `slotMinutes` with `bufferMinutes` kept after each.
 * A slot is free when it starts after `now` and neither it nor its buffer overlaps a booked
 * appointment. Pure: the server and the slot picker compute the same list.
 */
import { wallTime, zonedInstant } from './recurrence';

export interface AvailabilityWindowLike {
  /** 0 = Sunday … 6 = Saturday, in the attendant's zone. */
  weekday: number;
  /** Minutes from local midnight; end exclusive, at most 1440. */
  startMinute: number;
  endMinute: number;
}

export interface ScheduleLike {
  timeZone: string;
  slotMinutes: number;
  bufferMinutes: number;
  windows: AvailabilityWindowLike[];
}

export interface Slot {
  start: Date;
  end: Date;
}

export const MAX_RANGE_DAYS = 62;
const DAY = 86_400_000;
const MINUTE = 60_000;

/** Problems with a schedule a member saves, as message keys; empty when it is valid. */
export function scheduleProblems(s: ScheduleLike): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(s.slotMinutes) || s.slotMinutes < 5 || s.slotMinutes > 480) problems.push('slotMinutes');
  if (!Number.isInteger(s.bufferMinutes) || s.bufferMinutes < 0 || s.bufferMinutes > 240) problems.push('bufferMinutes');
  const byDay = new Map<number, AvailabilityWindowLike[]>();
  for (const w of s.windows) {
    if (!Number.isInteger(w.weekday) || w.weekday < 0 || w.weekday > 6
      || !Number.isInteger(w.startMinute) || !Number.isInteger(w.endMinute)
      || w.startMinute < 0 || w.endMinute > 1440 || w.startMinute >= w.endMinute) {
      problems.push('window');
      continue;
    }
    byDay.set(w.weekday, [...(byDay.get(w.weekday) ?? []), w]);
  }
  for (const list of byDay.values()) {
    const sorted = [...list].sort((a, b) => a.startMinute - b.startMinute);
    if (sorted.some((w, i) => i > 0 && w.startMinute < sorted[i - 1]!.endMinute)) problems.push('overlap');
  }
  return [...new Set(problems)];
}

/**
 * Free slots starting in [from, to). Each local day in range is walked in the attendant's zone,
 * and each slot's wall-clock start and end become instants there, so a 09:00 window stays at
 * 09:00 local across a DST change; a slot whose wall time falls into a spring-forward gap is
 * dropped rather than shifted.
 */
export function freeSlots(schedule: ScheduleLike, booked: Slot[], from: Date, to: Date, now: Date): Slot[] {
  const { timeZone, slotMinutes, bufferMinutes } = schedule;
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY) to = new Date(from.getTime() + MAX_RANGE_DAYS * DAY);
  const step = slotMinutes + bufferMinutes;
  const out: Slot[] = [];
  const firstDay = wallTime(from, timeZone);
  let day = Date.UTC(firstDay.getUTCFullYear(), firstDay.getUTCMonth(), firstDay.getUTCDate()) - DAY;
  const lastWall = wallTime(to, timeZone).getTime();
  for (; day <= lastWall; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    const windows = schedule.windows.filter((w) => w.weekday === weekday).sort((a, b) => a.startMinute - b.startMinute);
    for (const w of windows) {
      for (let m = w.startMinute; m + slotMinutes <= w.endMinute; m += step) {
        const wallStart = new Date(day + m * MINUTE);
        const start = zonedInstant(wallStart, timeZone);
        if (wallTime(start, timeZone).getTime() !== wallStart.getTime()) continue; // in a DST gap
        const end = zonedInstant(new Date(day + (m + slotMinutes) * MINUTE), timeZone);
        if (start < from || start >= to || start <= now) continue;
        const guardEnd = end.getTime() + bufferMinutes * MINUTE;
        const clash = booked.some((b) =>
          b.start.getTime() < guardEnd && b.end.getTime() + bufferMinutes * MINUTE > start.getTime());
        if (!clash) out.push({ start, end });
      }
    }
  }
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Whether `start` is one of the attendant's free slots now (the server's check on booking). */
export function isFreeSlot(schedule: ScheduleLike, booked: Slot[], start: Date, now: Date): Slot | null {
  const slots = freeSlots(schedule, booked, new Date(start.getTime() - DAY), new Date(start.getTime() + DAY), now);
  return slots.find((s) => s.start.getTime() === start.getTime()) ?? null;
}
