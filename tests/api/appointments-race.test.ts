/**
 * Appointments: the database itself refuses a double booking. 50 concurrent inserts of one
 * attendant's slot: exactly one row is booked, the others fail on the unique (attendantId,
 * bookedStart) index; a cancelled booking (bookedStart null) frees the slot again. The same for a
 * queue's own slot, on (queueId, bookedStart); procedure-level: tests/api/appointments-queue.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('double booking', () => {
  it('50 concurrent bookings of one slot: exactly one wins', async () => {
    const companyId = randomUUID(), attendantId = randomUUID();
    const start = new Date('2026-12-07T12:00:00Z'), end = new Date('2026-12-07T12:30:00Z');
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) =>
      server.db.appointment.create({ data: { companyId, attendantId, customerName: `c${i}`, start, end, bookedStart: start } })));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) expect((r.reason as { code?: string }).code).toBe('P2002');
    expect(await server.db.appointment.count({ where: { attendantId, status: 'booked' } })).toBe(1);

    // Cancelling frees the slot for a new booking.
    const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value;
    await server.db.appointment.update({ where: { id: winner.id }, data: { status: 'cancelled', bookedStart: null } });
    await server.db.appointment.create({ data: { companyId, attendantId, start, end, bookedStart: start } });
    expect(await server.db.appointment.count({ where: { attendantId } })).toBe(2);
  });

  it("24 concurrent bookings of one queue's slot (no attendant): exactly one wins on (queueId, bookedStart)", async () => {
    const companyId = randomUUID(), queueId = randomUUID();
    const start = new Date('2026-12-07T12:00:00Z'), end = new Date('2026-12-07T12:30:00Z');
    const results = await Promise.allSettled(Array.from({ length: 24 }, (_, i) =>
      server.db.appointment.create({ data: { companyId, queueId, attendantId: null, customerName: `q${i}`, start, end, bookedStart: start } })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) expect((r.reason as { code?: string }).code).toBe('P2002');
    expect(await server.db.appointment.count({ where: { queueId, status: 'booked' } })).toBe(1);
  });
});
