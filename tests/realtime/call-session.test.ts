/**
 * The browser's CallSession itself (not the tests' CallPeer), run in Node with mediasoup-client's
 * FakeHandler against the real server and worker: a track published while someone is still joining
 * (the server has answered the join, their Device is not loaded yet) still reaches them. This was
 * the telemedicine e2e's intermittent "patient receives video: 0": the doctor's camera was
 * published in that moment and the patient never consumed it.
 */
import { Device, FakeHandler, testFakeParameters, type types } from 'mediasoup-client';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallSession } from '../../src/client/features/calls/session';
import type { AppSocket } from '../../src/client/socket';
import { resolveWorkerBin } from '../../src/server/media';
import { CallPeer } from '../helpers/call-peer';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
const closers: (() => void)[] = [];

beforeAll(async () => {
  if (!bin) return;
  server = await startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' } });
});
afterAll(async () => {
  for (const close of closers) close();
  await server?.close();
});

/** A Device whose load waits until the test lets it: the moment between the join's answer and a usable Device, held open. */
class HeldDevice extends Device {
  asked = false;
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor() {
    super({ handlerFactory: FakeHandler.createFactory(testFakeParameters) });
  }

  override async load(options: { routerRtpCapabilities: types.RtpCapabilities }): Promise<void> {
    this.asked = true;
    await this.released;
    return super.load(options);
  }

  letLoad() {
    this.release();
  }
}

async function api(cookie: string, path: string, input: Record<string, unknown>) {
  const res = await callProcedure(server.url, path, input, { cookie, type: 'mutation' });
  if (res.error) throw new Error(res.error.message);
  return res.data as any;
}

describe.skipIf(!bin)(`the browser's call session${why}`, () => {
  it('consumes a track published while it was joining, once its Device is loaded', async () => {
    const [ana, bruno] = [await createUser(server.db, { name: 'Ana' }), await createUser(server.db, { name: 'Bruno' })];
    const company = await createCompany(server.db, ana.id);
    await server.db.company.update({ where: { id: company.id }, data: { billingExempt: true } });
    await addMember(server.db, company.id, bruno.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, ana.id), await signIn(server.db, bruno.id)];
    const { conversationId } = await api(anaCookie, 'chat.startTeam', { domain: company.domain, title: 'Team', userIds: [bruno.id] });
    const { callId } = await api(anaCookie, 'calls.start', { domain: company.domain, conversationId, type: 2 });
    const anaPeer = await CallPeer.open(server.url, anaCookie, ana.id, callId);
    closers.push(() => anaPeer.close());
    await anaPeer.join(callId);
    await api(brunoCookie, 'calls.accept', { domain: company.domain, callId });

    const socket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie: brunoCookie }, reconnection: false, forceNew: true, query: { call: callId } }) as AppSocket;
    const device = new HeldDevice();
    const session = new CallSession(callId, bruno.id, '', { onEnded: () => {}, onCommand: () => {}, onLost: () => {} }, { socket, device });
    closers.push(() => session.close());
    const joining = session.join();
    // The server has answered: Bruno's socket is in the call's room, his Device not loaded yet.
    await expect.poll(() => device.asked).toBe(true);

    // Ana's camera goes out now. Once the announcement reached Bruno, a request of ours on his
    // socket is answered after whatever the session asked on hearing it (same socket, same worker).
    const announced = new Promise<void>((resolve) =>
      socket.once('call:newProducer', () => void session.request('createTransport', { direction: 'recv' }).then(() => resolve())),
    );
    const cam = await anaPeer.produce('cam');
    await announced;
    device.letLoad();
    await joining;

    await expect.poll(() => session.getSnapshot().remotes.map((r) => [r.producerId, r.userId, r.source])).toEqual([[cam.id, ana.id, 'cam']]);
  });
});
