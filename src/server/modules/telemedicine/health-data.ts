/**
 * Health data of a consultation (LGPD / HIPAA): clinical notes, the call's recordings and its
 * transcript. Readable by the consultation's doctor and its patient only — never by the company's
 * other attendants or admins — and every read is written to an access log the admins audit.
 * Recordings are served only through links that last a minute.
 */
import type { User } from '../../../generated/prisma/client';
import { TELEMEDICINE_MESSAGES as M } from '../../../shared/schemas/telemedicine';
import { healthDataHooks } from '../chat/files';
import { consultationFor } from './service';
import { fail, HEALTH_LINK_SECONDS, type TeleDeps, type TeleMemberContext } from './shared';

type What = 'notes' | 'recording' | 'transcript' | 'file';

async function logAccess(deps: TeleDeps, c: { id: string; companyId: string }, userId: string, what: What) {
  await deps.db.healthDataAccess.create({ data: { companyId: c.companyId, consultationId: c.id, userId, what, at: deps.clock.now() } });
}

// The consultation's files and recordings reached through the chat, the customer side or the call
// screen are health data too: logged before the link is made, and the link lasts a minute.
healthDataHooks.fileRead = async (db, read) => {
  const c = await db.consultation.findUnique({ where: { conversationId: read.conversationId }, select: { id: true, companyId: true } });
  if (!c) return null;
  await db.healthDataAccess.create({ data: { companyId: c.companyId, consultationId: c.id, userId: read.userId, what: read.what, at: read.at } });
  return HEALTH_LINK_SECONDS;
};

/** The doctor writes a note during (or right after) the consultation. */
export async function addNote(deps: TeleDeps, user: User, consultationId: string, text: string) {
  const c = await consultationFor(deps, user, consultationId);
  if (c.doctorId !== user.id) throw fail('FORBIDDEN', M.notYourConsultation);
  const note = await deps.db.clinicalNote.create({ data: { consultationId: c.id, companyId: c.companyId, authorId: user.id, text, createdAt: deps.clock.now() } });
  deps.realtime.toUsers([c.patientId, user.id], 'telemedicine:changed', { consultationId: c.id });
  return { id: note.id, text: note.text, createdAt: note.createdAt };
}

/** The notes, for the doctor and the patient; the read is logged first (no log, no data). */
export async function listNotes(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  await logAccess(deps, c, user.id, 'notes');
  const notes = await deps.db.clinicalNote.findMany({ where: { consultationId: c.id }, orderBy: { createdAt: 'asc' } });
  const authors = new Map((await deps.db.user.findMany({ where: { id: { in: notes.map((n) => n.authorId) } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  return notes.map((n) => ({ id: n.id, text: n.text, createdAt: n.createdAt, authorName: authors.get(n.authorId) ?? '' }));
}

/** The consultation call's recordings, each a minute-long link, with the patient's consent they were made under. */
export async function recordings(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  await logAccess(deps, c, user.id, 'recording');
  if (!c.callId) return { consent: c.recordingConsent, recordings: [] };
  const rows = await deps.db.callRecording.findMany({ where: { callId: c.callId, removedAt: null }, orderBy: { startedAt: 'asc' } });
  return {
    consent: c.recordingConsent,
    recordings: await Promise.all(
      rows.map(async (r) => ({ id: r.id, name: r.fileName, durationMs: r.durationMs, url: await deps.storage.presignGet(r.fileKey, HEALTH_LINK_SECONDS, { downloadName: r.fileName }) })),
    ),
  };
}

export async function transcript(deps: TeleDeps, user: User, consultationId: string) {
  const c = await consultationFor(deps, user, consultationId);
  await logAccess(deps, c, user.id, 'transcript');
  if (!c.callId) return [];
  const lines = await deps.db.callTranscriptLine.findMany({ where: { callId: c.callId }, orderBy: { createdAt: 'asc' }, take: 2000 });
  return lines.map((l) => ({ userName: l.userName, text: l.text, at: l.createdAt }));
}

/** Admins: who read which consultation's health data, when — never the data itself. */
export async function accessLog(ctx: TeleMemberContext) {
  const rows = await ctx.db.healthDataAccess.findMany({ where: { companyId: ctx.company.id }, orderBy: { at: 'desc' }, take: 500 });
  const names = new Map((await ctx.db.user.findMany({ where: { id: { in: rows.map((r) => r.userId) } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  return rows.map((r) => ({ id: r.id, consultationId: r.consultationId, userId: r.userId, userName: names.get(r.userId) ?? '', what: r.what, at: r.at }));
}
