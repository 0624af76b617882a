/**
 * A recording start that fails for a reason of the moment (here: an ffmpeg that exits at once the
 * first time it is run, as one does when another process took its port) is tried again and
 * records; an ffmpeg that cannot be run at all is refused without trying again (calls.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { recorderOptions } from '../../src/server/modules/calls/recording';
import { CallPeer } from '../helpers/call-peer';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
const peers: CallPeer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rec-retry-'));

beforeAll(async () => {
  if (!bin) return;
  server = await startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' } });
});
afterAll(async () => {
  recorderOptions.ffmpegPath = undefined;
  for (const p of peers) p.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function api(cookie: string, procedure: string, input: Record<string, unknown>) {
  const res = await callProcedure(server.url, procedure, input, { cookie, type: 'mutation' });
  if (res.error) throw new Error(res.error.message);
  return res.data as any;
}

describe.skipIf(!bin)(`starting a recording${why}`, () => {
  it('tries again after a start that failed for a moment, and records', async () => {
    // An ffmpeg that exits at once the first time, then is the real one; every run is counted.
    const runs = path.join(dir, 'runs');
    const wrapper = path.join(dir, 'ffmpeg');
    fs.writeFileSync(wrapper, `#!/bin/sh\necho run >> '${runs}'\n[ "$(wc -l < '${runs}')" -gt 1 ] || exit 1\nexec ffmpeg "$@"\n`, { mode: 0o755 });

    const [ana, bruno] = [await createUser(server.db, { name: 'Ana' }), await createUser(server.db, { name: 'Bruno' })];
    const company = await createCompany(server.db, ana.id);
    await addMember(server.db, company.id, bruno.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, ana.id), await signIn(server.db, bruno.id)];
    const { conversationId } = await api(anaCookie, 'chat.startTeam', { domain: company.domain, title: 'Team', userIds: [bruno.id] });
    const { callId } = await api(anaCookie, 'calls.start', { domain: company.domain, conversationId, type: 2 });
    const anaPeer = await CallPeer.open(server.url, anaCookie, ana.id, callId);
    peers.push(anaPeer);
    await anaPeer.join(callId);
    await api(brunoCookie, 'calls.accept', { domain: company.domain, callId });
    const brunoPeer = await CallPeer.open(server.url, brunoCookie, bruno.id, callId);
    peers.push(brunoPeer);
    await brunoPeer.join(callId);
    // A camera: the recorder waits for ffmpeg to listen for it, and sees the first one exit.
    await anaPeer.produce('cam');
    await anaPeer.produce('mic');

    recorderOptions.ffmpegPath = wrapper;
    expect(await api(anaCookie, 'calls.startRecording', { domain: company.domain, callId })).toEqual({ recording: true });
    expect((await server.db.call.findUniqueOrThrow({ where: { id: callId } })).rec).toBe(3);
    // The failed run, then the encoder and the voice's decoder of the second attempt.
    expect(fs.readFileSync(runs, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(3);
    await api(anaCookie, 'calls.end', { domain: company.domain, callId });
  });
});
