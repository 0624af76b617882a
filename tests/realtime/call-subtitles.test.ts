/**
 * Live subtitles and translation in a real mediasoup call: the call's legenda switch (owner or
 * admin, plan transc), each listener's subtitles/translation/language, call:transcript lines
 * reaching only listeners with subtitles on, translated per listener language by a local HTTP
 * server speaking the translator protocol (Azure Translator v3 shape) and billed per character
 * (ChargeRecord key 'translate' + Statement entry); a translator that is down leaves the original
 * text and bills nothing; another company's user is refused everywhere.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { SUBTITLE_MESSAGES as S, translationCharge } from '../../src/shared/domain/subtitles';
import { CallPeer, CallRequestError } from '../helpers/call-peer';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

/** The translator: checks the protocol, answers "[to] text", or 503 while `down`. */
const translator = {
  down: false,
  requests: [] as { from: string | null; to: string | null; apiVersion: string | null; key: string | undefined; body: unknown }[],
  server: undefined as http.Server | undefined,
};

let server: TestServer;
const peers: CallPeer[] = [];

beforeAll(async () => {
  if (!bin) return;
  translator.server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const q = { from: url.searchParams.get('from'), to: url.searchParams.get('to'), apiVersion: url.searchParams.get('api-version') };
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* answered 400 below */
      }
      translator.requests.push({ ...q, key: req.headers['ocp-apim-subscription-key'] as string | undefined, body });
      const text = Array.isArray(body) ? (body[0] as { Text?: unknown })?.Text : undefined;
      if (translator.down) return res.writeHead(503).end();
      if (req.method !== 'POST' || q.apiVersion !== '3.0' || !q.from || !q.to || typeof text !== 'string') return res.writeHead(400).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ translations: [{ text: `[${q.to}] ${text}`, to: q.to }] }]));
    });
  });
  await new Promise<void>((resolve) => translator.server!.listen(0, '127.0.0.1', resolve));
  const { port } = translator.server.address() as AddressInfo;
  server = await startTestServer({
    env: {
      MEDIASOUP_NUM_WORKERS: '1',
      MEDIASOUP_WORKER_BIN: bin,
      RTC_LISTEN_IP: '127.0.0.1',
      INSTANCE_ID: 'subs-test',
      TRANSLATOR_URL: `http://127.0.0.1:${port}/translate`,
      TRANSLATOR_KEY: 'test-key',
    },
  });
});
afterAll(async () => {
  for (const p of peers) p.close();
  // Stop only once every disconnect has been handled (left, charged, call ended): shutting the
  // database while a dozen leaves are in flight on a loaded machine can hang the stop.
  if (server) {
    await vi.waitFor(async () => expect(await server.db.callParticipant.count({ where: { connected: true } })).toBe(0), { timeout: 30_000, interval: 50 });
  }
  await server?.close();
  // The app's fetch keeps its connections alive: end them, or close() waits for them.
  translator.server?.closeAllConnections();
  await new Promise((resolve) => (translator.server ? translator.server.close(resolve) : resolve(undefined)));
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
  const api = async <T = any>(p: string, input: Record<string, unknown> = {}, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, p, input, { cookie, type });
    if (res.error) throw new ApiError(res.error.message, res.error.code);
    return res.data as T;
  };
  const peer = async (callId: string) => {
    const p = await CallPeer.open(server.url, cookie, userId, callId);
    peers.push(p);
    return p;
  };
  return { userId, cookie, domain, api, member: <T = any>(p: string, input: Record<string, unknown> = {}) => api<T>(p, { domain, ...input }), peer };
}
type Person = Awaited<ReturnType<typeof person>>;

/** A started video call of `size` members (the first, Ana, is admin and owner), everyone joined. */
async function callInProgress(size: number, opts: { credits?: string; plan?: object } = {}) {
  const owner = await createUser(server.db, { name: 'Ana' });
  const company = await createCompany(server.db, owner.id);
  await server.db.company.update({ where: { id: company.id }, data: { ...(opts.credits && { credits: opts.credits }), ...(opts.plan && { plan: opts.plan }) } });
  const people: Person[] = [await person(company.domain, owner.id)];
  for (let i = 1; i < size; i++) {
    const u = await createUser(server.db, { name: ['Bruno', 'Carla', 'Davi'][i - 1]! });
    await addMember(server.db, company.id, u.id);
    people.push(await person(company.domain, u.id));
  }
  const { conversationId } = await people[0]!.member<{ conversationId: string }>('chat.startTeam', { title: 'Team', userIds: people.slice(1).map((p) => p.userId) });
  const { callId } = await people[0]!.member<{ callId: string }>('calls.start', { conversationId, type: 2 });
  const callPeers: CallPeer[] = [];
  for (const [i, p] of people.entries()) {
    if (i > 0) await p.api('calls.accept', { callId });
    const cp = await p.peer(callId);
    await cp.join(callId);
    callPeers.push(cp);
  }
  return { company, callId, people, peers: callPeers };
}

describe.skipIf(!bin)(`call subtitles${why}`, () => {
  it('a transcript line reaches only the listeners with subtitles on, in the words spoken, and is stored', async () => {
    const { callId, people, peers: [ana, bruno, carla] } = await callInProgress(3);
    await people[0]!.api('calls.setSubtitles', { callId, on: true });
    await expect.poll(() => bruno!.seen.subtitleToggles.length).toBe(1);
    expect(bruno!.seen.subtitleToggles[0]).toMatchObject({ callId, on: true, by: { id: people[0]!.userId, name: 'Ana' } });
    expect(await people[1]!.api('calls.setMySubtitles', { callId, subtitles: true })).toEqual({ subtitles: true, translation: false, language: 'en' });

    const { id } = await ana!.transcript({ callId, text: 'Olá a todos', lang: 'pt-BR' });
    await expect.poll(() => bruno!.seen.subtitles.length).toBe(1);
    expect(bruno!.seen.subtitles[0]).toMatchObject({ callId, id, userId: people[0]!.userId, name: 'Ana', text: 'Olá a todos', lang: 'pt', original: 'Olá a todos', langOrigin: 'pt' });
    // The server sent Carla nothing before answering her round trip.
    await Promise.all([carla!.sync(), ana!.sync()]);
    expect(carla!.seen.subtitles).toEqual([]);
    expect(ana!.seen.subtitles).toEqual([]);
    const line = await server.db.callTranscriptLine.findUniqueOrThrow({ where: { id } });
    expect(line).toMatchObject({ callId, userId: people[0]!.userId, userName: 'Ana', text: 'Olá a todos', lang: 'pt', translations: {} });
    // Nothing translated, nothing billed.
    expect(await server.db.chargeRecord.count({ where: { callId } })).toBe(0);
  });

  it('translates once per listener language, billed per character with a ChargeRecord and a Statement entry', async () => {
    const { company, callId, people, peers: [ana, bruno, carla, davi] } = await callInProgress(4, { credits: '10', plan: { translate: 1 } });
    await people[0]!.api('calls.setSubtitles', { callId, on: true });
    await people[0]!.api('calls.setMySubtitles', { callId, subtitles: true, language: 'pt' });
    await people[1]!.api('calls.setMySubtitles', { callId, subtitles: true, translation: true, language: 'en' });
    await people[2]!.api('calls.setMySubtitles', { callId, subtitles: true, translation: true, language: 'de' });
    await people[3]!.api('calls.setMySubtitles', { callId, subtitles: true, translation: true, language: 'en' });
    const before = translator.requests.length;

    const text = 'Olá a todos';
    const { id } = await ana!.transcript({ callId, text, lang: 'pt-BR' });
    for (const p of [ana!, bruno!, carla!, davi!]) await expect.poll(() => p.seen.subtitles.length).toBe(1);
    expect(ana!.seen.subtitles[0]).toMatchObject({ text, lang: 'pt' });
    expect(bruno!.seen.subtitles[0]).toMatchObject({ id, text: `[en] ${text}`, lang: 'en', original: text, langOrigin: 'pt' });
    expect(davi!.seen.subtitles[0]).toMatchObject({ id, text: `[en] ${text}`, lang: 'en' });
    expect(carla!.seen.subtitles[0]).toMatchObject({ id, text: `[de] ${text}`, lang: 'de' });

    // One request per target language, in the protocol's shape.
    const sent = translator.requests.slice(before);
    expect(sent.map((r) => r.to).sort()).toEqual(['de', 'en']);
    for (const r of sent) expect(r).toMatchObject({ from: 'pt', apiVersion: '3.0', key: 'test-key', body: [{ Text: text }] });

    const amount = translationCharge(11, '0.0005');
    expect(amount).toBe('0.0055');
    const charges = await server.db.chargeRecord.findMany({ where: { callId }, include: { statementEntry: true }, orderBy: { subject: 'asc' } });
    expect(charges).toHaveLength(2);
    for (const [i, lang] of ['de', 'en'].entries()) {
      const c = charges[i]!;
      expect(c).toMatchObject({ companyId: company.id, key: 'translate', type: 'cumulative', tag: 'translate', subject: `translate:${id}:${lang}`, name: 'Ana' });
      expect(c.amount.toString()).toBe(amount);
      expect(c.summary).toMatchObject({ tag: 'translate', amount, field: 'characters', characters: 11 });
      expect(c.statementEntry!.action).toBe('charge');
      expect(c.statementEntry!.amount.toString()).toBe(`-${amount}`);
    }
    const { credits } = await server.db.company.findUniqueOrThrow({ where: { id: company.id } });
    expect(credits.toString()).toBe('9.989');
    const line = await server.db.callTranscriptLine.findUniqueOrThrow({ where: { id } });
    expect(line.translations).toEqual({ en: `[en] ${text}`, de: `[de] ${text}` });
  });

  it('a translator that is down leaves the original text and bills nothing', async () => {
    const { company, callId, people, peers: [ana, bruno] } = await callInProgress(2, { credits: '10', plan: { translate: 1 } });
    await people[0]!.api('calls.setSubtitles', { callId, on: true });
    await people[1]!.api('calls.setMySubtitles', { callId, subtitles: true, translation: true, language: 'de' });
    translator.down = true;
    try {
      const { id } = await ana!.transcript({ callId, text: 'Bom dia', lang: 'pt' });
      await expect.poll(() => bruno!.seen.subtitles.length).toBe(1);
      expect(bruno!.seen.subtitles[0]).toMatchObject({ id, text: 'Bom dia', lang: 'pt' });
    } finally {
      translator.down = false;
    }
    expect(await server.db.chargeRecord.count({ where: { callId } })).toBe(0);
    expect(await server.db.statementEntry.count({ where: { callId } })).toBe(0);
    expect((await server.db.company.findUniqueOrThrow({ where: { id: company.id } })).credits.toString()).toBe('10');
  });

  it('refuses subtitles without plan transc, translation without plan translate, and toggling by others than owner or admin', async () => {
    const noTransc = await callInProgress(2, { plan: { transc: 0 } });
    await expect(noTransc.people[0]!.api('calls.setSubtitles', { callId: noTransc.callId, on: true })).rejects.toMatchObject({ message: S.planNoTransc, code: 'FORBIDDEN' });
    await expect(noTransc.peers[0]!.transcript({ callId: noTransc.callId, text: 'oi', lang: 'pt' })).rejects.toThrow(S.planNoTransc);

    // The default plan has transc but not translate.
    const { callId, people, peers } = await callInProgress(2);
    await expect(peers[0]!.transcript({ callId, text: 'oi', lang: 'pt' })).rejects.toThrow(new CallRequestError(S.subtitlesOff));
    await expect(people[1]!.api('calls.setSubtitles', { callId, on: true })).rejects.toMatchObject({ message: S.ownerOrAdmin });
    await expect(people[1]!.api('calls.setMySubtitles', { callId, translation: true, language: 'de' })).rejects.toMatchObject({ message: S.planNoTranslate });
    await expect(people[1]!.api('calls.setMySubtitles', { callId, language: 'xx' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await server.db.callParticipant.findFirstOrThrow({ where: { callId, userId: people[1]!.userId } })).toMatchObject({ translationOn: false });
  });

  it("turning legenda off tells everyone 'Transcrição desativada' and stops accepting lines", async () => {
    const { callId, people, peers: [ana, bruno] } = await callInProgress(2);
    await people[0]!.api('calls.setSubtitles', { callId, on: true });
    await people[0]!.api('calls.setSubtitles', { callId, on: false });
    for (const p of [ana!, bruno!]) {
      await expect.poll(() => p.seen.subtitleToggles.length).toBe(2);
      expect(p.seen.subtitleToggles[1]).toMatchObject({ callId, on: false, notice: S.transcriptionOff });
    }
    expect(S.transcriptionOff).toBe('Transcription turned off');
    const pt = fs.readFileSync(path.join(__dirname, '../../src/client/locales/pt/messages.po'), 'utf8');
    expect(pt).toContain('msgid "Transcription turned off"\nmsgstr "Transcrição desativada"');
    await expect(bruno!.transcript({ callId, text: 'oi', lang: 'pt' })).rejects.toThrow(S.subtitlesOff);
    expect(await server.db.callTranscriptLine.count({ where: { callId } })).toBe(0);
  });

  it("refuses another company's user on the call's subtitles and transcripts", async () => {
    const { callId, peers } = await callInProgress(2, { plan: { translate: 1 } });
    const other = await callInProgress(2);
    const stranger = other.people[0]!; // admin of their own company
    await expect(stranger.api('calls.setSubtitles', { callId, on: true })).rejects.toMatchObject({ message: M.notParticipant });
    await expect(stranger.api('calls.setMySubtitles', { callId, subtitles: true })).rejects.toMatchObject({ message: M.notParticipant });
    // Their call socket is joined to their own call: a line for ours is refused.
    await expect(other.peers[0]!.transcript({ callId, text: 'oi', lang: 'pt' })).rejects.toThrow(M.notParticipant);
    expect(await server.db.call.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({ subtitles: false });
    expect(peers[0]!.seen.subtitleToggles).toEqual([]);
  });
});
