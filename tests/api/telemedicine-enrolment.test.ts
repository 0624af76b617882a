/**
 * Doctor enrolment over real HTTP against a real database (issue 19): the spec's three error
 * texts, the status transitions (blockedAt, lastUpdate), the admins' notifications and who may
 * read the CRM document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { nextCrm, person, putFile, telemedicineCompany } from '../helpers/telemedicine';
import { until } from '../helpers/service';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const enrolment = (id: string) => server.db.doctorEnrolment.findUniqueOrThrow({ where: { id } });

describe('enrolling as a doctor', () => {
  it('creates crm|uf WAITING_APROVATION and notifies every admin of the company, live', async () => {
    const c = await telemedicineCompany(server, sockets);
    const adminSocket = await c.admin.open();
    const pushed: { type?: string; action?: string }[] = [];
    adminSocket.on('notification:new', (n) => pushed.push(n));
    const otherAdmin = await c.attendant('Outro Admin', { isAdmin: true });
    const plainMember = await c.attendant('Bia Atendente');
    const doctor = await person(server, sockets, 'Paula Médica');
    const crm = nextCrm();
    const created = await doctor.call('telemedicine.enrol', { domain: c.domain, crm, uf: 'RJ', prefix: 'Dra.', speciality: 'Pediatria' });
    expect(created).toMatchObject({ id: `${crm}|RJ`, crm, uf: 'RJ', prefix: 'Dra.', speciality: 'Pediatria', status: 'WAITING_APROVATION', userId: doctor.userId, blockedAt: null });
    const notified = await server.db.notification.findMany({ where: { type: 'doctorEnrolment', companyId: c.company.id } });
    expect(notified.map((n) => n.userId).sort()).toEqual([c.admin.userId, otherAdmin.userId].sort());
    expect(notified.map((n) => n.userId)).not.toContain(plainMember.userId);
    await until(() => pushed.some((n) => n.type === 'doctorEnrolment' && n.action === `/i/settings/doctors/${encodeURIComponent(`${crm}|RJ`)}`));
  });

  it("refuses a second enrolment of the same user with 'Already invite' and a taken crm|uf with 'Already exists'", async () => {
    const c = await telemedicineCompany(server, sockets);
    const other = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    const crm = nextCrm();
    await doctor.call('telemedicine.enrol', { domain: c.domain, crm, uf: 'SP', speciality: 'Cardiologia' });
    expect((await doctor.attempt('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'SP', speciality: 'Cardiologia' })).error).toMatchObject({ code: 'CONFLICT', message: 'Already invite' });
    // The id is platform-wide: the same registration cannot enrol anywhere else, by anyone.
    const impostor = await person(server, sockets, 'Impostor');
    expect((await impostor.attempt('telemedicine.enrol', { domain: other.domain, crm, uf: 'SP', speciality: 'Cardiologia' })).error).toMatchObject({ code: 'CONFLICT', message: 'Already exists' });
    // Another state is another registration.
    expect((await impostor.attempt('telemedicine.enrol', { domain: other.domain, crm, uf: 'MG', speciality: 'Cardiologia' })).data).toMatchObject({ id: `${crm}|MG` });
    expect(await server.db.doctorEnrolment.count({ where: { crm } })).toBe(2);
  });

  it("refuses with 'Already invite' a user with an open invitation to the company", async () => {
    const c = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Convidada');
    await server.db.invite.create({ data: { companyId: c.company.id, userId: doctor.userId } });
    expect((await doctor.attempt('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'BA', speciality: 'Dermatologia' })).error).toMatchObject({ message: 'Already invite' });
  });

  it('refuses bad input with a clear message: a state outside the 27, a CRM with letters, no speciality', async () => {
    const c = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    for (const bad of [{ uf: 'XX', crm: '123' }, { uf: 'SP', crm: '12a3' }]) {
      const res = await doctor.attempt('telemedicine.enrol', { domain: c.domain, speciality: 'Clínica', ...bad });
      expect(res.error?.code).toBe('BAD_REQUEST');
    }
    expect((await doctor.attempt('telemedicine.enrol', { domain: c.domain, crm: '1', uf: 'SP' })).error?.code).toBe('BAD_REQUEST');
    expect(await server.db.doctorEnrolment.count({ where: { userId: doctor.userId } })).toBe(0);
  });
});

describe('approving, refusing and blocking', () => {
  it("answers 'MISSING FIELD: STATUS' without a status; every update sets lastUpdate, BLOCKED sets blockedAt", async () => {
    const c = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    const { id } = await doctor.call('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'PE', speciality: 'Clínica' });
    expect((await c.admin.attempt('telemedicine.setStatus', { domain: c.domain, enrolmentId: id })).error).toMatchObject({ code: 'BAD_REQUEST', message: 'MISSING FIELD: STATUS' });
    const before = await enrolment(id);
    expect(await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'APPROVED' })).toMatchObject({ status: 'APPROVED', blockedAt: null });
    const approved = await enrolment(id);
    expect(approved.lastUpdate.getTime()).toBeGreaterThanOrEqual(before.lastUpdate.getTime());
    await doctor.call('telemedicine.setOnline', { online: true });
    const blocked = await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'BLOCKED' });
    expect(blocked.status).toBe('BLOCKED');
    expect((await enrolment(id)).blockedAt).not.toBeNull();
    // A blocked doctor is offline at once and may no longer act as one.
    expect((await server.db.doctorPresence.findUniqueOrThrow({ where: { userId: doctor.userId } })).online).toBe(false);
    expect((await doctor.attempt('telemedicine.setOnline', { online: true })).error).toMatchObject({ code: 'FORBIDDEN', message: 'Only an approved doctor can do this' });
    // Unblocking clears blockedAt.
    await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'APPROVED' });
    expect((await enrolment(id)).blockedAt).toBeNull();
    // The doctor heard of each decision.
    expect(await server.db.notification.count({ where: { userId: doctor.userId, type: 'doctorEnrolmentStatus' } })).toBe(3);
  });

  it('refuses moves the rules do not allow, and a move back to waiting', async () => {
    const c = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    const { id } = await doctor.call('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'PE', speciality: 'Clínica' });
    await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'REFUSED' });
    expect((await c.admin.attempt('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'WAITING_APROVATION' })).error?.code).toBe('BAD_REQUEST');
    expect((await c.admin.attempt('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'REFUSED' })).error?.code).toBe('BAD_REQUEST');
    expect((await enrolment(id)).status).toBe('REFUSED');
  });

  it("lists only the company's enrolments to its admins; a member or another company's admin is refused", async () => {
    const c = await telemedicineCompany(server, sockets);
    const other = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    const { id } = await doctor.call('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'AM', speciality: 'Clínica' });
    expect((await c.admin.call('telemedicine.enrolments', { domain: c.domain }, 'query')).map((e: { id: string }) => e.id)).toEqual([id]);
    expect(await other.admin.call('telemedicine.enrolments', { domain: other.domain }, 'query')).toEqual([]);
    // Another company's admin naming this enrolment through their own company finds nothing.
    expect((await other.admin.attempt('telemedicine.setStatus', { domain: other.domain, enrolmentId: id, status: 'APPROVED' })).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('telemedicine.enrolments', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    const bia = await c.attendant('Bia');
    expect((await bia.attempt('telemedicine.enrolments', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await enrolment(id)).status).toBe('WAITING_APROVATION');
  });
});

describe('the CRM document', () => {
  it('is stored through the uploads and readable only by the doctor and the admins of that company, through a short link', async () => {
    const c = await telemedicineCompany(server, sockets);
    const other = await telemedicineCompany(server, sockets);
    const doctor = await person(server, sockets, 'Paula');
    const { id } = await doctor.call('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'RS', speciality: 'Clínica' });
    const bytes = Buffer.from('%PDF-1.4 CRM de Paula');
    expect((await putFile(server, `/uploads/doctor/${encodeURIComponent(id)}?name=crm.pdf`, doctor.cookie, bytes)).status).toBe(200);
    // Nobody else may send it.
    expect((await putFile(server, `/uploads/doctor/${encodeURIComponent(id)}?name=x.pdf`, c.admin.cookie, bytes)).status).toBe(404);

    for (const reader of [doctor, c.admin]) {
      const link = await reader.call('telemedicine.document', { enrolmentId: id }, 'query');
      expect(link.expiresInSeconds).toBeLessThanOrEqual(60);
      const res = await fetch(link.url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const bia = await c.attendant('Bia');
    for (const stranger of [other.admin, bia, await person(server, sockets, 'Ninguém')]) {
      expect((await stranger.attempt('telemedicine.document', { enrolmentId: id }, 'query')).error?.code, stranger.userId).toBe('NOT_FOUND');
    }
    // Once decided, the document is what the admins decided on.
    await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: id, status: 'APPROVED' });
    expect((await putFile(server, `/uploads/doctor/${encodeURIComponent(id)}?name=other.pdf`, doctor.cookie, bytes)).status).toBe(409);
  });
});
