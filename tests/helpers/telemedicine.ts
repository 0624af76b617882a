import { customer, personFor, serviceCompany, type ClientSocket, type Person } from './service';
import { createUser, signIn } from './fixtures';
import type { TestServer } from './server';

let seq = 0;
/** A fresh CRM number per call, so enrolments of parallel tests never clash. */
export const nextCrm = () => `${(Date.now() % 1_000_000) * 100 + (++seq % 100)}`;

/** A company in telemedicine mode with its admin (and the service company's helpers). */
export async function telemedicineCompany(server: TestServer, sockets: ClientSocket[], opts: { acceptsGlobalDoctors?: boolean } = {}) {
  const c = await serviceCompany(server, sockets);
  await c.admin.call('telemedicine.configure', { domain: c.domain, enabled: true, acceptsGlobalDoctors: opts.acceptsGlobalDoctors ?? false });
  return c;
}

/** A signed-in person who is nobody's member yet. */
export async function person(server: TestServer, sockets: ClientSocket[], name: string): Promise<Person> {
  const user = await createUser(server.db, { name });
  return personFor(server, user.id, await signIn(server.db, user.id), sockets);
}

/** A doctor enrolled with the company and approved by its admin (online unless told otherwise). */
export async function approvedDoctor(server: TestServer, sockets: ClientSocket[], c: { domain: string; admin: Person }, opts: { name?: string; global?: boolean; online?: boolean } = {}) {
  const doctor = await person(server, sockets, opts.name ?? 'Dra. Paula');
  const enrolment = await doctor.call('telemedicine.enrol', { domain: c.domain, crm: nextCrm(), uf: 'SP', prefix: 'Dra.', speciality: 'Clínica geral', global: opts.global ?? false });
  await c.admin.call('telemedicine.setStatus', { domain: c.domain, enrolmentId: enrolment.id, status: 'APPROVED' });
  if (opts.online !== false) await doctor.call('telemedicine.setOnline', { online: true });
  return { doctor, enrolmentId: enrolment.id as string };
}

export { customer };

/** PUT a raw body to an upload path, as the browser does. */
export async function putFile(server: TestServer, path: string, cookie: string, body: Buffer, type = 'application/pdf') {
  const res = await fetch(`${server.url}${path}`, { method: 'PUT', headers: { cookie, 'content-type': type, 'content-length': String(body.length) }, body: new Uint8Array(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
