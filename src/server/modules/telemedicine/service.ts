/**
 * Consultations (spec 3 Call telemedicina, 6 "Telemedicine companies have consultation ending",
 * 7.3 doctor presence and queue): a patient of a telemedicine company asks for a consultation and
 * waits in the doctors' queue; an online approved doctor takes the next one (exactly one doctor per
 * patient, one patient per doctor at a time), which opens the consultation's conversation and a
 * video call with the telemedicine flag; the doctor ends it, which concludes both and lets the
 * patient rate it.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Consultation, User } from '../../../generated/prisma/client';
import { CALL_TYPE, CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { CONSULTATION_STATUS as S, servedCompanyIds, type EnrolmentStatus } from '../../../shared/domain/telemedicine';
import { SERVICE_MESSAGES } from '../../../shared/schemas/service';
import { TELEMEDICINE_MESSAGES as M, type configureInput, type requestConsultationInput } from '../../../shared/schemas/telemedicine';
import { Prisma } from '../../db/client';
import { endCall, NO_RECORDING_CONSENT, recordingHooks, startCall, type CallsDeps } from '../calls/service';
import { updateAccount } from '../identity/service';
import { appendInfo, assertTakingRequests, emitAll, findCompany, withNewProtocol } from '../service/shared';
import { placeInQueue, pushPresence, pushQueue, teleCompanies } from './events';
import { fail, type TeleDeps, type TeleMemberContext } from './shared';

// A consultation call records only after its patient said yes in the call UI (telemedicine.consent).
recordingHooks.consentRefusal = async (db, callId) => {
  const c = await db.consultation.findFirst({ where: { callId }, select: { recordingConsent: true } });
  return c?.recordingConsent === true ? null : NO_RECORDING_CONSENT;
};

const callsDeps = (deps: TeleDeps): CallsDeps => ({ db: deps.db, clock: deps.clock, logger: deps.logger, storage: deps.storage, config: deps.config, realtime: deps.realtime, hub: deps.calls });

// ---- the company's mode -----------------------------------------------------------------------

export async function companySettings(ctx: { db: TeleDeps['db']; company: { id: string } }) {
  const row = await ctx.db.telemedicineCompany.findUnique({ where: { companyId: ctx.company.id } });
  return { enabled: row?.enabled ?? false, acceptsGlobalDoctors: row?.acceptsGlobalDoctors ?? false };
}

/** Admin: the company becomes a telemedicine company (telemedicina) and may accept global doctors. */
export async function configure(ctx: TeleMemberContext, input: z.output<typeof configureInput>) {
  const data = { enabled: input.enabled, acceptsGlobalDoctors: input.acceptsGlobalDoctors, updatedAt: ctx.clock.now() };
  await ctx.db.telemedicineCompany.upsert({ where: { companyId: ctx.company.id }, create: { companyId: ctx.company.id, ...data }, update: data });
  await pushQueue(ctx, ctx.company.id);
  return companySettings(ctx);
}

/** /{emp}: whether the company offers consultations (its public page shows the way in). */
export async function offered(deps: Pick<TeleDeps, 'db'>, domain: string) {
  const company = await deps.db.company.findUnique({ where: { domain }, select: { id: true } });
  if (!company) return { offered: false };
  return { offered: (await companySettings({ db: deps.db, company })).enabled };
}

// ---- doctors ----------------------------------------------------------------------------------

/** The caller's approved enrolments, or the refusal: only approved doctors act as doctors. */
async function approvedDoctor(deps: TeleDeps, userId: string) {
  const enrolments = await deps.db.doctorEnrolment.findMany({ where: { userId, status: 'APPROVED' satisfies EnrolmentStatus } });
  if (enrolments.length === 0) throw fail('FORBIDDEN', M.notDoctor);
  return enrolments;
}

/** Every company whose doctors' queue this doctor serves (their own; all that opted in when global). */
async function servedBy(deps: TeleDeps, enrolments: { companyId: string; global: boolean }[]): Promise<string[]> {
  const companies = await teleCompanies(deps.db);
  return [...new Set(enrolments.flatMap((e) => servedCompanyIds(e, companies)))];
}

/** /i/doctordash's switch (doutorglobal/medico/{id}). Kept in the database so every instance agrees. */
export async function setOnline(deps: TeleDeps, user: User, online: boolean) {
  await approvedDoctor(deps, user.id);
  const now = deps.clock.now();
  await deps.db.doctorPresence.upsert({ where: { userId: user.id }, create: { userId: user.id, online, changedAt: now }, update: { online, changedAt: now } });
  await pushPresence(deps, user.id);
  return { online };
}

const patientNames = async (deps: TeleDeps, ids: string[]) => new Map((await deps.db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));

/** /i/doctordash: presence, the patients waiting in every queue served, today's consultations and the history. */
export async function dashboard(deps: TeleDeps, user: User) {
  const enrolments = await approvedDoctor(deps, user.id);
  const served = await servedBy(deps, enrolments);
  const now = deps.clock.now();
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  const [presence, waiting, mine, companies] = await Promise.all([
    deps.db.doctorPresence.findUnique({ where: { userId: user.id } }),
    deps.db.consultation.findMany({ where: { companyId: { in: served }, status: S.waiting }, orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }], take: 200 }),
    deps.db.consultation.findMany({ where: { doctorId: user.id }, orderBy: { takenAt: 'desc' }, take: 100 }),
    deps.db.company.findMany({ where: { id: { in: served } }, select: { id: true, domain: true, name: true } }),
  ]);
  const names = await patientNames(deps, [...waiting, ...mine].map((c) => c.patientId));
  // A call that rang out or ended is no call to join: the doctor may call again.
  const callIds = mine.map((c) => c.callId).filter((id): id is string => !!id);
  const running = new Set((await deps.db.call.findMany({ where: { id: { in: callIds }, concluded: false }, select: { id: true } })).map((c) => c.id));
  const show = (c: Consultation) => {
    const company = companies.find((x) => x.id === c.companyId);
    return {
      id: c.id,
      status: c.status,
      patientName: names.get(c.patientId) ?? '',
      domain: company?.domain ?? '',
      companyName: company?.name ?? '',
      conversationId: c.conversationId,
      callId: c.callId && running.has(c.callId) ? c.callId : null,
      requestedAt: c.requestedAt,
      takenAt: c.takenAt,
      endedAt: c.endedAt,
    };
  };
  return {
    online: presence?.online ?? false,
    current: presence?.consultationId ? (mine.find((c) => c.id === presence.consultationId) ?? null) && show(mine.find((c) => c.id === presence.consultationId)!) : null,
    waiting: waiting.map(show),
    today: mine.filter((c) => c.takenAt && c.takenAt >= dayStart).map(show),
    history: mine.filter((c) => c.status === S.ended && (!c.takenAt || c.takenAt < dayStart)).slice(0, 50).map(show),
    companies: companies.map((c) => ({ domain: c.domain, name: c.name })),
  };
}

// ---- the patient ------------------------------------------------------------------------------

/**
 * /{emp}: a patient asks for a consultation. Its conversation opens at once (the patient may write
 * while waiting) outside the service queues; the consultation waits in the doctors' queue. An open
 * one of the same patient in the same company is returned instead.
 */
export async function requestConsultation(deps: TeleDeps, user: User, input: z.output<typeof requestConsultationInput>) {
  const company = await findCompany(deps.db, input.domain);
  const settings = await companySettings({ db: deps.db, company });
  if (!settings.enabled) throw fail('BAD_REQUEST', M.notTelemedicine);
  assertTakingRequests(company);
  let patient = user;
  if ((user.anonymous || !user.name.trim()) && input.name) patient = await updateAccount(deps.db, user, { name: input.name });
  if (!patient.name.trim()) throw fail('BAD_REQUEST', SERVICE_MESSAGES.nameRequired);
  const open = await deps.db.consultation.findFirst({ where: { companyId: company.id, patientId: patient.id, status: { in: [S.waiting, S.inProgress] } } });
  if (open) return { ...(await describe(deps, open)), existing: true };
  const now = deps.clock.now();
  const consultation = await withNewProtocol(deps.db, async (tx, protocol) => {
    const conversation = await tx.conversation.create({
      data: {
        companyId: company.id,
        type: CONVERSATION_TYPE.single,
        state: CONVERSATION_STATE.waiting,
        title: patient.name,
        protocol,
        creatorId: patient.id,
        queueName: 'Telemedicina',
        // It waits in the doctors' queue (not the service queue: inQueue stays false), which makes
        // it a customer's request for the chat and the service rules (isServiceRequest).
        queuedAt: now,
        createdAt: now,
        participants: { create: [{ userId: patient.id, joinedAt: now }] },
      },
    });
    return tx.consultation.create({ data: { companyId: company.id, patientId: patient.id, conversationId: conversation.id, requestedAt: now } });
  });
  await pushQueue(deps, company.id, consultation.id);
  return { ...(await describe(deps, consultation)), existing: false };
}

async function describe(deps: TeleDeps, c: Consultation) {
  const [company, doctor, call] = await Promise.all([
    deps.db.company.findUniqueOrThrow({ where: { id: c.companyId }, select: { domain: true, name: true } }),
    c.doctorId ? deps.db.doctorEnrolment.findFirst({ where: { userId: c.doctorId, status: 'APPROVED' }, select: { prefix: true, speciality: true, crm: true, uf: true } }) : null,
    c.callId ? deps.db.call.findUnique({ where: { id: c.callId }, select: { concluded: true, linkKey: true } }) : null,
  ]);
  const doctorUser = c.doctorId ? await deps.db.user.findUnique({ where: { id: c.doctorId }, select: { name: true } }) : null;
  const place = c.status === S.waiting ? await placeInQueue(deps, c) : null;
  return {
    consultationId: c.id,
    conversationId: c.conversationId,
    status: c.status,
    domain: company.domain,
    companyName: company.name,
    position: place?.position ?? null,
    estimatedWaitMs: place?.estimatedWaitMs ?? null,
    doctor: doctor && doctorUser ? { name: doctorUser.name, prefix: doctor.prefix, speciality: doctor.speciality, crm: `${doctor.crm}/${doctor.uf}` } : null,
    callId: call && !call.concluded ? c.callId : null,
    recordingConsent: c.recordingConsent,
    requestedAt: c.requestedAt,
    endedAt: c.endedAt,
  };
}

/** The consultation as its patient or its doctor sees it. */
export async function consultationFor(deps: TeleDeps, user: User, consultationId: string) {
  const c = await deps.db.consultation.findUnique({ where: { id: consultationId } });
  if (!c || (c.patientId !== user.id && c.doctorId !== user.id)) throw fail('NOT_FOUND', M.consultationNotFound);
  return c;
}

export async function getConsultation(deps: TeleDeps, user: User, consultationId: string) {
  return describe(deps, await consultationFor(deps, user, consultationId));
}

/** The patient gives up waiting: the consultation and its conversation end. */
export async function leaveQueue(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  if (c.patientId !== user.id) throw fail('FORBIDDEN', M.notPatient);
  const now = deps.clock.now();
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.consultation.updateMany({ where: { id: c.id, status: S.waiting }, data: { status: S.left, endedAt: now } });
    if (count === 0) throw fail('CONFLICT', M.notWaiting);
    await tx.conversation.update({ where: { id: c.conversationId }, data: { state: CONVERSATION_STATE.concluded, concludedAt: now } });
  });
  await pushQueue(deps, c.companyId, c.id);
  return { left: true };
}

/** The patient's explicit answer to recording, stored with the consultation (and its call's recordings). */
export async function setRecordingConsent(deps: TeleDeps, user: User, consultationId: string, consent: boolean) {
  const c = await consultationFor(deps, user, consultationId);
  if (c.patientId !== user.id) throw fail('FORBIDDEN', M.notPatient);
  await deps.db.consultation.update({ where: { id: c.id }, data: { recordingConsent: consent, recordingConsentAt: deps.clock.now() } });
  if (c.doctorId) deps.realtime.toUser(c.doctorId, 'telemedicine:changed', { consultationId: c.id });
  return { recordingConsent: consent };
}

/** In the call screen: whether I am the patient of this consultation call, and my answer so far. */
export async function callConsent(deps: TeleDeps, user: User, callId: string) {
  const c = await deps.db.consultation.findFirst({ where: { callId } });
  return { isPatient: !!c && c.patientId === user.id, consent: c && c.patientId === user.id ? c.recordingConsent : null, consultationId: c && c.patientId === user.id ? c.id : null };
}

// ---- taking and ending ------------------------------------------------------------------------

interface Claimed {
  consultation: Consultation;
  appended: Awaited<ReturnType<typeof appendInfo>>;
}

/**
 * The next patient, in ONE transaction. The doctor's presence row is locked first, so one doctor
 * never holds two consultations; the oldest waiting consultation is claimed with SKIP LOCKED, so
 * doctors racing for the queue each get a different patient and nobody waits on another's lock.
 */
export async function takeNext(deps: TeleDeps, user: User) {
  const enrolments = await approvedDoctor(deps, user.id);
  const served = await servedBy(deps, enrolments);
  const now = deps.clock.now();
  const claimed = await deps.db.$transaction(async (tx): Promise<Claimed> => {
    const [presence] = await tx.$queryRaw<{ online: boolean; consultationId: string | null }[]>`
      SELECT "online", "consultationId"::text AS "consultationId" FROM "DoctorPresence" WHERE "userId" = ${user.id}::uuid FOR UPDATE`;
    if (!presence?.online) throw fail('BAD_REQUEST', M.offline);
    if (presence.consultationId) throw fail('CONFLICT', M.busy);
    if (served.length === 0) throw fail('NOT_FOUND', M.nobodyWaiting);
    const [next] = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text AS "id" FROM "Consultation"
      WHERE "status" = 'WAITING' AND "companyId" IN (${Prisma.join(served.map((id) => Prisma.sql`${id}::uuid`))})
      ORDER BY "requestedAt" ASC, "id" ASC LIMIT 1 FOR UPDATE SKIP LOCKED`;
    if (!next) throw fail('NOT_FOUND', M.nobodyWaiting);
    const consultation = await tx.consultation.update({ where: { id: next.id }, data: { status: S.inProgress, doctorId: user.id, takenAt: now } });
    await tx.doctorPresence.update({ where: { userId: user.id }, data: { consultationId: consultation.id } });
    await tx.conversation.update({
      where: { id: consultation.conversationId },
      data: { state: CONVERSATION_STATE.serving, takenById: user.id, takenAt: now, responsibleId: user.id },
    });
    await tx.participant.upsert({
      where: { conversationId_userId: { conversationId: consultation.conversationId, userId: user.id } },
      create: { id: randomUUID(), conversationId: consultation.conversationId, userId: user.id, responsible: true, joinedAt: now },
      update: { responsible: true, removed: false },
    });
    const company = await tx.company.findUniqueOrThrow({ where: { id: consultation.companyId }, select: { domain: true } });
    const appended = await appendInfo(tx, company.domain, consultation.conversationId, { info: 'taken', params: { name: user.name } }, now);
    return { consultation, appended };
  });
  const { consultation } = claimed;
  emitAll(deps.realtime, [claimed.appended]);
  const callId = await openCall(deps, user, consultation);
  deps.realtime.toUser(consultation.patientId, 'telemedicine:changed', { consultationId: consultation.id });
  await pushQueue(deps, consultation.companyId, consultation.id);
  return { ...(await describe(deps, { ...consultation, callId })), callError: callId ? null : 'The video call could not start; use the conversation' };
}

/** The consultation's video call, with the telemedicine flag (the calls module's rules, billing and media). */
async function openCall(deps: TeleDeps, doctor: User, c: Consultation): Promise<string | null> {
  try {
    const company = await deps.db.company.findUniqueOrThrow({ where: { id: c.companyId } });
    const { callId } = await startCall(callsDeps(deps), { userId: doctor.id, company }, { conversationId: c.conversationId, type: CALL_TYPE.video, telemedicine: true });
    await deps.db.consultation.update({ where: { id: c.id }, data: { callId } });
    return callId;
  } catch (err) {
    // No media on this server, no credits: the consultation goes on in its conversation.
    deps.logger.warn({ err, consultationId: c.id }, 'consultation call did not start');
    return null;
  }
}

/**
 * The doctor calls the patient again: the first call rang out unanswered (30 s), dropped, or could
 * not start. Only while the consultation is in progress and has no running call.
 */
export async function callAgain(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  if (c.doctorId !== user.id) throw fail('FORBIDDEN', M.notYourConsultation);
  if (c.status !== S.inProgress) throw fail('CONFLICT', M.notInProgress);
  const running = c.callId ? await deps.db.call.findFirst({ where: { id: c.callId, concluded: false } }) : null;
  const callId = running ? running.id : await openCall(deps, user, c);
  deps.realtime.toUser(c.patientId, 'telemedicine:changed', { consultationId: c.id });
  return { callId, callError: callId ? null : 'The video call could not start; use the conversation' };
}

/** The doctor's "end consultation": the consultation, its conversation and its call end; the patient is asked to rate. */
export async function endConsultation(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  if (c.doctorId !== user.id) throw fail('FORBIDDEN', M.notYourConsultation);
  const now = deps.clock.now();
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: c.companyId }, select: { domain: true } });
  const appended = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.consultation.updateMany({ where: { id: c.id, status: S.inProgress, doctorId: user.id }, data: { status: S.ended, endedAt: now } });
    if (count === 0) throw fail('CONFLICT', M.notInProgress);
    await tx.doctorPresence.updateMany({ where: { userId: user.id, consultationId: c.id }, data: { consultationId: null } });
    await tx.conversation.update({ where: { id: c.conversationId }, data: { state: CONVERSATION_STATE.concluded, concludedAt: now, inQueue: false } });
    return appendInfo(tx, company.domain, c.conversationId, { info: 'concluded', params: { name: user.name } }, now);
  });
  emitAll(deps.realtime, [appended]);
  if (c.callId) await endCall(callsDeps(deps), c.callId, 'endedByOwner').catch((err) => deps.logger.error({ err, callId: c.callId }, 'could not end a consultation call'));
  deps.realtime.toUsers([c.patientId, user.id], 'telemedicine:changed', { consultationId: c.id });
  deps.realtime.toUsers([c.patientId, user.id], 'conversation:updated', { conversationId: c.conversationId });
  await pushQueue(deps, c.companyId, c.id);
  return { ended: true, conversationId: c.conversationId, domain: company.domain };
}
