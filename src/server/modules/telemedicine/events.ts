/**
 * What telemedicine pushes after a commit: a doctor's presence to the admins of their company,
 * and to each patient waiting in a company's doctors' queue their place and estimated wait (as
 * service:position does for the service queue); the doctors serving that queue refetch.
 */
import { rooms } from '../../../shared/realtime';
import { estimatedWaitMs, servedCompanyIds } from '../../../shared/domain/telemedicine';
import type { Db } from '../../db/client';
import type { Realtime } from '../../realtime';

interface PushDeps {
  db: Db;
  realtime: Realtime;
}

/** Telemedicine companies, for servedCompanyIds. */
export const teleCompanies = (db: Db) => db.telemedicineCompany.findMany({ select: { companyId: true, enabled: true, acceptsGlobalDoctors: true } });

/** The approved doctors online now who serve a company's queue, with an open tab somewhere (any instance). */
export async function doctorsServing(deps: PushDeps, companyId: string): Promise<string[]> {
  const settings = await deps.db.telemedicineCompany.findUnique({ where: { companyId } });
  if (!settings?.enabled) return [];
  const rows = await deps.db.$queryRaw<{ userId: string }[]>`
    SELECT DISTINCT e."userId"::text AS "userId" FROM "DoctorEnrolment" e JOIN "DoctorPresence" p ON p."userId" = e."userId"
    WHERE e."status" = 'APPROVED' AND p."online"
      AND (e."companyId" = ${companyId}::uuid OR (e."global" AND ${settings.acceptsGlobalDoctors}))`;
  // An "online" doctor whose every tab closed serves nobody: they do not shorten the wait shown.
  const connected = await deps.realtime.connectedUsers(rows.map((r) => r.userId));
  return rows.map((r) => r.userId).filter((id) => connected.has(id));
}

/** The mean length of the company's last 20 ended consultations, or null before the first. */
async function averageConsultationMs(db: Db, companyId: string): Promise<number | null> {
  const [row] = await db.$queryRaw<{ avg: number | null }[]>`
    SELECT avg(extract(epoch FROM ("endedAt" - "takenAt")) * 1000)::float8 AS avg FROM (
      SELECT "takenAt", "endedAt" FROM "Consultation" WHERE "companyId" = ${companyId}::uuid AND "status" = 'ENDED' AND "takenAt" IS NOT NULL
      ORDER BY "endedAt" DESC LIMIT 20) recent`;
  return row?.avg ?? null;
}

/** Every waiting patient of the company learns their place and wait; the doctors serving it refetch. */
export async function pushQueue(deps: PushDeps, companyId: string, changedConsultationId: string | null = null) {
  const [waiting, doctors, average] = await Promise.all([
    deps.db.consultation.findMany({ where: { companyId, status: 'WAITING' }, orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }], select: { id: true, patientId: true } }),
    doctorsServing(deps, companyId),
    averageConsultationMs(deps.db, companyId),
  ]);
  waiting.forEach((c, i) => {
    deps.realtime.toUser(c.patientId, 'telemedicine:position', { consultationId: c.id, position: i + 1, estimatedWaitMs: estimatedWaitMs(i + 1, doctors.length, average) });
  });
  deps.realtime.toUsers(doctors, 'telemedicine:changed', { consultationId: changedConsultationId });
}

/** A waiting consultation's place (1 = next) and estimated wait. */
export async function placeInQueue(deps: PushDeps, c: { id: string; companyId: string; requestedAt: Date }) {
  const ahead = await deps.db.consultation.count({
    where: { companyId: c.companyId, status: 'WAITING', OR: [{ requestedAt: { lt: c.requestedAt } }, { requestedAt: c.requestedAt, id: { lt: c.id } }] },
  });
  const [doctors, average] = await Promise.all([doctorsServing(deps, c.companyId), averageConsultationMs(deps.db, c.companyId)]);
  return { position: ahead + 1, estimatedWaitMs: estimatedWaitMs(ahead + 1, doctors.length, average), doctorsOnline: doctors.length };
}

/** Doctors online as patients and admins see them: the switch on, and a tab open on some instance. */
export async function onlineDoctors(deps: PushDeps, presence: { userId: string; online: boolean }[]): Promise<Set<string>> {
  const switchedOn = presence.filter((p) => p.online).map((p) => p.userId);
  return deps.realtime.connectedUsers(switchedOn);
}

/** A socket of this user opened or closed: if they are a doctor whose switch is on, their presence may have changed. */
export async function doctorSocketChanged(deps: PushDeps, userId: string) {
  const presence = await deps.db.doctorPresence.findUnique({ where: { userId }, select: { online: true } });
  if (presence?.online) await pushPresence(deps, userId);
}

/** A doctor's presence, to the rooms of the companies they are enrolled with and to their own tabs. */
export async function pushPresence(deps: PushDeps, userId: string) {
  const [presence, enrolments] = await Promise.all([
    deps.db.doctorPresence.findUnique({ where: { userId } }),
    deps.db.doctorEnrolment.findMany({ where: { userId }, select: { companyId: true, global: true, status: true } }),
  ]);
  const online = presence ? (await onlineDoctors(deps, [presence])).has(userId) : false;
  const payload = { userId, online };
  for (const e of enrolments) deps.realtime.toRoom(rooms.company(e.companyId), 'telemedicine:presence', payload);
  deps.realtime.toUser(userId, 'telemedicine:presence', payload);
  // Waits shown to patients change with the doctors online.
  const companies = await teleCompanies(deps.db);
  const served = new Set(enrolments.filter((e) => e.status === 'APPROVED').flatMap((e) => servedCompanyIds({ companyId: e.companyId, global: e.global }, companies)));
  for (const companyId of served) await pushQueue(deps, companyId);
}
