/**
 * Calls against a real mediasoup worker: signalling across tabs, the ring timeout and the billing
 * ticks on a clock the test moves, busy auto-reject, the lifecycle closing calls by itself, the
 * owner's remote commands, the recording state machine (ffmpeg), joining by link, and a dead
 * worker's calls ending. Media negotiation runs mediasoup-client's own Device (FakeHandler).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { resolveWorkerBin } from '../../src/server/media';
import { recorderOptions } from '../../src/server/modules/calls/recording';
import type { CallState } from '../../src/shared/call-events';
import { BILLING_TICK_MS, RING_TIMEOUT_MS } from '../../src/shared/constants';
import { chargeFor } from '../../src/shared/domain/billing';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { CallPeer, CallRequestError, openSocket, record, type ClientSocket } from '../helpers/call-peer';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

const clock = offsetClock();
let server: TestServer;
const sockets: ClientSocket[] = [];
const peers: CallPeer[] = [];

beforeAll(async () => {
  if (!bin) return;
  server = await startTestServer({
    clock,
    env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1', APP_ENV: 'dev', INSTANCE_ID: 'calls-test' },
  });
});
afterAll(async () => {
  for (const p of peers) p.close();
  for (const s of sockets) s.disconnect();
  await server?.close();
});

class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

async function person(domain: string, userId: string) {
  const cookie = await signIn(server.db, userId);
  const api = async <T = any>(path: string, input: Record<string, unknown> = {}, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, input, { cookie, type });
    if (res.error) throw new ApiError(res.error.message, res.error.code);
    return res.data as T;
  };
  const tab = async () => {
    const socket = await openSocket(server.url, cookie);
    sockets.push(socket);
    return { socket, seen: record(socket) };
  };
  const peer = async (callId: string) => {
    const p = await CallPeer.open(server.url, cookie, userId, callId);
    peers.push(p);
    return p;
  };
  return { userId, cookie, domain, api, member: <T = any>(path: string, input: Record<string, unknown> = {}, type?: 'query' | 'mutation') => api<T>(path, { domain, ...input }, type), tab, peer };
}
type Person = Awaited<ReturnType<typeof person>>;

/** A company with `size` members (the first is its admin) and a team conversation with all of them. */
async function team(size: number, opts: { credits?: string; plan?: object; settings?: object; exempt?: boolean } = {}) {
  const owner = await createUser(server.db, { name: 'Ana' });
  const company = await createCompany(server.db, owner.id);
  await server.db.company.update({
    where: { id: company.id },
    data: { ...(opts.credits && { credits: opts.credits }), ...(opts.plan && { plan: opts.plan }), ...(opts.settings && { settings: opts.settings }), billingExempt: !!opts.exempt },
  });
  const people: Person[] = [await person(company.domain, owner.id)];
  for (let i = 1; i < size; i++) {
    const u = await createUser(server.db, { name: ['Bruno', 'Carla', 'Davi'][i - 1] ?? `Member ${i}` });
    await addMember(server.db, company.id, u.id);
    people.push(await person(company.domain, u.id));
  }
  const conversationId =
    size > 1 ? (await people[0]!.member('chat.startTeam', { title: 'Team', userIds: people.slice(1).map((p) => p.userId) })).conversationId : '';
  return { company, conversationId: conversationId as string, people };
}

const lastState = (seen: { states: CallState[] }) => seen.states[seen.states.length - 1];

/** A started video call between the first person and the others, everyone joined on a call socket. */
async function callInProgress(size = 2, opts: Parameters<typeof team>[1] = {}) {
  const t = await team(size, opts);
  const [owner, ...others] = t.people as [Person, ...Person[]];
  const { callId } = await owner.member('calls.start', { conversationId: t.conversationId, type: 2 });
  const ownerPeer = await owner.peer(callId);
  await ownerPeer.join(callId);
  const otherPeers: CallPeer[] = [];
  for (const o of others) {
    await o.api('calls.accept', { callId });
    const p = await o.peer(callId);
    await p.join(callId);
    otherPeers.push(p);
  }
  return { ...t, callId, owner, others, ownerPeer, otherPeers };
}

describe.skipIf(!bin)(`calls${why}`, () => {
  it('rings every tab of the callee; accepting tells the caller and stops the other tabs', async () => {
    const { conversationId, people } = await team(2);
    const [ana, bruno] = people as [Person, Person];
    const anaTab = await ana.tab();
    const [brunoTab1, brunoTab2] = [await bruno.tab(), await bruno.tab()];

    const { callId } = await ana.member('calls.start', { conversationId, type: 2 });
    await expect.poll(() => brunoTab1.seen.signals.length).toBe(1);
    await expect.poll(() => brunoTab2.seen.signals.length).toBe(1);
    expect(brunoTab1.seen.signals[0]).toMatchObject({ cmd: 'create', callId, conversationId, type: 2, from: { id: ana.userId, name: 'Ana' }, to: { id: bruno.userId } });
    expect(await bruno.api('calls.incoming', {}, 'query')).toEqual([expect.objectContaining({ cmd: 'create', callId })]);

    // The caller is in the room, with 'Chamando' over it, while Bruno rings.
    const anaPeer = await ana.peer(callId);
    const joined = await anaPeer.join(callId);
    expect(joined.peerId).toBeGreaterThanOrEqual(100_000_000);
    expect(joined.peerId).toBeLessThan(200_000_000);
    expect(joined.state.participants.find((p) => p.userId === bruno.userId)).toMatchObject({ calling: true });
    expect(joined.state.open).toBe(false);

    await bruno.api('calls.accept', { callId });
    await expect.poll(() => anaTab.seen.signals.map((s) => s.cmd)).toContain('accepted');
    await expect.poll(() => brunoTab2.seen.signals.map((s) => `${s.cmd}:${s.reason}`)).toContain('cancel:answeredElsewhere');
    expect(await bruno.api('calls.incoming', {}, 'query')).toEqual([]);

    const brunoPeer = await bruno.peer(callId);
    const brunoJoined = await brunoPeer.join(callId);
    expect(brunoJoined.state).toMatchObject({ open: true, concluded: false });
    expect(brunoJoined.state.participants.map((p) => [p.userId, p.connected])).toEqual([
      [ana.userId, true],
      [bruno.userId, true],
    ]);
    const call = await server.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(call.startedAt).not.toBeNull();
    expect(call.hostInstance).toBe('calls-test');
    // Accepting twice is refused.
    await expect(bruno.api('calls.accept', { callId })).rejects.toThrow(M.notRinging);
  });

  it('negotiates sending and receiving through the SFU: produce, consume, pause, close', async () => {
    const { ownerPeer: ana, otherPeers: [bruno] } = await callInProgress(2);
    const mic = await ana.produce('mic');
    const cam = await ana.produce('cam');
    await expect.poll(() => bruno!.seen.newProducers.map((p) => p.source).sort()).toEqual(['cam', 'mic']);
    const consumers = [];
    for (const info of bruno!.seen.newProducers) consumers.push(await bruno!.consume(info.producerId));
    expect(consumers.map((c) => c.kind).sort()).toEqual(['audio', 'video']);
    expect(consumers.map((c) => c.producerId).sort()).toEqual([mic.id, cam.id].sort());
    await expect.poll(() => lastState(bruno!.seen)?.participants.find((p) => p.userId === ana.userId)).toMatchObject({ audio: true, video: true });

    // Camera off: the track pauses for everyone and the state says so.
    await ana.request('pauseProducer', { producerId: cam.id });
    await expect.poll(() => bruno!.seen.paused).toContainEqual({ producerId: cam.id, paused: true });
    await expect.poll(() => lastState(bruno!.seen)?.participants.find((p) => p.userId === ana.userId)?.video).toBe(false);

    await ana.request('closeProducer', { producerId: mic.id });
    await expect.poll(() => bruno!.seen.closedProducers).toContain(mic.id);
    // Someone else's track cannot be consumed twice by its own producer, nor an unknown one at all.
    await expect(ana.request('consume', { producerId: cam.id, rtpCapabilities: ana.device.rtpCapabilities })).rejects.toThrow('You cannot receive your own track');
    await expect(ana.request('consume', { producerId: 'nope', rtpCapabilities: ana.device.rtpCapabilities })).rejects.toThrow('This track is no longer available');
    await expect(ana.request('produce' as never, { bogus: true } as never)).rejects.toThrow('Invalid call request');

    // The in-call chat reaches everyone in the room.
    await bruno!.request('chat', { text: 'Olá!' });
    await expect.poll(() => ana.seen.chat.map((l) => l.text)).toEqual(['Olá!']);
  });

  it('puts every transport of the worker on its one media port, UDP and TCP alike (one firewall rule)', async () => {
    const { ownerPeer: ana, otherPeers: [bruno] } = await callInProgress(2);
    const port = server.server.deps.config.media.webRtcPort;
    expect(port).toBeGreaterThan(0);
    const candidates = [];
    for (const peer of [ana, bruno!]) {
      for (const direction of ['send', 'recv'] as const) {
        const params = (await peer.request('createTransport', { direction })) as { iceCandidates: { protocol: string; port: number }[] };
        candidates.push(...params.iceCandidates);
      }
    }
    expect(new Set(candidates.map((c) => c.protocol))).toEqual(new Set(['udp', 'tcp']));
    expect(new Set(candidates.map((c) => c.port))).toEqual(new Set([port]));
  });

  it("cancels a ring nobody answers after 30 s and posts '{name} não atendeu'", async () => {
    const { conversationId, people } = await team(2);
    const [ana, bruno] = people as [Person, Person];
    const [anaTab, brunoTab] = [await ana.tab(), await bruno.tab()];
    const { callId } = await ana.member('calls.start', { conversationId, type: 1 });
    await expect.poll(() => brunoTab.seen.signals.length).toBe(1);

    clock.advance(RING_TIMEOUT_MS - 1000);
    expect(brunoTab.seen.signals.map((s) => s.cmd)).toEqual(['create']);
    clock.advance(1000);
    await expect.poll(() => brunoTab.seen.signals.map((s) => `${s.cmd}:${s.reason ?? ''}`)).toEqual(['create:', 'cancel:noAnswer']);
    await expect.poll(() => anaTab.seen.signals.map((s) => `${s.cmd}:${s.reason}`)).toContain('otherReject:noAnswer');
    await expect.poll(() => anaTab.seen.messages.map((m) => m.data)).toContainEqual({ info: 'callNoAnswer', params: { name: 'Bruno' } });
    // Nobody else was rung: the call is over.
    await expect.poll(() => anaTab.seen.ended).toEqual([{ callId, reason: 'noAnswer' }]);
    const call = await server.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(call).toMatchObject({ concluded: true, open: false, endReason: 'noAnswer' });
    await expect(bruno.api('calls.accept', { callId })).rejects.toThrow('Chamada de voz finalizada');
  });

  it("auto-rejects a callee already in another call: ' - Está em outra chamada no momento.'", async () => {
    const busy = await callInProgress(2);
    const bruno = busy.others[0]!;
    // Ana of another conversation calls Bruno, who is busy.
    const carla = await createUser(server.db, { name: 'Carla' });
    await addMember(server.db, busy.company.id, carla.id);
    const carlaP = await person(busy.company.domain, carla.id);
    const carlaTab = await carlaP.tab();
    const brunoTab = await bruno.tab();
    const { conversationId } = await carlaP.member('chat.startDirect', { userId: bruno.userId });
    const { callId } = await carlaP.member('calls.start', { conversationId, type: 2 });

    await expect.poll(() => carlaTab.seen.signals.map((s) => `${s.cmd}:${s.reason}`)).toEqual(['otherReject:busy']);
    await expect.poll(() => carlaTab.seen.messages.map((m) => m.data)).toContainEqual({ info: 'callBusy', params: { name: 'Bruno' } });
    expect(carlaTab.seen.messages.find((m) => m.type === 'info')?.text).toBe('Bruno - Is on another call right now.');
    await expect.poll(() => carlaTab.seen.ended.map((e) => e.reason)).toEqual(['noAnswer']);
    expect(brunoTab.seen.signals).toEqual([]);
    const p = await server.db.callParticipant.findUniqueOrThrow({ where: { callId_userId: { callId, userId: bruno.userId } } });
    expect(p).toMatchObject({ rejected: true, calling: false });
    // Someone in a call cannot start another one either.
    const { conversationId: other } = await bruno.member('chat.startDirect', { userId: carla.id });
    await expect(bruno.member('calls.start', { conversationId: other, type: 1 })).rejects.toThrow(M.alreadyInCall);
  });

  it('closes an open call with fewer than 2 people, disconnects who is left, and refuses finished or missing calls', async () => {
    const { callId, owner, others, ownerPeer, otherPeers } = await callInProgress(3);
    const [bruno, carla] = others as [Person, Person];
    await otherPeers[1]!.request('leave');
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === carla.userId)?.connected).toBe(false);
    expect(lastState(ownerPeer.seen)?.concluded).toBe(false);
    const disconnected = new Promise<void>((resolve) => ownerPeer.socket.once('disconnect', () => resolve()));

    // Bruno's tab closes: only Ana remains, so the call closes and Ana is disconnected.
    otherPeers[0]!.socket.disconnect();
    await expect.poll(() => ownerPeer.seen.ended).toEqual([{ callId, reason: 'ended' }]);
    await disconnected;
    const call = await server.db.call.findUniqueOrThrow({ where: { id: callId }, include: { participants: true } });
    expect(call).toMatchObject({ concluded: true, open: false, endReason: 'ended' });
    expect(call.endedAt).not.toBeNull();
    expect(call.participants.every((p) => !p.connected && !p.connecting && !p.calling)).toBe(true);

    await expect(bruno.api('calls.enter', { callId })).rejects.toThrow('Chamada de voz finalizada');
    const again = await owner.peer(callId);
    await expect(again.join(callId)).rejects.toThrow('Chamada de voz finalizada');
    await expect(bruno.api('calls.enter', { callId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow('Chamada/Live inexistente');
  });

  it('lets the owner mute, ask to unmute, turn off video and kick; nobody else', async () => {
    const { callId, owner, others, otherPeers, ownerPeer } = await callInProgress(3);
    const [bruno, carla] = others as [Person, Person];
    const brunoPeer = otherPeers[0]!;
    const brunoMic = await brunoPeer.produce('mic');
    await brunoPeer.produce('cam');
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === bruno.userId)).toMatchObject({ audio: true, video: true });

    await expect(carla.api('calls.command', { callId, userId: bruno.userId, command: 'mute' })).rejects.toThrow(M.onlyOwner);
    await expect(owner.api('calls.command', { callId, userId: owner.userId, command: 'mute' })).rejects.toThrow(M.selfCommand);

    await owner.api('calls.command', { callId, userId: bruno.userId, command: 'mute' });
    await expect.poll(() => brunoPeer.seen.commands.map((c) => c.command)).toEqual(['mute']);
    expect(brunoPeer.seen.commands[0]!.from).toEqual({ id: owner.userId, name: 'Ana' });
    // Enforced on the server: the track is paused for everyone.
    await expect.poll(() => ownerPeer.seen.paused).toContainEqual({ producerId: brunoMic.id, paused: true });
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === bruno.userId)?.audio).toBe(false);

    // Unmute only asks: nothing resumes until Bruno does it himself.
    await owner.api('calls.command', { callId, userId: bruno.userId, command: 'unmute' });
    await expect.poll(() => brunoPeer.seen.commands.map((c) => c.command)).toEqual(['mute', 'unmute']);
    expect(ownerPeer.seen.paused.filter((p) => !p.paused)).toEqual([]);
    await brunoPeer.request('resumeProducer', { producerId: brunoMic.id });
    await expect.poll(() => ownerPeer.seen.paused).toContainEqual({ producerId: brunoMic.id, paused: false });

    await owner.api('calls.command', { callId, userId: bruno.userId, command: 'muteVideo' });
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === bruno.userId)?.video).toBe(false);
    const p = await server.db.callParticipant.findUniqueOrThrow({ where: { callId_userId: { callId, userId: bruno.userId } } });
    expect(p.cmdExecutor).toBe(`muteVideo|${owner.userId}`);

    const kicked = new Promise<void>((resolve) => brunoPeer.socket.once('disconnect', () => resolve()));
    await owner.api('calls.command', { callId, userId: bruno.userId, command: 'kick' });
    await kicked;
    expect(brunoPeer.seen.commands.map((c) => c.command)).toContain('kick');
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((x) => x.userId === bruno.userId)?.connected).toBe(false);
    expect(lastState(ownerPeer.seen)?.concluded).toBe(false); // Ana and Carla remain
    await expect(bruno.api('calls.enter', { callId })).rejects.toThrow(M.kicked);
    await expect(owner.api('calls.command', { callId, userId: bruno.userId, command: 'mute' })).rejects.toThrow(M.targetNotInCall);

    // Only the owner ends the room; the others leave.
    await expect(carla.api('calls.end', { callId })).rejects.toThrow(M.onlyOwner);
    await owner.api('calls.end', { callId });
    await expect.poll(() => otherPeers[1]!.seen.ended).toEqual([{ callId, reason: 'endedByOwner' }]);
  });

  it('records: owner or admin only, plan and canRec checked, 1 -> 2 -> 3 -> 2 -> 1, the message posted and its file stored', async () => {
    const { callId, owner, others, ownerPeer, otherPeers, conversationId } = await callInProgress(3);
    const [bruno] = others as [Person, Person];
    await ownerPeer.produce('mic');
    await otherPeers[0]!.produce('mic');
    const anaTab = await owner.tab();

    await expect(bruno.api('calls.startRecording', { callId })).rejects.toThrow(M.recordOwnerOrAdmin);
    // A failing start (ffmpeg missing) reverts to 1 and says so.
    recorderOptions.ffmpegPath = '/nonexistent/ffmpeg';
    await expect(owner.api('calls.startRecording', { callId })).rejects.toThrow(M.recordingFailed);
    recorderOptions.ffmpegPath = undefined;
    await expect.poll(() => ownerPeer.seen.states.map((s) => s.rec).slice(-2)).toEqual([2, 1]);
    expect((await server.db.call.findUniqueOrThrow({ where: { id: callId } })).recStatus).toBe('startFailed');

    ownerPeer.seen.states.length = 0;
    await owner.api('calls.startRecording', { callId });
    expect(ownerPeer.seen.states.map((s) => s.rec)).toEqual(expect.arrayContaining([2]));
    await expect.poll(() => lastState(ownerPeer.seen)?.rec).toBe(3);
    expect(lastState(ownerPeer.seen)?.recorderId).toBe(owner.userId);
    await expect(owner.api('calls.startRecording', { callId })).rejects.toThrow(M.alreadyRecording);
    await expect(bruno.api('calls.stopRecording', { callId })).rejects.toThrow('Você não pode finalizar esta gravação');

    await new Promise((r) => setTimeout(r, 1500));
    ownerPeer.seen.states.length = 0;
    const { messageId } = await owner.api('calls.stopRecording', { callId });
    expect(ownerPeer.seen.states.map((s) => s.rec)).toEqual(expect.arrayContaining([2]));
    await expect.poll(() => lastState(ownerPeer.seen)?.rec).toBe(1);
    await expect.poll(() => anaTab.seen.messages.filter((m) => m.file)).toHaveLength(1);
    const message = await server.db.message.findUniqueOrThrow({ where: { id: messageId } });
    expect(message).toMatchObject({ isRecording: true, callId, conversationId, authorId: owner.userId, fileMime: 'audio/webm' });
    expect(message.durationMs).toBeGreaterThan(500);
    expect(message.fileKey).toBe(`${owner.domain}/${conversationId}/${messageId}/${message.fileName}`);
    const stat = await server.server.deps.storage.stat(message.fileKey!);
    expect(stat.size).toBe(Number(message.fileSize));
    expect(stat.size).toBeGreaterThan(0);

    // The meeting page lists it with a link; removing it deletes the object.
    const described = await owner.api<{ recordings: { id: string; url: string; durationMs: number }[] }>('calls.get', { callId }, 'query');
    expect(described.recordings).toHaveLength(1);
    const download = await fetch(described.recordings[0]!.url);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(stat.size);
    await expect(bruno.api('calls.removeRecording', { recordingId: described.recordings[0]!.id })).rejects.toThrow(M.recordOwnerOrAdmin);
    await owner.api('calls.removeRecording', { recordingId: described.recordings[0]!.id });
    await expect(server.server.deps.storage.stat(message.fileKey!)).rejects.toThrow('Object not found');
    expect((await server.db.message.findUniqueOrThrow({ where: { id: messageId } })).removed).toBe(true);

    // A call closing by itself stops its recording and posts it.
    await owner.api('calls.startRecording', { callId });
    await expect.poll(() => lastState(ownerPeer.seen)?.rec).toBe(3);
    await otherPeers[1]!.request('leave');
    otherPeers[0]!.socket.disconnect();
    await expect.poll(() => ownerPeer.seen.ended.map((e) => e.reason)).toEqual(['ended']);
    await expect.poll(() => server.db.callRecording.count({ where: { callId } })).toBe(2);
    expect((await server.db.call.findUniqueOrThrow({ where: { id: callId } })).rec).toBe(1);
    await expect(owner.api('calls.stopRecording', { callId })).rejects.toThrow('Sala não encontrada. Você não pode finalizar esta gravação');
  });

  it('refuses recording without the plan (admin and member texts) or with canRec off', async () => {
    const noPlan = await callInProgress(2, { plan: { voipRecorder: 0 } });
    await expect(noPlan.owner.api('calls.startRecording', { callId: noPlan.callId })).rejects.toThrow(M.recordingPlanOffAdmin);
    const t = await team(2, { plan: { voipRecorder: 0 } });
    const bruno = t.people[1]!;
    const { conversationId } = await bruno.member('chat.startDirect', { userId: t.people[0]!.userId });
    const { callId } = await bruno.member('calls.start', { conversationId, type: 1 });
    await (await bruno.peer(callId)).join(callId);
    await expect(bruno.api('calls.startRecording', { callId })).rejects.toThrow(M.recordingPlanOff);

    const noRec = await callInProgress(2, { settings: { allowCallRecording: false } });
    await expect(noRec.owner.api('calls.startRecording', { callId: noRec.callId })).rejects.toThrow(M.recordingDisabled);
  });

  it('charges every 30 s per participant at the price of what they send, once, and ends the call when the balance runs out', async () => {
    await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '1', videoPerMinute: '2', sharePerMinute: '4' } });
    try {
      const { callId, company, owner, ownerPeer, otherPeers } = await callInProgress(2, { credits: '2' });
      await ownerPeer.produce('cam');
      await otherPeers[0]!.produce('mic');
      await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === owner.userId)?.video).toBe(true);

      clock.advance(BILLING_TICK_MS);
      await expect.poll(() => server.db.chargeRecord.count({ where: { callId, seconds: { gte: 30 } } })).toBe(2);
      const charges = await server.db.chargeRecord.findMany({ where: { callId, seconds: { gte: 30 } }, orderBy: { tag: 'asc' } });
      expect(charges.map((c) => c.tag)).toEqual(['video', 'voice']);
      // A tick is the time since the last charge (30 s, a second more if the test was slow to get here).
      for (const c of charges) {
        expect(c.seconds).toBeLessThanOrEqual(32);
        expect(c.amount.toString()).toBe(Number(chargeFor(c.seconds, c.tag === 'video' ? '2' : '1')).toString());
      }
      const all = await server.db.chargeRecord.findMany({ where: { callId } });
      const spent = all.reduce((sum, c) => sum + Number(c.amount), 0);
      const after = await server.db.company.findUniqueOrThrow({ where: { id: company.id } });
      expect(Number(after.credits)).toBeCloseTo(2 - spent, 4);
      const statement = await owner.member<{ entries: { amount: string; tag: string; seconds: number; balanceAfter: string }[] }>('billing.statement', {}, 'query');
      expect(statement.entries.length).toBe(all.length);
      expect(statement.entries.every((e) => Number(e.amount) < 0)).toBe(true);
      expect(Number(statement.entries[0]!.balanceAfter)).toBeCloseTo(Number(after.credits), 4);

      // A tick run twice (two instances) charges once.
      const p = await server.db.callParticipant.findUniqueOrThrow({ where: { callId_userId: { callId, userId: owner.userId } } });
      const { chargeParticipant } = await import('../../src/server/modules/billing/service');
      const now = new Date(clock.now().getTime() + 5000);
      const outcomes = await Promise.all([chargeParticipant(server.db, p.id, now), chargeParticipant(server.db, p.id, now)]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['charged', 'nothingDue']);

      // 1.5 a tick against less than 0.5 left: the balance runs out and the call ends for the company.
      clock.advance(BILLING_TICK_MS);
      await expect.poll(() => ownerPeer.seen.ended).toEqual([{ callId, reason: 'insufficientBalance' }]);
      const final = await server.db.company.findUniqueOrThrow({ where: { id: company.id } });
      expect(Number(final.credits)).toBeGreaterThanOrEqual(0);
      // No start while the balance is empty and calls cost something.
      await server.db.company.update({ where: { id: company.id }, data: { credits: 0 } });
      const { conversationId } = await owner.member('chat.startDirect', { userId: otherPeers[0]!.userId });
      await expect(owner.member('calls.start', { conversationId, type: 1 })).rejects.toThrow(M.insufficientBalance);
    } finally {
      await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '0', videoPerMinute: '0', sharePerMinute: '0' } });
    }
  });

  it('does not charge an exempt company', async () => {
    await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '1' } });
    try {
      const { callId, company } = await callInProgress(2, { exempt: true });
      clock.advance(BILLING_TICK_MS);
      await expect.poll(async () => (await server.db.callParticipant.findMany({ where: { callId } })).map((p) => p.billedTicks)).toEqual([1, 1]);
      expect(await server.db.chargeRecord.count({ where: { callId } })).toBe(0);
      expect(Number((await server.db.company.findUniqueOrThrow({ where: { id: company.id } })).credits)).toBe(0);
    } finally {
      await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '0' } });
    }
  });

  it('ends a call at the time limit with the environment notice', async () => {
    const { callId, ownerPeer, otherPeers } = await callInProgress(2);
    clock.advance(2 * 3_600_000);
    await expect.poll(() => ownerPeer.seen.ended).toEqual([{ callId, reason: 'timeLimit', appEnv: 'dev' }]);
    await expect.poll(() => otherPeers[0]!.seen.ended.map((e) => e.reason)).toEqual(['timeLimit']);
  });

  it('lets a visitor join by link; without the key or with a wrong one, no', async () => {
    const { callId, company, ownerPeer } = await callInProgress(2);
    const owner = (await server.db.call.findUniqueOrThrow({ where: { id: callId } })).ownerId!;
    const link = (await (await person(company.domain, owner)).api<{ link: string }>('calls.get', { callId }, 'query')).link;
    expect(link).toMatch(new RegExp(`^/${company.domain}/call/${callId}/[A-Za-z0-9_-]{32}$`));
    const key = link.split('/').pop()!;

    const visitorUser = await server.db.user.create({ data: { name: 'Visitante', anonymous: true } });
    const visitor = await person(company.domain, visitorUser.id);
    await expect(visitor.api('calls.enter', { callId })).rejects.toThrow(M.notParticipant);
    await expect(visitor.api('calls.enter', { callId, key: 'x'.repeat(32) })).rejects.toThrow(M.badLink);
    // A visitor cannot read the call either, nor start anything in the company.
    await expect(visitor.api('calls.get', { callId }, 'query')).rejects.toThrow(M.notParticipant);

    const entered = await visitor.api('calls.enter', { callId, key });
    expect(entered).toMatchObject({ callId, domain: company.domain, hostInstance: 'calls-test' });
    const peer = await visitor.peer(callId);
    await peer.join(callId);
    await expect.poll(() => lastState(ownerPeer.seen)?.participants.find((p) => p.userId === visitorUser.id)).toMatchObject({ connected: true, anonymous: true, name: 'Visitante' });
    // The link is not theirs to share.
    expect((await visitor.api<{ link: string | null }>('calls.get', { callId }, 'query')).link).toBeNull();
  });

  it('runs a live room: viewers come by the public link, only the presenter sends, and it ends with the presenter', async () => {
    const t = await team(1);
    const presenter = t.people[0]!;
    const { conversationId } = await presenter.member('calls.createLive', { title: 'Launch' });
    const { callId } = await presenter.member('calls.startLive', { conversationId });
    const stage = await presenter.peer(callId);
    await stage.join(callId);
    await stage.produce('cam');

    const viewers: CallPeer[] = [];
    for (let i = 0; i < 2; i++) {
      const u = await server.db.user.create({ data: { name: `Viewer ${i}`, anonymous: true } });
      const v = await person(t.company.domain, u.id);
      const entered = await v.api('calls.enterLive', { conversationId });
      expect(entered.callId).toBe(callId);
      const peer = await v.peer(callId);
      const joined = await peer.join(callId);
      expect(joined.producers.map((p) => p.source)).toEqual(['cam']);
      await peer.consume(joined.producers[0]!.producerId);
      await expect(peer.produce('mic')).rejects.toThrow(M.liveOnlyPresenter);
      viewers.push(peer);
    }
    await expect.poll(() => lastState(stage.seen)?.viewers).toBe(2);
    // Viewers are counted, not listed.
    expect(lastState(stage.seen)?.participants.map((p) => p.userId)).toEqual([presenter.userId]);
    viewers[0]!.socket.disconnect();
    await expect.poll(() => lastState(stage.seen)?.viewers).toBe(1);
    expect(lastState(stage.seen)?.concluded).toBe(false);
    await stage.request('leave');
    await expect.poll(() => viewers[1]!.seen.ended.map((e) => e.reason)).toEqual(['ended']);
  });

  // Last: it kills the worker.
  it("ends the calls of a worker that dies and tells their participants", async () => {
    const { callId, ownerPeer, otherPeers } = await callInProgress(2);
    const status = server.server.deps.media.status();
    if (!status.available) throw new Error('no worker');
    process.kill(status.workers[0]!.pid, 'SIGKILL');
    await expect.poll(() => ownerPeer.seen.ended).toEqual([{ callId, reason: 'mediaFailure' }]);
    await expect.poll(() => otherPeers[0]!.seen.ended.map((e) => e.reason)).toEqual(['mediaFailure']);
    expect((await server.db.call.findUniqueOrThrow({ where: { id: callId } })).endReason).toBe('mediaFailure');
  });
});
