/**
 * Consultations over real HTTP against a real database (issue 19): the doctors' queue, taking the
 * next patient (race-free: 30 doctors, 100 patients), ending with the patient's rating, the
 * global doctor, clinical notes only for the consultation's doctor and patient, and the access log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { approvedDoctor, person, telemedicineCompany } from '../helpers/telemedicine';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const consultation = (id: string) => server.db.consultation.findUniqueOrThrow({ where: { id } });

describe('the doctors queue', () => {
  it('takes patients in order, opens the conversation with the doctor in it, ends it and lets the patient rate', async () => {
    const c = await telemedicineCompany(server, sockets);
    const { doctor } = await approvedDoctor(server, sockets, c);
    await doctor.open();
    const ana = await customer(server, sockets, 'Ana Paciente');
    const bruno = await customer(server, sockets, 'Bruno Paciente');
    const first = await ana.call('telemedicine.request', { domain: c.domain });
    const second = await bruno.call('telemedicine.request', { domain: c.domain });
    expect(first).toMatchObject({ status: 'WAITING', position: 1, estimatedWaitMs: 0, existing: false });
    expect(second).toMatchObject({ status: 'WAITING', position: 2, existing: false });
    expect(second.estimatedWaitMs).toBeGreaterThan(0);
    // Asking again returns the open one.
    expect(await ana.call('telemedicine.request', { domain: c.domain })).toMatchObject({ consultationId: first.consultationId, existing: true });
    // Not in the company's service queue: attendants never see consultations.
    expect((await c.admin.call('service.queue', { domain: c.domain }, 'query')).total).toBe(0);

    const dash = await doctor.call('telemedicine.dashboard', {}, 'query');
    expect(dash.waiting.map((w: { id: string }) => w.id)).toEqual([first.consultationId, second.consultationId]);

    const taken = await doctor.call('telemedicine.takeNext');
    expect(taken).toMatchObject({ consultationId: first.consultationId, status: 'IN_PROGRESS', doctor: { prefix: 'Dra.' } });
    // One patient at a time.
    expect((await doctor.attempt('telemedicine.takeNext')).error).toMatchObject({ code: 'CONFLICT', message: 'Finish your current consultation first' });
    expect(await ana.call('telemedicine.consultation', { consultationId: first.consultationId }, 'query')).toMatchObject({ status: 'IN_PROGRESS', doctor: { name: 'Dra. Paula' } });
    expect(await bruno.call('telemedicine.consultation', { consultationId: second.consultationId }, 'query')).toMatchObject({ position: 1 });
    // The doctor is in the conversation and may write in it.
    await doctor.call('customer.send', { conversationId: first.conversationId, clientId: 'd1', text: 'Bom dia, como posso ajudar?' });

    // Only the consultation's doctor ends it.
    const other = (await approvedDoctor(server, sockets, c, { name: 'Dr. Outro' })).doctor;
    expect((await other.attempt('telemedicine.end', { consultationId: first.consultationId })).error?.code).toBe('NOT_FOUND');
    expect(await doctor.call('telemedicine.end', { consultationId: first.consultationId })).toMatchObject({ ended: true, conversationId: first.conversationId });
    expect(await consultation(first.consultationId)).toMatchObject({ status: 'ENDED', doctorId: doctor.userId });
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: first.conversationId } })).state).toBe(9999);
    expect((await doctor.call('telemedicine.dashboard', {}, 'query')).today.map((t: { id: string }) => t.id)).toContain(first.consultationId);
    expect(await ana.call('customer.rate', { conversationId: first.conversationId, stars: 5 })).toMatchObject({ stars: 5 });
  });

  it('refuses consultations where the company is not in telemedicine mode, and doctors who are not approved', async () => {
    const c = await telemedicineCompany(server, sockets);
    await c.admin.call('telemedicine.configure', { domain: c.domain, enabled: false, acceptsGlobalDoctors: false });
    const ana = await customer(server, sockets, 'Ana');
    expect((await ana.attempt('telemedicine.request', { domain: c.domain })).error).toMatchObject({ message: 'This company does not offer consultations' });
    const waiting = await person(server, sockets, 'Dr. Espera');
    await waiting.call('telemedicine.enrol', { domain: c.domain, crm: '99', uf: 'AC', speciality: 'Clínica' }).catch(() => undefined);
    expect((await waiting.attempt('telemedicine.setOnline', { online: true })).error?.code).toBe('FORBIDDEN');
    expect((await waiting.attempt('telemedicine.takeNext')).error?.code).toBe('FORBIDDEN');
    expect((await waiting.attempt('telemedicine.dashboard', {}, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it('lets a global doctor serve every telemedicine company that opted in, and no other', async () => {
    const home = await telemedicineCompany(server, sockets);
    const optedIn = await telemedicineCompany(server, sockets, { acceptsGlobalDoctors: true });
    const closed = await telemedicineCompany(server, sockets, { acceptsGlobalDoctors: false });
    const { doctor } = await approvedDoctor(server, sockets, home, { global: true });
    expect(await doctor.call('telemedicine.mine', {}, 'query')).toMatchObject({ globalDoctor: true, approved: true });
    const p1 = await (await customer(server, sockets, 'P1')).call('telemedicine.request', { domain: closed.domain });
    const p2 = await (await customer(server, sockets, 'P2')).call('telemedicine.request', { domain: optedIn.domain });
    const taken = await doctor.call('telemedicine.takeNext');
    expect(taken.consultationId).toBe(p2.consultationId);
    await doctor.call('telemedicine.end', { consultationId: taken.consultationId });
    expect((await doctor.attempt('telemedicine.takeNext')).error).toMatchObject({ code: 'NOT_FOUND', message: 'No patient is waiting' });
    expect((await consultation(p1.consultationId)).status).toBe('WAITING');
  });

  it('serves 100 patients with 30 doctors racing: each patient exactly once, no doctor with two at a time', async () => {
    const c = await telemedicineCompany(server, sockets);
    const doctors = [];
    for (let i = 0; i < 30; i++) doctors.push((await approvedDoctor(server, sockets, c, { name: `Dr. ${i}` })).doctor);
    const patients = await Promise.all(Array.from({ length: 100 }, (_, i) => customer(server, sockets, `Paciente ${i}`)));
    const requested = await Promise.all(patients.map((p) => p.call('telemedicine.request', { domain: c.domain })));
    const served = new Map<string, string>();
    let doubleTakes = 0;
    await Promise.all(
      doctors.map(async (d) => {
        for (;;) {
          // Two takes at once from the same doctor: at most one may win.
          const both = await Promise.all([d.attempt('telemedicine.takeNext'), d.attempt('telemedicine.takeNext')]);
          const won = both.filter((r) => r.data);
          if (won.length > 1) doubleTakes++;
          if (won.length === 0) {
            if (both.every((r) => r.error?.message === 'No patient is waiting')) return;
            continue;
          }
          for (const w of won) {
            expect(served.has(w.data.consultationId)).toBe(false);
            served.set(w.data.consultationId, d.userId);
            await d.call('telemedicine.end', { consultationId: w.data.consultationId });
          }
        }
      }),
    );
    expect(doubleTakes).toBe(0);
    expect(served.size).toBe(100);
    const rows = await server.db.consultation.findMany({ where: { id: { in: requested.map((r) => r.consultationId) } }, orderBy: { takenAt: 'asc' } });
    expect(rows.every((r) => r.status === 'ENDED' && r.doctorId === served.get(r.id))).toBe(true);
    // Per doctor, each consultation ended before the next one was taken.
    for (const d of doctors) {
      const mine = rows.filter((r) => r.doctorId === d.userId);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.takenAt!.getTime()).toBeGreaterThanOrEqual(mine[i - 1]!.endedAt!.getTime());
    }
    expect(await server.db.doctorPresence.count({ where: { userId: { in: doctors.map((d) => d.userId) }, consultationId: { not: null } } })).toBe(0);
  }, 300_000);
});

describe('health data', () => {
  it('shows clinical notes to the consultation doctor and patient only, and logs every read for the admins', async () => {
    const c = await telemedicineCompany(server, sockets);
    const { doctor } = await approvedDoctor(server, sockets, c);
    const ana = await customer(server, sockets, 'Ana');
    const req = await ana.call('telemedicine.request', { domain: c.domain });
    await doctor.call('telemedicine.takeNext');
    await doctor.call('telemedicine.addNote', { consultationId: req.consultationId, text: 'Pressão 12/8. Sem febre.' });
    expect((await ana.attempt('telemedicine.addNote', { consultationId: req.consultationId, text: 'eu' })).error?.code).toBe('FORBIDDEN');
    for (const reader of [doctor, ana]) {
      expect((await reader.call('telemedicine.notes', { consultationId: req.consultationId }, 'query')).map((n: { text: string }) => n.text)).toEqual(['Pressão 12/8. Sem febre.']);
    }
    const otherDoctor = (await approvedDoctor(server, sockets, c, { name: 'Dr. Outro' })).doctor;
    const bia = await c.attendant('Bia');
    for (const stranger of [c.admin, bia, otherDoctor]) {
      expect((await stranger.attempt('telemedicine.notes', { consultationId: req.consultationId }, 'query')).error?.code).toBe('NOT_FOUND');
      expect((await stranger.attempt('telemedicine.recordings', { consultationId: req.consultationId }, 'query')).error?.code).toBe('NOT_FOUND');
      expect((await stranger.attempt('telemedicine.transcript', { consultationId: req.consultationId }, 'query')).error?.code).toBe('NOT_FOUND');
    }
    await ana.call('telemedicine.recordings', { consultationId: req.consultationId }, 'query');
    await doctor.call('telemedicine.transcript', { consultationId: req.consultationId }, 'query');
    const log = await c.admin.call('telemedicine.accessLog', { domain: c.domain }, 'query');
    expect(log.map((l: { userId: string; what: string }) => `${l.what}:${l.userId === doctor.userId ? 'doctor' : l.userId === ana.userId ? 'patient' : 'other'}`).sort()).toEqual(
      ['notes:doctor', 'notes:patient', 'recording:patient', 'transcript:doctor'].sort(),
    );
    expect(log.every((l: { consultationId: string }) => l.consultationId === req.consultationId)).toBe(true);
    // The log says who and when, never the notes themselves; and only to admins of the company.
    expect(JSON.stringify(log)).not.toContain('Pressão');
    expect((await bia.attempt('telemedicine.accessLog', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it("logs reads of the consultation's files and recordings through the conversation, with links that last a minute", async () => {
    const c = await telemedicineCompany(server, sockets);
    const { doctor } = await approvedDoctor(server, sockets, c);
    const ana = await customer(server, sockets, 'Ana');
    const req = await ana.call('telemedicine.request', { domain: c.domain });
    await doctor.call('telemedicine.takeNext');
    const last = await server.db.message.aggregate({ where: { conversationId: req.conversationId }, _max: { seq: true } });
    const seq = (last._max.seq ?? 0) + 1;
    const file = (n: number, isRecording: boolean) => ({
      conversationId: req.conversationId,
      seq: seq + n,
      authorId: doctor.userId,
      type: 'arquivo',
      text: isRecording ? 'consulta.webm' : 'exame.pdf',
      fileKey: `${c.domain}/${req.conversationId}/${n}/${isRecording ? 'consulta.webm' : 'exame.pdf'}`,
      fileName: isRecording ? 'consulta.webm' : 'exame.pdf',
      fileSize: BigInt(10),
      isRecording,
    });
    const exam = await server.db.message.create({ data: file(0, false) });
    const recording = await server.db.message.create({ data: file(1, true) });

    const before = Date.now();
    const links = await ana.call('customer.fileLinks', { conversationId: req.conversationId, messageIds: [exam.id] }, 'query');
    expect(links.links).toHaveLength(1);
    const lifetime = (l: { expiresAt: string | Date }) => new Date(l.expiresAt).getTime() - before;
    expect(lifetime(links)).toBeLessThanOrEqual(61_000);
    await doctor.call('customer.fileLinks', { conversationId: req.conversationId, messageIds: [recording.id] }, 'query');
    const log = await c.admin.call('telemedicine.accessLog', { domain: c.domain }, 'query');
    expect(log.map((l: { userId: string; what: string }) => `${l.what}:${l.userId === doctor.userId ? 'doctor' : 'patient'}`).sort()).toEqual(['file:patient', 'recording:doctor']);

    // A conversation that is not a consultation keeps the chat's usual links and writes no log.
    const plain = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const { conversationId } = await ana.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Ana' });
    await plain.call('service.take', { domain: c.domain, conversationId });
    const note = await server.db.message.create({ data: { ...file(0, false), conversationId, seq: 1000, authorId: plain.userId, fileKey: `${c.domain}/${conversationId}/x/a.pdf` } });
    const usual = await ana.call('customer.fileLinks', { conversationId, messageIds: [note.id] }, 'query');
    expect(lifetime(usual)).toBeGreaterThan(240_000);
    expect(await c.admin.call('telemedicine.accessLog', { domain: c.domain }, 'query')).toHaveLength(2);
  });

  it("keeps the company's admins and attendants out of a consultation's conversation", async () => {
    const c = await telemedicineCompany(server, sockets);
    const { doctor } = await approvedDoctor(server, sockets, c);
    const ana = await customer(server, sockets, 'Ana');
    const req = await ana.call('telemedicine.request', { domain: c.domain });
    await doctor.call('telemedicine.takeNext');
    await doctor.call('customer.send', { conversationId: req.conversationId, clientId: 'd1', text: 'Sintomas?' });
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const conversationId = req.conversationId;
    for (const [proc, input, kind] of [
      ['service.details', { domain: c.domain, conversationId }, 'query'],
      ['service.conclude', { domain: c.domain, conversationId }, 'mutation'],
      ['service.setTags', { domain: c.domain, conversationId, tags: ['x'] }, 'mutation'],
      ['service.timesheet', { domain: c.domain, conversationId }, 'query'],
      ['chat.messages', { domain: c.domain, conversationId }, 'query'],
    ] as const) {
      for (const someone of [c.admin, bia]) {
        const refused = await someone.attempt(proc, input, kind);
        expect(refused.error?.code, `${proc}`).toMatch(/NOT_FOUND|FORBIDDEN/);
        expect(refused.data).toBeUndefined();
      }
    }
    expect((await consultation(req.consultationId)).status).toBe('IN_PROGRESS');
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).tags).toEqual([]);
  });

  it('stores the patient consent to record, by the patient only', async () => {
    const c = await telemedicineCompany(server, sockets);
    const { doctor } = await approvedDoctor(server, sockets, c);
    const ana = await customer(server, sockets, 'Ana');
    const req = await ana.call('telemedicine.request', { domain: c.domain });
    await doctor.call('telemedicine.takeNext');
    expect((await doctor.attempt('telemedicine.consent', { consultationId: req.consultationId, consent: true })).error?.code).toBe('FORBIDDEN');
    await ana.call('telemedicine.consent', { consultationId: req.consultationId, consent: true });
    const row = await consultation(req.consultationId);
    expect(row.recordingConsent).toBe(true);
    expect(row.recordingConsentAt).not.toBeNull();
    await until(async () => (await doctor.call('telemedicine.recordings', { consultationId: req.consultationId }, 'query')).consent === true);
  });
});

describe('the public page', () => {
  it('tells anyone whether a company offers consultations, and nothing else', async () => {
    const c = await telemedicineCompany(server, sockets);
    const res = await fetch(`${server.url}/trpc/telemedicine.offered?input=${encodeURIComponent(JSON.stringify({ json: { domain: c.domain } }))}`);
    expect(((await res.json()) as { result: { data: { json: unknown } } }).result.data.json).toEqual({ offered: true });
    await c.admin.call('telemedicine.configure', { domain: c.domain, enabled: false, acceptsGlobalDoctors: false });
    expect(await (await customer(server, sockets, 'X')).call('telemedicine.offered', { domain: c.domain }, 'query')).toEqual({ offered: false });
    expect(await (await customer(server, sockets, 'Y')).call('telemedicine.offered', { domain: 'nosuchcompany' }, 'query')).toEqual({ offered: false });
  });
});
