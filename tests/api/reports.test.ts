/**
 * The dashboard's figures against a company seeded with known rows; every expected number is
 * computed here from the seed itself (counts, medians and p90 by linear interpolation), not read
 * back from the server's SQL. Also: the viewReports permission, listed profiles and tenancy.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_DENIED } from '../../src/server/modules/profiles/permissions';
import { REPORT_SCOPE_DENIED } from '../../src/server/modules/reports/service';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

/** Linear-interpolation percentile, as PostgreSQL's percentile_cont. */
function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  const at = (v.length - 1) * p;
  const lo = Math.floor(at);
  return Math.round(v[lo]! + (v[Math.min(lo + 1, v.length - 1)]! - v[lo]!) * (at - lo));
}

let protocolSeq = 0;
const protocol = () => `${Date.now()}`.slice(-10) + String(++protocolSeq).padStart(5, '0');

interface Seed {
  opened: string; // ISO
  firstReplyAfter?: number; // seconds
  concludedAfter?: number; // seconds
  rating?: number;
  attendant: 'ana' | 'bia';
  customer: number;
  queue: 'main' | 'other';
  slaDueAfter?: number;
  files?: number;
}

const SEED: Seed[] = [
  { opened: '2026-03-01T10:00:00Z', firstReplyAfter: 60, concludedAfter: 3600, rating: 5, attendant: 'ana', customer: 1, queue: 'main', slaDueAfter: 7200, files: 2 },
  { opened: '2026-03-01T12:00:00Z', firstReplyAfter: 300, concludedAfter: 7200, rating: 3, attendant: 'bia', customer: 2, queue: 'main', slaDueAfter: 3600 },
  { opened: '2026-03-02T09:00:00Z', firstReplyAfter: 30, concludedAfter: 600, rating: 5, attendant: 'ana', customer: 1, queue: 'other', files: 1 },
  { opened: '2026-03-03T15:00:00Z', firstReplyAfter: 900, attendant: 'bia', customer: 3, queue: 'main' },
  { opened: '2026-03-03T16:00:00Z', attendant: 'ana', customer: 4, queue: 'main' },
  // Outside the period (the day before): counted nowhere.
  { opened: '2026-02-28T10:00:00Z', firstReplyAfter: 10, concludedAfter: 20, rating: 1, attendant: 'ana', customer: 5, queue: 'main', files: 3 },
];
const FROM = '2026-03-01';
const TO = '2026-03-03';

async function seeded() {
  const c = await serviceCompany(server, sockets);
  const ana = await c.attendant('Ana Atendente');
  const bia = await c.attendant('Bia Atendente');
  const other = await server.db.queue.create({ data: { companyId: c.company.id, key: `q${protocolSeq}`, name: 'Outra' } });
  const customers = await Promise.all([1, 2, 3, 4, 5].map((i) => server.db.user.create({ data: { name: `Cliente ${i}` } })));
  const who = { ana: ana.userId, bia: bia.userId };
  for (const s of SEED) {
    const opened = new Date(s.opened);
    const at = (sec: number) => new Date(opened.getTime() + sec * 1000);
    const conv = await server.db.conversation.create({
      data: {
        companyId: c.company.id,
        type: 0,
        protocol: protocol(),
        creatorId: customers[s.customer - 1]!.id,
        createdAt: opened,
        queueId: s.queue === 'main' ? c.queue.id : other.id,
        takenById: who[s.attendant],
        takenAt: opened,
        state: s.concludedAfter ? 9999 : 1,
        concludedAt: s.concludedAfter ? at(s.concludedAfter) : null,
        rating: s.rating ?? null,
        slaDueAt: s.slaDueAfter ? at(s.slaDueAfter) : null,
        bytesMessages: 1000,
        bytesAttachments: 5000 * (s.files ?? 0),
      },
    });
    let seq = 0;
    const msg = (authorId: string | null, sec: number, extra: Record<string, unknown> = {}) =>
      server.db.message.create({ data: { conversationId: conv.id, seq: ++seq, authorId, text: 'x', createdAt: at(sec), ...extra } });
    await msg(conv.creatorId, 0);
    // An info line and an internal comment before the reply: neither is a first response.
    await msg(null, 1, { type: 'info' });
    await msg(who[s.attendant], 2, { isComment: true });
    if (s.firstReplyAfter) await msg(who[s.attendant], s.firstReplyAfter);
    for (let f = 0; f < (s.files ?? 0); f++) await msg(conv.creatorId, 5 + f, { type: 'arquivo', fileKey: `k/${randomUUID()}`, fileName: 'a.pdf', fileSize: 5000 });
    if (s === SEED[0]) {
      const call = await server.db.call.create({
        data: { companyId: c.company.id, conversationId: conv.id, type: 2, linkKey: randomUUID(), hostInstance: 'test', createdAt: at(100), voiceSeconds: 90, videoSeconds: 300, recordingSeconds: 120 },
      });
      for (const [tag, amount, i] of [['video', '2.5000', 1], ['voice', '0.7500', 2], ['recording', '1.2500', 3], ['video', '0.5000', 4]] as const) {
        await server.db.chargeRecord.create({
          data: { companyId: c.company.id, callId: call.id, tag, subject: `participant:${call.id}`, tickIndex: i, name: 'x', seconds: 30, amount, summary: {}, createdAt: at(100 + i) },
        });
      }
    }
  }
  return { ...c, ana, bia, other };
}

function expected(filter: (s: Seed) => boolean) {
  const inPeriod = SEED.filter((s) => s.opened.slice(0, 10) >= FROM && s.opened.slice(0, 10) <= TO && filter(s));
  const rated = inPeriod.filter((s) => s.rating);
  return {
    services: inPeriod.length,
    customersServed: new Set(inPeriod.map((s) => s.customer)).size,
    attachments: inPeriod.reduce((n, s) => n + (s.files ?? 0), 0),
    firstResponseSeconds: { median: percentile(inPeriod.flatMap((s) => (s.firstReplyAfter ? [s.firstReplyAfter] : [])), 0.5), p90: percentile(inPeriod.flatMap((s) => (s.firstReplyAfter ? [s.firstReplyAfter] : [])), 0.9) },
    resolutionSeconds: { median: percentile(inPeriod.flatMap((s) => (s.concludedAfter ? [s.concludedAfter] : [])), 0.5), p90: percentile(inPeriod.flatMap((s) => (s.concludedAfter ? [s.concludedAfter] : [])), 0.9) },
    sla: {
      met: inPeriod.filter((s) => s.slaDueAfter && s.concludedAfter && s.concludedAfter <= s.slaDueAfter).length,
      missed: inPeriod.filter((s) => s.slaDueAfter && (!s.concludedAfter || s.concludedAfter > s.slaDueAfter)).length,
    },
    ratings: {
      count: rated.length,
      average: rated.length ? Math.round((rated.reduce((t, s) => t + s.rating!, 0) / rated.length) * 100) / 100 : null,
      distribution: [1, 2, 3, 4, 5].map((stars) => ({ stars, count: rated.filter((s) => s.rating === stars).length })),
    },
    perDay: ['2026-03-01', '2026-03-02', '2026-03-03'].map((day) => ({
      day,
      opened: inPeriod.filter((s) => s.opened.startsWith(day)).length,
      concluded: SEED.filter((s) => filter(s) && s.concludedAfter && new Date(Date.parse(s.opened) + s.concludedAfter * 1000).toISOString().startsWith(day)).length,
    })),
  };
}

describe('reports.dashboard', () => {
  it('computes the figures of the seeded company', async () => {
    const c = await seeded();
    const all = await c.admin.call('reports.dashboard', { domain: c.domain, from: FROM, to: TO }, 'query');
    expect(all).toMatchObject(expected(() => true));
    const bytesMessages = 1000 * SEED.length;
    const bytesAttachments = 5000 * SEED.reduce((n, s) => n + (s.files ?? 0), 0);
    expect(all.storage).toEqual({
      bytesMessages,
      bytesAttachments,
      planBytes: Number(c.company.storageBytes),
      totalBytes: bytesMessages + bytesAttachments,
      freeBytes: Number(c.company.storageBytes) - bytesMessages - bytesAttachments,
    });
    // The same figures on their own, for the company account screen; refused without viewReports.
    expect(await c.admin.call('reports.storage', { domain: c.domain }, 'query')).toEqual(all.storage);
    expect((await c.ana.attempt('reports.storage', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    expect(all.callMinutes).toEqual({ voice: 1.5, video: 5, share: 0, recording: 2, remote: 0 });
    expect(all.creditsByKind).toEqual([
      { kind: 'recording', amount: '1.2500' },
      { kind: 'video', amount: '3.0000' },
      { kind: 'voice', amount: '0.7500' },
    ]);
  });

  it('filters by queue and by attendant', async () => {
    const c = await seeded();
    const byQueue = await c.admin.call('reports.dashboard', { domain: c.domain, from: FROM, to: TO, queueId: c.other.id }, 'query');
    expect(byQueue).toMatchObject(expected((s) => s.queue === 'other'));
    expect(byQueue.callMinutes.video).toBe(0);
    const byBia = await c.admin.call('reports.dashboard', { domain: c.domain, from: FROM, to: TO, attendantId: c.bia.userId }, 'query');
    expect(byBia).toMatchObject(expected((s) => s.attendant === 'bia'));
  });

  it('counts days in the viewer’s time zone', async () => {
    const c = await seeded();
    const tokyo = await c.admin.call('reports.dashboard', { domain: c.domain, from: '2026-03-04', to: '2026-03-04', timeZone: 'Asia/Tokyo' }, 'query');
    // 15:00Z and 16:00Z on the 3rd are 00:00 and 01:00 on the 4th in Tokyo.
    expect(tokyo.services).toBe(2);
    expect((await c.admin.attempt('reports.dashboard', { domain: c.domain, from: FROM, to: TO, timeZone: 'Mars/Olympus' }, 'query')).error).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await c.admin.attempt('reports.dashboard', { domain: c.domain, from: TO, to: FROM }, 'query')).error).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('needs viewReports; a profile sees only itself and the profiles it lists', async () => {
    const c = await seeded();
    expect((await c.ana.attempt('reports.dashboard', { domain: c.domain, from: FROM, to: TO }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: PERMISSION_DENIED });
    await server.db.profile.create({ data: { companyId: c.company.id, code: 'P01', name: 'Supervisão', permissions: { viewReports: true }, reportProfiles: [] } });
    await server.db.member.updateMany({ where: { companyId: c.company.id, userId: c.ana.userId }, data: { profile: 'P01' } });
    const own = await c.ana.call('reports.dashboard', { domain: c.domain, from: FROM, to: TO }, 'query');
    expect(own).toMatchObject(expected((s) => s.attendant === 'ana'));
    expect((await c.ana.attempt('reports.dashboard', { domain: c.domain, from: FROM, to: TO, attendantId: c.bia.userId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: REPORT_SCOPE_DENIED });
    expect((await c.ana.call('reports.filters', { domain: c.domain }, 'query')).attendants.map((a: { name: string }) => a.name)).toEqual(['Ana Atendente']);

    await server.db.profile.update({ where: { companyId_code: { companyId: c.company.id, code: 'P01' } }, data: { reportProfiles: ['M01'] } });
    expect(await c.ana.call('reports.dashboard', { domain: c.domain, from: FROM, to: TO }, 'query')).toMatchObject(expected(() => true));
  });

  it('another company’s admin sees nothing of it', async () => {
    const c = await seeded();
    const stranger = await serviceCompany(server, sockets);
    expect((await stranger.admin.attempt('reports.dashboard', { domain: c.domain, from: FROM, to: TO }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    const own = await stranger.admin.call('reports.dashboard', { domain: stranger.domain, from: FROM, to: TO }, 'query');
    expect(own).toMatchObject({ services: 0, attachments: 0, creditsByKind: [] });
  });
});
