/**
 * Reminders (spec 7.7: an event's 8 minutes before, an appointment's 15, and the calendar's
 * 'avisar' notice 3 minutes before an event that is not an appointment): one ScheduledTask row
 * per upcoming occurrence, for the next RECURRENCE_INSTANCES_AHEAD occurrences of a series (the
 * spec's "15 instances ahead" as a horizon, never copies of the event). A tick on the app's clock
 * claims due rows with FOR UPDATE SKIP LOCKED, so several instances never fire one twice; the
 * first tick runs at start-up, so a reminder due while the server was down still fires if its
 * occurrence has not ended, marked late.
 */
import type { CalendarEvent, CalendarException, Prisma } from '../../../generated/prisma/client';
import { RECURRENCE_INSTANCES_AHEAD, REMINDER_BEFORE_MS } from '../../../shared/constants';
import { nextOccurrences, wallTime } from '../../../shared/domain/recurrence';
import type { AppDeps } from '../../deps';
import type { Logger } from '../../logger';
import { openAppointmentConversation, remindCustomer } from '../appointments/service';
import { createNotifications, pushNotifications } from '../notifications/service';
import { serverText, userLanguage } from '../../i18n';

export const REMINDER_TICK_MS = 30_000;
/** Fired this long after its minute: the server was not running then. */
const LATE_AFTER_MS = 2 * REMINDER_TICK_MS;

/** The tasks syncReminders owns ('appointmentOpen' belongs to the appointments module). */
const REMINDER_TASKS = ['eventReminder', 'eventNotice', 'appointmentReminder'];

/** Rewrites the event's pending reminders from its rule (inside the transaction that changed it). */
export async function syncReminders(tx: Prisma.TransactionClient, event: CalendarEvent & { exceptions: CalendarException[] }, now: Date) {
  // Only reminders: an appointment's 'appointmentOpen' task is the appointments module's own.
  await tx.scheduledTask.deleteMany({ where: { eventId: event.id, firedAt: null, task: { in: REMINDER_TASKS } } });
  if (!event.remind) return;
  const upcoming = nextOccurrences(event, now, RECURRENCE_INSTANCES_AHEAD, event.exceptions);
  if (upcoming.length === 0) return;
  // An appointment has its own 15-minute reminder (and its customer's e-mail); the 3-minute notice
  // is the calendar's, for its events.
  const kinds: [string, number][] = event.appointmentId
    ? [['appointmentReminder', REMINDER_BEFORE_MS.appointment]]
    : [['eventReminder', REMINDER_BEFORE_MS.eventTask], ['eventNotice', REMINDER_BEFORE_MS.calendarNotice]];
  await tx.scheduledTask.createMany({
    data: upcoming.flatMap((o) =>
      kinds.map(([task, lead]) => ({
        companyId: event.companyId,
        task,
        // Created inside its lead time: due now, not late.
        startAt: new Date(Math.max(o.start.getTime() - lead, now.getTime())),
        eventId: event.id,
        occurrenceStart: o.occurrenceStart,
        occurrenceEnd: o.end,
        options: { [event.appointmentId ? 'idAgendamento' : 'idCompromisso']: event.id, start: o.start.toISOString() },
      })),
    ),
    skipDuplicates: true,
  });
}

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'clock'> & Partial<Pick<AppDeps, 'mailer' | 'config' | 'logger'>>;

interface Claimed { id: string; task: string; eventId: string; startAt: Date; occurrenceStart: Date; occurrenceEnd: Date; options: { start?: string; idAgendamento?: string } }

/** Fires every due reminder once; returns how many notifications went out. */
export async function fireDueReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const appointmentIds: string[] = [];
  const toOpen: string[] = [];
  const notifications = await deps.db.$transaction(async (tx) => {
    const claimed = await tx.$queryRaw<Claimed[]>`
      SELECT id, task, "eventId", "startAt", "occurrenceStart", "occurrenceEnd", options FROM "ScheduledTask"
      WHERE "firedAt" IS NULL AND "startAt" <= ${now}
      ORDER BY "startAt" LIMIT 200 FOR UPDATE SKIP LOCKED`;
    if (claimed.length === 0) return [];
    const events = await tx.calendarEvent.findMany({ where: { id: { in: [...new Set(claimed.map((c) => c.eventId))] } }, include: { participants: true, exceptions: true } });
    const byId = new Map(events.map((e) => [e.id, e]));
    // Reminders of one occurrence claimed together (the server was down through both the 8- and
    // the 3-minute one): one notice, the latest, is enough.
    const latest = new Map<string, Claimed>();
    for (const c of claimed) {
      if (c.task === 'appointmentOpen') continue;
      const key = `${c.eventId}/${c.occurrenceStart.getTime()}`;
      const seen = latest.get(key);
      if (!seen || seen.startAt < c.startAt) latest.set(key, c);
    }
    const recipients = events.flatMap((e) => [e.creatorId, ...e.participants.map((p) => p.userId)]);
    const langs = new Map((await tx.user.findMany({ where: { id: { in: [...new Set(recipients)] } }, select: { id: true, language: true } })).map((u) => [u.id, userLanguage(u)]));
    const rows = [];
    for (const c of claimed) {
      const e = byId.get(c.eventId);
      const late = now.getTime() - c.startAt.getTime() > LATE_AFTER_MS;
      await tx.scheduledTask.update({ where: { id: c.id }, data: { firedAt: now, late } });
      // An occurrence that has already ended is not worth a reminder any more.
      if (!e || c.occurrenceEnd <= now) continue;
      if (c.task === 'appointmentOpen') {
        if (c.options.idAgendamento) toOpen.push(c.options.idAgendamento);
        continue;
      }
      if (latest.get(`${c.eventId}/${c.occurrenceStart.getTime()}`) !== c) continue;
      if (e.appointmentId) appointmentIds.push(e.appointmentId);
      const start = c.options.start ? new Date(c.options.start) : c.startAt;
      const minutes = Math.ceil((start.getTime() - now.getTime()) / 60_000);
      const hhmm = wallTime(start, e.timeZone).toISOString().slice(11, 16);
      const users = [e.creatorId, ...e.participants.filter((p) => !p.removed).map((p) => p.userId)];
      for (const userId of new Set(users)) {
        rows.push({
          companyId: e.companyId,
          userId,
          type: late ? 'calendarReminderLate' : 'calendarReminder',
          title: e.title,
          // In the recipient's language (their setting), not the server's.
          subtitle: serverText(langs.get(userId) ?? 'en', minutes > 0 ? 'startsIn' : 'startedAt', { minutes, time: hhmm, zone: e.timeZone }),
          action: e.isMeeting && e.conversationId ? `/i/recent/chat/${e.conversationId}` : `/i/calendar?at=${start.toISOString()}`,
        });
      }
    }
    const created = await createNotifications(tx, rows);
    // Move the horizon: each series keeps its next occurrences scheduled.
    for (const e of events) if (e.rrule) await syncReminders(tx, e, now);
    return created;
  });
  pushNotifications(deps.realtime, notifications);
  // The customer of an appointment is not a member: their reminder is an e-mail.
  const { mailer, config, logger } = deps;
  if (mailer && config && logger) for (const id of appointmentIds) await remindCustomer({ ...deps, mailer, config, logger }, id);
  // At the booked time the customer's conversation opens in the queue (claimed once, like a reminder).
  for (const id of toOpen) await openAppointmentConversation(deps, id);
  return notifications.length;
}

/** Ticks on the app's clock (tests move it); the first tick at once, for what fell due while down. */
export function startReminders(deps: Deps & { logger: Logger }): { stop(): Promise<void> } {
  let stopped = false;
  let cancel = () => {};
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = fireDueReminders(deps)
      .then((n) => n && deps.logger.info({ count: n }, 'calendar reminders sent'))
      .catch((err) => deps.logger.error({ err }, 'calendar reminders failed'))
      .finally(() => {
        if (!stopped) cancel = deps.clock.setTimeout(tick, REMINDER_TICK_MS);
      });
  };
  tick();
  return {
    // Waits for a tick under way, so the database is not closed under its transaction.
    stop: async () => {
      stopped = true;
      cancel();
      await running;
    },
  };
}
