/**
 * Doctor enrolment (spec 3, 4, calls-errors-constants 4, 7.8, 8): a user enrols with a company as a
 * doctor (CRM, state, prefix, speciality and the CRM document); the company's admins are notified,
 * then approve, refuse or block. The document is readable by the admins of that company and the
 * doctor only, through a link that lasts a minute.
 */
import type { Request } from 'express';
import type { z } from 'zod';
import type { DoctorEnrolment, User } from '../../../generated/prisma/client';
import { ENROLMENT_ERRORS, enrolmentId, statusMoves, statusUpdate, type EnrolmentStatus } from '../../../shared/domain/telemedicine';
import { TELEMEDICINE_MESSAGES as M, type enrolInput, type setStatusInput } from '../../../shared/schemas/telemedicine';
import { declaredSize, storeBody, UploadRefused } from '../../uploads/module-files';
import { activeAdminUserIds, createNotifications, pushNotifications } from '../notifications/service';
import { findCompany } from '../service/shared';
import { onlineDoctors, pushPresence } from './events';
import { fail, HEALTH_LINK_SECONDS, type TeleDeps, type TeleMemberContext } from './shared';

/** The enrolment as screens show it. */
async function present(deps: Pick<TeleDeps, 'db' | 'realtime'>, rows: DoctorEnrolment[]) {
  const ids = rows.map((r) => r.userId);
  const [users, presence] = await Promise.all([
    deps.db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }),
    deps.db.doctorPresence.findMany({ where: { userId: { in: ids } } }),
  ]);
  const online = await onlineDoctors(deps, presence);
  return rows.map((r) => {
    const u = users.find((x) => x.id === r.userId);
    return {
      id: r.id,
      crm: r.crm,
      uf: r.uf,
      prefix: r.prefix,
      speciality: r.speciality,
      global: r.global,
      status: r.status as EnrolmentStatus,
      userId: r.userId,
      name: u?.name ?? '',
      email: u?.email ?? null,
      hasDocument: r.documentKey !== null,
      documentName: r.documentName,
      createdAt: r.createdAt,
      blockedAt: r.blockedAt,
      lastUpdate: r.lastUpdate,
      online: online.has(r.userId),
      moves: statusMoves(r.status as EnrolmentStatus),
    };
  });
}

/** A user enrols as a doctor of a company (WAITING_APROVATION); its admins are notified. */
export async function enrol(deps: TeleDeps, user: User, input: z.output<typeof enrolInput>) {
  const company = await findCompany(deps.db, input.domain);
  const id = enrolmentId(input.crm, input.uf);
  const now = deps.clock.now();
  // An enrolment of this user with this company, or an open invitation to it, is "an invitation".
  const [mine, invite] = await Promise.all([
    deps.db.doctorEnrolment.findUnique({ where: { companyId_userId: { companyId: company.id, userId: user.id } } }),
    deps.db.invite.findFirst({ where: { companyId: company.id, userId: user.id, cancelled: false, accepted: false } }),
  ]);
  if (mine || invite) throw fail('CONFLICT', ENROLMENT_ERRORS.alreadyInvite);
  try {
    const { enrolment, notifications } = await deps.db.$transaction(async (tx) => {
      const enrolment = await tx.doctorEnrolment.create({
        data: { id, companyId: company.id, userId: user.id, crm: input.crm, uf: input.uf, prefix: input.prefix, speciality: input.speciality, global: input.global, createdAt: now, lastUpdate: now },
      });
      const admins = await activeAdminUserIds(tx, company.id);
      const notifications = await createNotifications(
        tx,
        admins.map((userId) => ({
          companyId: company.id,
          userId,
          adminOnly: true,
          type: 'doctorEnrolment',
          title: 'A doctor asks to be approved',
          subtitle: `${input.prefix} ${user.name} · CRM ${id}`.trim(),
          action: `/i/settings/doctors/${encodeURIComponent(id)}`,
        })),
      );
      return { enrolment, notifications };
    });
    pushNotifications(deps.realtime, notifications);
    return (await present(deps, [enrolment]))[0]!;
  } catch (err) {
    // The id is the referee: of two enrolments of one crm|uf, the second finds it taken.
    if ((err as { code?: string }).code === 'P2002') {
      // Which unique key lost: the crm|uf, or this user's one enrolment with this company.
      const taken = await deps.db.doctorEnrolment.findUnique({ where: { id } });
      throw fail('CONFLICT', taken && taken.userId === user.id && taken.companyId === company.id ? ENROLMENT_ERRORS.alreadyInvite : taken ? ENROLMENT_ERRORS.alreadyExists : ENROLMENT_ERRORS.alreadyInvite);
    }
    throw err;
  }
}

/** The caller's own enrolments, and whether they are a global doctor (the route guard asks). */
export async function myEnrolments(deps: Pick<TeleDeps, 'db' | 'realtime'>, user: User) {
  const rows = await deps.db.doctorEnrolment.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } });
  const companies = await deps.db.company.findMany({ where: { id: { in: rows.map((r) => r.companyId) } }, select: { id: true, domain: true, name: true } });
  const listed = await present(deps, rows);
  return {
    enrolments: listed.map((e, i) => ({ ...e, domain: companies.find((c) => c.id === rows[i]!.companyId)?.domain ?? '', companyName: companies.find((c) => c.id === rows[i]!.companyId)?.name ?? '' })),
    approved: rows.some((r) => r.status === 'APPROVED'),
    globalDoctor: rows.some((r) => r.global && r.status === 'APPROVED'),
  };
}

/** /i/settings/doctors: the company's enrolments, waiting first, newest first. */
export async function listEnrolments(ctx: TeleMemberContext, status?: EnrolmentStatus) {
  const rows = await ctx.db.doctorEnrolment.findMany({ where: { companyId: ctx.company.id, ...(status && { status }) }, orderBy: [{ createdAt: 'desc' }] });
  const listed = await present(ctx, rows);
  return listed.sort((a, b) => Number(b.status === 'WAITING_APROVATION') - Number(a.status === 'WAITING_APROVATION'));
}

async function companyEnrolment(ctx: TeleMemberContext, id: string) {
  const row = await ctx.db.doctorEnrolment.findFirst({ where: { id, companyId: ctx.company.id } });
  if (!row) throw fail('NOT_FOUND', M.enrolmentNotFound);
  return row;
}

export async function getEnrolment(ctx: TeleMemberContext, id: string) {
  return (await present(ctx, [await companyEnrolment(ctx, id)]))[0]!;
}

/**
 * Approve, refuse or block (spec 7.8): every update sets lastUpdate, BLOCKED sets blockedAt. The
 * doctor hears of it; a blocked doctor goes offline at once. The status read is the status written
 * over, so two admins deciding at once cannot both win.
 */
export async function setStatus(ctx: TeleMemberContext, input: z.output<typeof setStatusInput>) {
  const row = await companyEnrolment(ctx, input.enrolmentId);
  const move = statusUpdate(row.status as EnrolmentStatus, input.status, ctx.clock.now());
  if (!move.ok) throw fail('BAD_REQUEST', move.reason === 'missingStatus' ? 'MISSING FIELD: STATUS' : M.notAllowedMove);
  const notifications = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.doctorEnrolment.updateMany({ where: { id: row.id, companyId: ctx.company.id, status: row.status }, data: move.data });
    if (count === 0) throw fail('CONFLICT', M.notAllowedMove);
    if (move.data.status !== 'APPROVED') await tx.doctorPresence.updateMany({ where: { userId: row.userId, online: true }, data: { online: false, changedAt: ctx.clock.now() } });
    // To the doctor as a person (no company: they need not be its member).
    return createNotifications(tx, [
      { userId: row.userId, type: 'doctorEnrolmentStatus', title: `Your enrolment with ${ctx.company.name}: ${move.data.status}`, subtitle: `CRM ${row.id}`, action: '/i/doctordash' },
    ]);
  });
  pushNotifications(ctx.realtime, notifications);
  if (move.data.status !== 'APPROVED') await pushPresence(ctx, row.userId);
  return getEnrolment(ctx, row.id);
}

/** A minute-long link to the CRM document: admins of the enrolment's company and the doctor only. */
export async function documentLink(deps: TeleDeps, user: User, id: string) {
  const row = await deps.db.doctorEnrolment.findUnique({ where: { id } });
  const admin =
    row && row.userId !== user.id
      ? await deps.db.member.findFirst({ where: { companyId: row.companyId, userId: user.id, isAdmin: true, inviteAccepted: true, blocked: false, removed: false } })
      : null;
  // Somebody else's enrolment does not exist for whoever may not read it.
  if (!row || (row.userId !== user.id && !admin)) throw fail('NOT_FOUND', M.enrolmentNotFound);
  if (!row.documentKey) throw fail('NOT_FOUND', M.noDocument);
  return { url: await deps.storage.presignGet(row.documentKey, HEALTH_LINK_SECONDS, { downloadName: row.documentName ?? 'crm' }), name: row.documentName, mime: row.documentMime, expiresInSeconds: HEALTH_LINK_SECONDS };
}

/** PUT /uploads/doctor/:enrolmentId?name=: the doctor sends (or replaces) the CRM document while it waits. */
export async function uploadDocument(deps: TeleDeps, user: User, req: Request, id: string, rawName: string) {
  const row = await deps.db.doctorEnrolment.findUnique({ where: { id } });
  if (!row || row.userId !== user.id) throw new UploadRefused(404, M.enrolmentNotFound, 'notFound');
  if (row.status !== 'WAITING_APROVATION') throw new UploadRefused(409, M.documentLocked, 'documentLocked');
  const size = declaredSize(req, deps.config.maxUploadBytes);
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: row.companyId }, select: { domain: true } });
  const stored = await storeBody(deps, req, size, rawName, (name) => `${company.domain}/doctors/${row.crm}-${row.uf}/${deps.clock.now().getTime()}/${name}`);
  const { count } = await deps.db.doctorEnrolment.updateMany({
    where: { id, status: 'WAITING_APROVATION' },
    data: { documentKey: stored.key, documentName: stored.name, documentMime: stored.mime, lastUpdate: deps.clock.now() },
  });
  if (count === 0) {
    await deps.storage.delete(stored.key).catch(() => undefined);
    throw new UploadRefused(409, M.documentLocked, 'documentLocked');
  }
  if (row.documentKey) await deps.storage.delete(row.documentKey).catch(() => undefined);
  return { name: stored.name, size: stored.size, mime: stored.mime };
}
