/**
 * Calendar reminders are ScheduledTask rows claimed with FOR UPDATE SKIP LOCKED: two instances on
 * one database, each with its own controllable clock, deliver a reminder once; a reminder that
 * fell due while no instance ran fires once at the next start, marked late.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { fireDueReminders, REMINDER_TICK_MS } from '../../src/server/modules/calendar/reminders';
import { createTestDatabase } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';
import { record, serviceCompany, until, type ClientSocket } from '../helpers/service';

const sockets: ClientSocket[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const s of servers) await s.close().catch(() => {});
});

const MIN = 60_000;
/** A whole minute at least `ms` from now (events start on whole minutes). */
const inMinutes = (m: number) => new Date(Math.ceil((Date.now() + m * MIN) / MIN) * MIN);

async function instance(databaseUrl: string, clock = offsetClock()) {
  // Two instances share pushes as in production: through the PostgreSQL adapter.
  const server = await startTestServer({ databaseUrl, clock, env: { SOCKET_ADAPTER: 'postgres' } });
  servers.push(server);
  return { server, clock };
}

describe('calendar reminders', () => {
  it('fire once across two instances, 8 minutes before, as an in-app notification', async () => {
    const databaseUrl = await createTestDatabase();
    const a = await instance(databaseUrl);
    const b = await instance(databaseUrl);
    const c = await serviceCompany(a.server, sockets);
    const ana = await c.attendant('Ana');
    const pushed = record(await ana.open(), 'notification:new');
    const start = inMinutes(60);
    const { id } = await c.admin.call('calendar.create', {
      domain: c.domain, title: 'Planning', start, end: new Date(start.getTime() + 30 * MIN), timeZone: 'Europe/Berlin', participantIds: [ana.userId],
    });
    const task = await a.server.db.scheduledTask.findFirstOrThrow({ where: { eventId: id, task: 'eventReminder' } });
    expect(task.startAt.toISOString()).toBe(new Date(start.getTime() - 8 * MIN).toISOString());

    // Both clocks pass the due minute; each instance ticks (timers), and both also try at once.
    a.clock.advance(start.getTime() - 7.5 * MIN - a.clock.now().getTime());
    b.clock.advance(start.getTime() - 7.5 * MIN - b.clock.now().getTime());
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps), fireDueReminders(a.server.server.deps)]);
    await until(async () => (await a.server.db.notification.count({ where: { userId: ana.userId, type: 'calendarReminder' } })) === 1);
    await until(() => pushed.some((n) => n.type === 'calendarReminder' && n.title === 'Planning'));
    a.clock.advance(REMINDER_TICK_MS);
    b.clock.advance(REMINDER_TICK_MS);
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps)]);
    expect(await a.server.db.notification.count({ where: { userId: ana.userId, type: { startsWith: 'calendarReminder' } } })).toBe(1);
    expect(await a.server.db.notification.count({ where: { userId: c.admin.userId, type: { startsWith: 'calendarReminder' } } })).toBe(1);
    const fired = await a.server.db.scheduledTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(fired).toMatchObject({ late: false });
    expect(fired.firedAt).not.toBeNull();
  });

  it("gives the calendar's 3-minute notice (avisar) after the 8-minute reminder, once across two instances", async () => {
    const databaseUrl = await createTestDatabase();
    const a = await instance(databaseUrl);
    const b = await instance(databaseUrl);
    const c = await serviceCompany(a.server, sockets);
    const ana = await c.attendant('Ana');
    const pushed = record(await ana.open(), 'notification:new');
    const start = inMinutes(30);
    const { id } = await c.admin.call('calendar.create', {
      domain: c.domain, title: 'Review', start, end: new Date(start.getTime() + 30 * MIN), timeZone: 'America/Sao_Paulo', isMeeting: true, participantIds: [ana.userId],
    });
    const notice = await a.server.db.scheduledTask.findFirstOrThrow({ where: { eventId: id, task: 'eventNotice' } });
    expect(notice.startAt.toISOString()).toBe(new Date(start.getTime() - 3 * MIN).toISOString());
    const subtitles = async () =>
      (await a.server.db.notification.findMany({ where: { userId: ana.userId, type: 'calendarReminder' }, orderBy: { createdAt: 'asc' } })).map((n) => n.subtitle);

    const to = (ms: number) => {
      a.clock.advance(ms - a.clock.now().getTime());
      b.clock.advance(ms - b.clock.now().getTime());
    };
    to(start.getTime() - 7.5 * MIN);
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps)]);
    await until(async () => (await subtitles()).length === 1);
    // Nothing more until the notice's minute.
    to(start.getTime() - 4 * MIN);
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps)]);
    expect(await subtitles()).toHaveLength(1);
    to(start.getTime() - 2.5 * MIN);
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps), fireDueReminders(a.server.server.deps)]);
    await until(async () => (await subtitles()).length === 2);
    const said = await subtitles();
    expect(said[0]).toMatch(/^Starts in 8 min \(\d\d:\d\d America\/Sao_Paulo\)$/);
    expect(said[1]).toMatch(/^Starts in 3 min \(\d\d:\d\d America\/Sao_Paulo\)$/);
    await until(() => pushed.filter((n) => n.type === 'calendarReminder' && n.title === 'Review').length === 2);
    // A meeting's notice leads to its conversation, where its call is.
    const event = await a.server.db.calendarEvent.findUniqueOrThrow({ where: { id } });
    const last = await a.server.db.notification.findFirstOrThrow({ where: { userId: ana.userId, type: 'calendarReminder', subtitle: said[1] } });
    expect(last.action).toBe(`/i/recent/chat/${event.conversationId}`);
    to(start.getTime() - 1 * MIN);
    await Promise.all([fireDueReminders(a.server.server.deps), fireDueReminders(b.server.server.deps)]);
    expect(await subtitles()).toHaveLength(2);
    expect(await a.server.db.notification.count({ where: { userId: c.admin.userId, type: 'calendarReminder' } })).toBe(2);
  });

  it('fires a reminder that fell due while the server was stopped once at the next start, marked late; skips an ended one', async () => {
    const databaseUrl = await createTestDatabase();
    const first = await instance(databaseUrl);
    const c = await serviceCompany(first.server, sockets);
    const start = inMinutes(20);
    const { id } = await c.admin.call('calendar.create', { domain: c.domain, title: 'Standup', start, end: new Date(start.getTime() + 15 * MIN), timeZone: 'America/Sao_Paulo' });
    const gone = inMinutes(10);
    const { id: endedId } = await c.admin.call('calendar.create', { domain: c.domain, title: 'Short', start: gone, end: new Date(gone.getTime() + 5 * MIN), timeZone: 'UTC' });
    await first.server.close();
    servers.splice(servers.indexOf(first.server), 1);

    // Down from now until 1 minute before Standup starts; the reminder was due 11 minutes before that.
    const clock = offsetClock();
    clock.advance(start.getTime() - 1 * MIN - Date.now());
    const second = await instance(databaseUrl, clock);
    await until(async () => (await second.server.db.notification.count({ where: { userId: c.admin.userId, type: 'calendarReminderLate' } })) === 1);
    // Down through both the 8- and the 3-minute reminder: one late notice, both rows done.
    const tasks = await second.server.db.scheduledTask.findMany({ where: { eventId: id } });
    expect(tasks.map((t) => [t.task, t.late, t.firedAt !== null]).sort()).toEqual([['eventNotice', true, true], ['eventReminder', true, true]]);
    const note = await second.server.db.notification.findFirstOrThrow({ where: { userId: c.admin.userId, type: 'calendarReminderLate' } });
    expect(note).toMatchObject({ title: 'Standup', subtitle: expect.stringMatching(/^Starts in 1 min/) });
    // The event that ended while down is marked done without a notification.
    await until(async () => (await second.server.db.scheduledTask.findFirstOrThrow({ where: { eventId: endedId } })).firedAt !== null);
    expect(await second.server.db.notification.count({ where: { userId: c.admin.userId, title: 'Short' } })).toBe(0);
    clock.advance(REMINDER_TICK_MS);
    await fireDueReminders(second.server.server.deps);
    expect(await second.server.db.notification.count({ where: { userId: c.admin.userId, type: { startsWith: 'calendarReminder' } } })).toBe(1);
  });

  it('keeps the next occurrences of a series scheduled as they fire (the 15 ahead horizon)', async () => {
    const databaseUrl = await createTestDatabase();
    const { server, clock } = await instance(databaseUrl);
    const c = await serviceCompany(server, sockets);
    const start = inMinutes(30);
    const { id } = await c.admin.call('calendar.create', { domain: c.domain, title: 'Daily', start, end: new Date(start.getTime() + 15 * MIN), timeZone: 'UTC', repeat: 'todos' });
    expect(await server.db.scheduledTask.count({ where: { eventId: id, task: 'eventReminder', firedAt: null } })).toBe(15);
    expect(await server.db.scheduledTask.count({ where: { eventId: id, task: 'eventNotice', firedAt: null } })).toBe(15);
    clock.advance(start.getTime() - 7.5 * MIN - clock.now().getTime());
    await fireDueReminders(server.server.deps);
    // The tick the clock fired may still be committing what it claimed.
    await until(async () => (await server.db.scheduledTask.count({ where: { eventId: id, firedAt: { not: null } } })) === 1);
    await until(async () => (await server.db.notification.count({ where: { userId: c.admin.userId, type: 'calendarReminder' } })) === 1);
    // The horizon moves with time: a day later the 16th occurrence has its reminder too.
    clock.advance(24 * 60 * MIN);
    await fireDueReminders(server.server.deps);
    await until(async () => (await server.db.scheduledTask.count({ where: { eventId: id, task: 'eventReminder', firedAt: { not: null } } })) === 2);
    const last = await server.db.scheduledTask.findFirstOrThrow({ where: { eventId: id }, orderBy: { occurrenceStart: 'desc' } });
    expect(last.occurrenceStart.getTime()).toBe(start.getTime() + 15 * 24 * 60 * MIN);
  });
});
