/**
 * A live room past one worker and one instance: two app instances on loopback (one database, the
 * PostgreSQL Socket.IO adapter between them, two mediasoup workers each). The presenter publishes
 * on A; viewers reach A and B. On each instance the viewers are spread over both workers (the
 * tracks piped between routers with pipeToRouter), and B relays A's tracks through a PipeTransport
 * pair. Media is synthetic Opus RTP into a PlainTransport (no browser); what arrives is counted by
 * PlainTransport viewers on every router that carries viewers.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import type { Room } from '../../src/server/media/room';
import type { CallState } from '../../src/shared/call-events';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { CallPeer } from '../helpers/call-peer';
import { createTestDatabase } from '../helpers/db';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { OPUS_RTP, countingViewer, sendOpus } from '../helpers/rtp';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

describe.skipIf(!bin)(`a live room over two workers and two instances${why}`, () => {
  let a: TestServer;
  let b: TestServer;
  const cleanup: (() => void)[] = [];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    const key = `test-${randomBytes(4).toString('hex')}`;
    const env = (instance: string) => ({
      SOCKET_ADAPTER: 'postgres',
      SOCKET_ADAPTER_KEY: key,
      INSTANCE_ID: instance,
      MEDIASOUP_NUM_WORKERS: '2',
      MEDIASOUP_WORKER_BIN: bin!,
      RTC_LISTEN_IP: '127.0.0.1',
      RTC_PIPE_IP: '127.0.0.1',
    });
    a = await startTestServer({ databaseUrl, env: env('a') });
    b = await startTestServer({ databaseUrl, env: env('b') });
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) c();
    await b?.close();
    await a?.close();
  });

  async function api(server: TestServer, cookie: string, path: string, input: Record<string, unknown>) {
    const res = await callProcedure(server.url, path, input, { cookie, type: 'mutation' });
    if (res.error) throw new Error(res.error.message);
    return res.data as any;
  }

  async function viewerOn(server: TestServer, domain: string, conversationId: string, name: string) {
    const user = await server.db.user.create({ data: { name, anonymous: true } });
    const cookie = await signIn(server.db, user.id);
    const { callId } = await api(server, cookie, 'calls.enterLive', { domain, conversationId });
    const peer = await CallPeer.open(server.url, cookie, user.id, callId);
    cleanup.push(() => peer.close());
    const joined = await peer.join(callId);
    return { peer, joined };
  }

  const roomOf = (server: TestServer, callId: string): Room => server.server.deps.calls.rooms!.get(callId)!;
  const poll = { timeout: budget(15_000), interval: 100 };

  it('spreads viewers over both workers of each instance and relays the presenter from A to viewers on B', async () => {
    const owner = await createUser(a.db, { name: 'Ana' });
    const company = await createCompany(a.db, owner.id);
    const extra = await createUser(a.db, { name: 'Bruno' });
    await addMember(a.db, company.id, extra.id);
    const ownerCookie = await signIn(a.db, owner.id);
    const { conversationId } = await api(a, ownerCookie, 'calls.createLive', { domain: company.domain, title: 'Launch' });
    const { callId, hostInstance } = await api(a, ownerCookie, 'calls.startLive', { domain: company.domain, conversationId });
    expect(hostInstance).toBe('a');

    const stage = await CallPeer.open(a.url, ownerCookie, owner.id, callId);
    cleanup.push(() => stage.close());
    await stage.join(callId);
    // The presenter cannot present from B: the call's media is hosted by A.
    const wrong = await CallPeer.open(b.url, ownerCookie, owner.id, callId);
    await expect(wrong.join(callId)).rejects.toThrow(M.wrongInstance);
    wrong.close();

    // The presenter's voice: synthetic RTP into a PlainTransport of A's room.
    const origin = roomOf(a, callId);
    const { producer, transport } = await origin.producePlain(stage.socket.id!, { kind: 'audio', rtpParameters: OPUS_RTP, source: 'mic' });
    const sender = sendOpus(transport.tuple.localPort);
    cleanup.push(() => sender.stop());

    // Two viewers on each instance, joined and consuming through the call socket.
    const viewers: Awaited<ReturnType<typeof viewerOn>>[] = [];
    for (const [server, name] of [[a, 'A1'], [a, 'A2'], [b, 'B1'], [b, 'B2']] as const) {
      const v = await viewerOn(server, company.domain, conversationId, `Viewer ${name}`);
      expect(v.joined.producers.map((p) => p.producerId)).toEqual([producer.id]);
      const consumer = await v.peer.consume(producer.id);
      expect(consumer.producerId).toBe(producer.id);
      viewers.push(v);
    }
    await expect.poll(() => (viewers[0]!.peer.seen.states.at(-1) as CallState | undefined)?.viewers, poll).toBe(4);

    // Each instance carries its viewers on both of its workers.
    const edge = roomOf(b, callId);
    for (const room of [origin, edge]) {
      expect([...room.consumersByWorker().keys()].sort()).toEqual([0, 1]);
      expect(room.routers.size).toBe(2);
    }
    // B's copy of the track came over the pipe from A.
    expect(edge.remoteProducer(producer.id)).toBeDefined();

    // Media arrives on every router carrying viewers, on both instances.
    const counters: Awaited<ReturnType<typeof countingViewer>>[] = [];
    for (const room of [origin, edge]) {
      for (const router of room.routers.values()) {
        const c = await countingViewer(router, producer.id);
        cleanup.push(() => c.close());
        counters.push(c);
      }
    }
    await expect.poll(() => Math.min(...counters.map((c) => c.packets)), poll).toBeGreaterThan(25);
    const stats = await edge.remoteProducer(producer.id)!.getStats();
    expect(stats[0]!.packetCount).toBeGreaterThan(25);

    // The presenter stops the track: B's copy and its viewers' consumers go with it.
    origin.closeProducer(stage.socket.id!, producer.id);
    await expect.poll(() => edge.remoteProducer(producer.id), poll).toBeUndefined();
    await expect.poll(() => edge.consumersByWorker().size, poll).toBe(0);
    await expect.poll(() => viewers[3]!.peer.seen.closedProducers, poll).toContain(producer.id);

    // The presenter leaves: the live ends for the viewers on B too, and B takes its room down.
    await stage.request('leave');
    await expect.poll(() => viewers[2]!.peer.seen.ended.map((e) => e.reason), poll).toEqual(['ended']);
    await expect.poll(() => b.server.deps.calls.rooms!.get(callId), poll).toBeUndefined();
  });
});
