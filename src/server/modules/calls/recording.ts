/**
 * Recording a call (viduRecStart / viduRecStop in the spec). The state is Call.rec: 1 idle,
 * 2 changing, 3 recording, moved only by conditional updates, so two clicks (or two instances)
 * cannot both start or stop. The media side is media/recorder.ts; the finished file goes to the
 * object store and a recording message (isRecording, durationMs) is posted in the conversation.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { TRPCError } from '@trpc/server';
import { BILLING_TICK_MS, RECORDING_STATE } from '../../../shared/constants';
import { allowsCallRecording, planValue } from '../../../shared/domain/company';
import { CALL_MESSAGES as M, joinRefusal } from '../../../shared/domain/calls';
import { recordingFileName, recordingStartRefusal, recordingStopRefusal, type RecordingState } from '../../../shared/domain/recording';
import { FfmpegUnavailableError, Recorder } from '../../media/recorder';
import type { Room } from '../../media/room';
import { chargeRecording } from '../billing/service';
import { companyStorageUsage, fileLinkSeconds, UPLOAD_MESSAGES } from '../chat/files';
import { appendMessage, emitMessage, messagesWithFile, removeMessageAsServer } from '../chat/service';
import { timerKeys } from './hub';
import { endCall, endHooks, NO_RECORDING_CONSENT, pushState, recordingHooks, type CallsDeps } from './service';

/** `cause` keeps a server-side failure's own words: without one the error formatter hides the message. */
const fail = (code: TRPCError['code'], message: string, cause?: unknown): never => {
  throw new TRPCError({ code, message, cause: cause instanceof Error ? cause : undefined });
};

/** Where ffmpeg is; tests point it elsewhere to make a start fail. */
export const recorderOptions: { ffmpegPath?: string } = {};

export async function startRecording(deps: CallsDeps, userId: string, callId: string) {
  const { db } = deps;
  const call = await db.call.findUnique({ where: { id: callId }, include: { company: true } });
  const refusal = joinRefusal(call);
  if (refusal) fail(call ? 'BAD_REQUEST' : 'NOT_FOUND', refusal);
  // A consultation is health data: no recording without the patient's consent (telemedicine module).
  if (call!.telemedicine) {
    const why = recordingHooks.consentRefusal ? await recordingHooks.consentRefusal(db, callId) : NO_RECORDING_CONSENT;
    if (why) fail('FORBIDDEN', why);
  }
  const member = await db.member.findUnique({ where: { companyId_userId: { companyId: call!.companyId, userId } } });
  const isAdmin = !!member && member.isAdmin && member.inviteAccepted && !member.blocked && !member.removed;
  const refused = recordingStartRefusal({
    isOwner: call!.ownerId === userId,
    isAdmin,
    planRecorder: planValue(call!.company.plan, 'voipRecorder'),
    // The call's canRec, and the company's setting now: an admin turning it off stops new recordings.
    canRec: call!.canRec && allowsCallRecording(call!.company.settings),
    state: call!.rec as RecordingState,
  });
  if (refused) fail(refused === M.recordingBusy || refused === M.alreadyRecording ? 'CONFLICT' : 'FORBIDDEN', refused);
  // Recordings are stored like chat files and count against the plan's storage ('size'): with no
  // space left none starts (the file's bytes are added to the conversation when it is posted).
  if ((await companyStorageUsage(db, call!.companyId)).freeBytes <= 0) fail('FORBIDDEN', UPLOAD_MESSAGES.quota);
  const room = deps.hub.rooms?.get(callId);
  if (!room) fail('PRECONDITION_FAILED', M.roomGone);

  // 1 -> 2: only one start wins.
  const claimed = await db.call.updateMany({
    where: { id: callId, rec: RECORDING_STATE.idle, concluded: false },
    data: { rec: RECORDING_STATE.changing, recorderId: userId, recStatus: 'starting' },
  });
  if (claimed.count === 0) fail('CONFLICT', M.recordingBusy);
  await pushState(deps, callId);

  let recorder: Recorder;
  try {
    recorder = await startRecorder(deps, room!, userId);
  } catch (err) {
    deps.logger.error({ err, callId }, 'recording failed to start');
    // 2 -> 1: the failure reverts and says so.
    await db.call.updateMany({
      where: { id: callId, rec: RECORDING_STATE.changing },
      data: { rec: RECORDING_STATE.idle, recorderId: null, recStatus: 'startFailed' },
    });
    await pushState(deps, callId);
    return fail('INTERNAL_SERVER_ERROR', M.recordingFailed, err);
  }
  const now = deps.clock.now();
  deps.hub.recorders.set(callId, recorder);
  // 2 -> 3.
  await db.call.update({
    where: { id: callId },
    data: { rec: RECORDING_STATE.recording, recStatus: null, recStartedAt: now, recordingBilledUntil: now },
  });
  scheduleRecordingTick(deps, callId);
  await pushState(deps, callId);
  return { recording: true };
}

/** How many times a recording start is tried before the failure is told. */
const RECORDER_START_ATTEMPTS = 3;

/**
 * Recorder.start, tried again when it fails for a reason of the moment: ffmpeg's UDP ports are
 * found free, then bound by ffmpeg, and another process (another recording on a busy host) can
 * take one in between; a host short of CPU can make ffmpeg miss its listening deadline. A failed
 * start leaves nothing running (Recorder.start cleans up), so trying again is safe. An ffmpeg that
 * cannot be run at all is not tried again.
 */
async function startRecorder(deps: CallsDeps, room: Room, preferUserId: string): Promise<Recorder> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await Recorder.start(room, { preferUserId, logger: deps.logger, ffmpegPath: recorderOptions.ffmpegPath });
    } catch (err) {
      if (attempt >= RECORDER_START_ATTEMPTS || err instanceof FfmpegUnavailableError) throw err;
      deps.logger.warn({ err, callId: room.callId, attempt }, 'recording start failed; trying again');
    }
  }
}

/** As the participants' ticks (service.ts, scheduleBillingTick): the next one is set before this one's writes. */
function scheduleRecordingTick(deps: CallsDeps, callId: string): void {
  const key = timerKeys.recordingBilling(callId);
  deps.hub.setTimer(key, BILLING_TICK_MS, async () => {
    scheduleRecordingTick(deps, callId);
    const outcome = await chargeRecording(deps.db, callId, deps.clock.now());
    if (outcome.status === 'insufficient') {
      await endCall(deps, callId, 'insufficientBalance');
      return;
    }
    if (!deps.hub.recorders.has(callId)) deps.hub.clearTimer(key);
  });
}

export async function stopRecording(deps: CallsDeps, userId: string, callId: string) {
  const { db } = deps;
  const call = await db.call.findUnique({ where: { id: callId } });
  const refusal = recordingStopRefusal({
    userId,
    recorderId: call?.recorderId ?? null,
    state: (call?.rec ?? RECORDING_STATE.idle) as RecordingState,
    roomExists: !!call && !call.concluded && !!deps.hub.rooms?.get(callId) && deps.hub.recorders.has(callId),
  });
  if (refusal) fail(refusal === M.recordingBusy ? 'CONFLICT' : 'FORBIDDEN', refusal);
  // 3 -> 2: only the recorder, once.
  const claimed = await db.call.updateMany({
    where: { id: callId, rec: RECORDING_STATE.recording, recorderId: userId },
    data: { rec: RECORDING_STATE.changing, recStatus: 'stopping' },
  });
  if (claimed.count === 0) fail('CONFLICT', M.recordingBusy);
  await pushState(deps, callId);
  const message = await finishRecording(deps, callId);
  return { messageId: message?.messageId ?? null };
}

/**
 * Stops the recorder, stores the file and posts the recording message; 2 -> 1. Used by Stop and
 * when the call ends (the spec: a call closing by itself stops its recording). The file cannot be
 * recorded again once ffmpeg has stopped, so a failure here ends at 1 with recStatus saying why.
 */
export async function finishRecording(deps: CallsDeps, callId: string): Promise<{ messageId: string } | null> {
  const recorder = deps.hub.recorders.get(callId);
  if (!recorder) {
    await deps.db.call.updateMany({ where: { id: callId, rec: { not: RECORDING_STATE.idle } }, data: { rec: RECORDING_STATE.idle, recorderId: null } });
    return null;
  }
  deps.hub.recorders.delete(callId);
  deps.hub.clearTimer(timerKeys.recordingBilling(callId));
  const endedAt = deps.clock.now();
  await chargeRecording(deps.db, callId, endedAt).catch((err) => deps.logger.error({ err, callId }, 'last recording charge failed'));
  const call = await deps.db.call.findUniqueOrThrow({ where: { id: callId }, include: { company: { select: { domain: true } } } });
  try {
    const result = await recorder.stop();
    const messageId = randomUUID();
    const fileName = recordingFileName(call.recStartedAt ?? endedAt, result.extension);
    const key = `${call.company.domain}/${call.conversationId}/${messageId}/${fileName}`;
    await deps.storage.put(key, fs.createReadStream(result.file), { size: result.size, contentType: result.mime });
    const appended = await deps.db.$transaction(async (tx) => {
      const appended = await appendMessage(
        tx,
        call.company.domain,
        {
          id: messageId,
          conversationId: call.conversationId,
          authorId: call.recorderId,
          type: 'arquivo',
          text: fileName,
          file: { key, name: fileName, size: result.size, mime: result.mime, isRecording: true, durationMs: result.durationMs, callId },
        },
        deps.clock.now(),
      );
      await tx.callRecording.create({
        data: {
          callId,
          messageId,
          recorderId: call.recorderId,
          fileKey: key,
          fileName,
          fileSize: BigInt(result.size),
          durationMs: result.durationMs,
          startedAt: call.recStartedAt ?? endedAt,
          endedAt,
        },
      });
      await tx.call.update({ where: { id: callId }, data: { rec: RECORDING_STATE.idle, recorderId: null, recStatus: null, recStartedAt: null, recordingBilledUntil: null } });
      return appended;
    });
    emitMessage(deps.realtime, appended);
    recorder.cleanup();
    await pushState(deps, callId);
    return { messageId };
  } catch (err) {
    deps.logger.error({ err, callId }, 'recording could not be finished');
    recorder.cleanup();
    await deps.db.call.update({ where: { id: callId }, data: { rec: RECORDING_STATE.idle, recorderId: null, recStatus: 'stopFailed', recordingBilledUntil: null } });
    await pushState(deps, callId);
    return fail('INTERNAL_SERVER_ERROR', M.recordingStopFailed, err);
  }
}

endHooks.finishRecording = async (deps, callId) => {
  await finishRecording(deps, callId);
};

/** The call's recordings with short-lived links to play them (participants of the call or its conversation). */
export async function listRecordings(deps: CallsDeps, userId: string, call: { id: string; conversationId: string }) {
  const all = await deps.db.callRecording.findMany({ where: { callId: call.id, removedAt: null }, orderBy: { startedAt: 'asc' } });
  // A recording message removed in the chat took its object with it: that recording is gone too.
  const present = await messagesWithFile(deps.db, all.map((r) => r.messageId));
  const rows = all.filter((r) => present.has(r.messageId));
  if (rows.length === 0) return [];
  const seconds = await fileLinkSeconds(deps.db, { conversationId: call.conversationId, userId, what: 'recording', at: deps.clock.now() });
  return Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      messageId: r.messageId,
      fileName: r.fileName,
      size: Number(r.fileSize),
      durationMs: r.durationMs,
      startedAt: r.startedAt,
      endedAt: r.endedAt,
      url: await deps.storage.presignGet(r.fileKey, seconds),
    })),
  );
}

/**
 * Removes a recording (removerGravacaoAWS): the object is deleted and the message shows as
 * removed. The call's owner, the recorder or an admin of the company may do it.
 */
export async function removeRecording(deps: CallsDeps, userId: string, recordingId: string) {
  const rec = await deps.db.callRecording.findUnique({ where: { id: recordingId }, include: { call: true } });
  if (!rec || rec.removedAt) fail('NOT_FOUND', M.recordingNotFound);
  const member = await deps.db.member.findUnique({ where: { companyId_userId: { companyId: rec!.call.companyId, userId } } });
  const isAdmin = !!member?.isAdmin && member.inviteAccepted && !member.blocked && !member.removed;
  if (rec!.call.ownerId !== userId && rec!.recorderId !== userId && !isAdmin) fail('FORBIDDEN', M.recordOwnerOrAdmin);
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: rec!.call.companyId } });
  // The chat owns the recording's message and its object: it deletes both (shown as removida).
  await removeMessageAsServer(deps, company, { conversationId: rec!.call.conversationId, messageId: rec!.messageId });
  await deps.db.callRecording.update({ where: { id: recordingId }, data: { removedAt: deps.clock.now() } });
  return { removed: true };
}
