/**
 * Telemedicine live, on two instances sharing one database and the PostgreSQL adapter (issue 19):
 * a doctor's presence reaches the admins on the other instance, waiting patients see their place
 * and estimated wait move as doctors take and patients leave, and taking a patient opens a video
 * call with the telemedicine flag (a real mediasoup worker) that rings a Telegram patient too.
 */
import { randomBytes } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { createTestDatabase } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';
import { customer, personFor, record, until, type ClientSocket, type Person } from '../helpers/service';
import { approvedDoctor, telemedicineCompany } from '../helpers/telemedicine';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
let a: TestServer;
let b: TestServer;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const key = `tele-${randomBytes(4).toString('hex')}`;
  const env = (instance: string) => ({
    SOCKET_ADAPTER: 'postgres',
    SOCKET_ADAPTER_KEY: key,
    INSTANCE_ID: instance,
    ...(bin && instance === 'a' && { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' }),
  });
  a = await startTestServer({ databaseUrl, env: env('a') });
  b = await startTestServer({ databaseUrl, env: env('b') });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await b?.close();
  await a?.close();
});

/** The same person through instance B (the load balancer sent their other requests there). */
const onB = (p: Person) => personFor(b, p.userId, p.cookie, sockets);
async function tabOn(server: TestServer, p: Person): Promise<ClientSocket> {
  const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie: p.cookie }, reconnection: false });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('session:ready', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

describe('doctor presence across two instances', () => {
  it('reaches the admins and the waiting patients on the other instance', async () => {
    const c = await telemedicineCompany(a, sockets);
    const adminTab = await tabOn(b, c.admin);
    const presence = record(adminTab, 'telemedicine:presence');
    const patient = onB(await customer(a, sockets, 'Ana'));
    const patientTab = await tabOn(b, patient);
    const positions = record(patientTab, 'telemedicine:position');
    const req = await patient.call('telemedicine.request', { domain: c.domain });
    // Nobody online yet: the wait is unknown, not invented.
    expect(req.estimatedWaitMs).toBeNull();
    const { doctor } = await approvedDoctor(a, sockets, c, { online: false });
    const doctorTab = await tabOn(a, doctor);
    await doctor.call('telemedicine.setOnline', { online: true });
    await until(() => presence.some((p) => p.userId === doctor.userId && p.online));
    await until(() => positions.some((p) => p.consultationId === req.consultationId && p.estimatedWaitMs === 0));
    // Read through B, the doctor on A counts as online.
    expect((await onB(c.admin).call('telemedicine.enrolments', { domain: c.domain }, 'query'))[0]).toMatchObject({ online: true });

    // The doctor closes their last tab without switching off: offline for everyone, at once; the
    // waiting patient's estimate is unknown again. Opening a tab brings them back.
    presence.length = 0;
    positions.length = 0;
    doctorTab.disconnect();
    await until(() => presence.some((p) => p.userId === doctor.userId && !p.online));
    await until(() => positions.some((p) => p.consultationId === req.consultationId && p.estimatedWaitMs === null));
    expect((await onB(c.admin).call('telemedicine.enrolments', { domain: c.domain }, 'query'))[0]).toMatchObject({ online: false });
    presence.length = 0;
    await tabOn(b, doctor);
    await until(() => presence.some((p) => p.userId === doctor.userId && p.online));
    expect((await c.admin.call('telemedicine.enrolments', { domain: c.domain }, 'query'))[0]).toMatchObject({ online: true });

    presence.length = 0;
    await doctor.call('telemedicine.setOnline', { online: false });
    await until(() => presence.some((p) => p.userId === doctor.userId && !p.online));
  });
});

describe('the doctors queue, live', () => {
  it('moves every waiting patient up when a doctor takes one and when a patient leaves', async () => {
    const c = await telemedicineCompany(a, sockets);
    const { doctor } = await approvedDoctor(a, sockets, c);
    await tabOn(a, doctor);
    const patients = [];
    for (const name of ['P1', 'P2', 'P3']) {
      const p = onB(await customer(a, sockets, name));
      const seen = record(await tabOn(b, p), 'telemedicine:position');
      patients.push({ p, seen, req: await p.call('telemedicine.request', { domain: c.domain }) });
    }
    const [, p2, p3] = patients;
    const last = (x: typeof p2) => x!.seen.filter((s) => s.consultationId === x!.req.consultationId).at(-1)?.position;
    await until(() => last(p3) === 3);
    await doctor.call('telemedicine.takeNext');
    await until(() => last(p2) === 1 && last(p3) === 2);
    await p2!.p.call('telemedicine.leave', { consultationId: p2!.req.consultationId });
    await until(() => last(p3) === 1);
  });
});

describe.skipIf(!bin)(`the consultation call${bin ? '' : ' [skipped: no mediasoup worker binary]'}`, () => {
  it('opens a video call with the telemedicine flag that rings even a Telegram patient, and ending concludes it', async () => {
    const c = await telemedicineCompany(a, sockets);
    await a.db.company.update({ where: { id: c.company.id }, data: { billingExempt: true } });
    const { doctor } = await approvedDoctor(a, sockets, c);
    const patient = await customer(a, sockets, 'Tania Telegram');
    const tab = await tabOn(a, patient);
    const signals = record(tab, 'call:signal');
    const changed = record(tab, 'telemedicine:changed');
    const req = await patient.call('telemedicine.request', { domain: c.domain });
    // The patient reaches the company through Telegram: an ordinary call would be refused.
    await a.db.participant.updateMany({ where: { conversationId: req.conversationId, userId: patient.userId }, data: { telegram: true } });
    const taken = await doctor.call('telemedicine.takeNext');
    expect(taken.callId).toBeTruthy();
    expect(taken.callError).toBeNull();
    const call = await a.db.call.findUniqueOrThrow({ where: { id: taken.callId } });
    expect(call).toMatchObject({ telemedicine: true, type: 2, conversationId: req.conversationId, ownerId: doctor.userId });
    await until(() => signals.some((s) => s.cmd === 'create' && s.callId === taken.callId));
    // No recording before the patient consents; after it, the call's ordinary rules decide.
    expect((await doctor.attempt('calls.startRecording', { callId: taken.callId })).error).toMatchObject({ code: 'FORBIDDEN', message: 'The patient has not consented to recording' });
    // The call screen asks its patient (and only its patient) through the call.
    expect(await patient.call('telemedicine.callConsent', { callId: taken.callId }, 'query')).toEqual({ isPatient: true, consent: null, consultationId: req.consultationId });
    expect(await doctor.call('telemedicine.callConsent', { callId: taken.callId }, 'query')).toMatchObject({ isPatient: false, consent: null });
    expect((await a.db.call.findUniqueOrThrow({ where: { id: taken.callId } })).telemedicine).toBe(true);
    await patient.call('telemedicine.consent', { consultationId: req.consultationId, consent: true });
    expect((await patient.call('telemedicine.callConsent', { callId: taken.callId }, 'query')).consent).toBe(true);
    expect((await doctor.attempt('calls.startRecording', { callId: taken.callId })).error?.message).not.toBe('The patient has not consented to recording');
    await doctor.call('telemedicine.end', { consultationId: req.consultationId });
    expect((await a.db.call.findUniqueOrThrow({ where: { id: taken.callId } })).concluded).toBe(true);
    await until(() => changed.some((x) => x.consultationId === req.consultationId));
    expect(await patient.call('telemedicine.consultation', { consultationId: req.consultationId }, 'query')).toMatchObject({ status: 'ENDED', callId: null });
  });
});

describe.skipIf(!bin)(`calling the patient again${bin ? '' : ' [skipped: no mediasoup worker binary]'}`, () => {
  it('opens a new call when the first one is over, and only for the consultation doctor', async () => {
    const c = await telemedicineCompany(a, sockets);
    await a.db.company.update({ where: { id: c.company.id }, data: { billingExempt: true } });
    const { doctor } = await approvedDoctor(a, sockets, c);
    const patient = await customer(a, sockets, 'Ana');
    const req = await patient.call('telemedicine.request', { domain: c.domain });
    const first = (await doctor.call('telemedicine.takeNext')).callId as string;
    // While it runs, calling again answers the same call.
    expect((await doctor.call('telemedicine.callAgain', { consultationId: req.consultationId })).callId).toBe(first);
    await doctor.call('calls.end', { callId: first });
    expect((await doctor.call('telemedicine.dashboard', {}, 'query')).current.callId).toBeNull();
    const again = await doctor.call('telemedicine.callAgain', { consultationId: req.consultationId });
    expect(again.callId).toBeTruthy();
    expect(again.callId).not.toBe(first);
    expect(await a.db.call.findUniqueOrThrow({ where: { id: again.callId } })).toMatchObject({ telemedicine: true, concluded: false });
    expect((await patient.attempt('telemedicine.callAgain', { consultationId: req.consultationId })).error?.code).toBe('FORBIDDEN');
    await doctor.call('telemedicine.end', { consultationId: req.consultationId });
  });
});
