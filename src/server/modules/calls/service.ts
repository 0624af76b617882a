/**
 * Calls: start, ring, accept, reject, cancel, join, leave, end, remote commands. The call's state
 * is in PostgreSQL (every instance agrees on it); each change is a transaction, then the browsers
 * are told (signals to people's tabs, the whole state to the call's room). Time rules (30 s ring,
 * 30 s billing ticks, the time limit) run on the hub's timers, on the injected Clock.
 */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Company, Member, Prisma } from '../../../generated/prisma/client';
import type { CallEnded, CallResults, CallSignal, CallState } from '../../../shared/call-events';
import { BILLING_TICK_MS, CALL_TYPE, CONVERSATION_TYPE, RING_TIMEOUT_MS } from '../../../shared/constants';
import {
  CALL_MESSAGES as M,
  callStartRefusal,
  callTimeLimitMs,
  commandRefusal,
  formatCmdExecutor,
  IDLE_FLAGS,
  isPresent,
  joinRefusal,
  nextParticipantFlags,
  opensCall,
  shouldAutoClose,
  typeOnAccept,
  viewerCount,
  type Callee,
  type CallCommand,
  type CallEndReason,
} from '../../../shared/domain/calls';
import { allowsCallRecording } from '../../../shared/domain/company';
import { infoText, type InfoMessage } from '../../../shared/domain/info-messages';
import { newProtocol } from '../../../shared/domain/protocol';
import { rooms as socketRooms } from '../../../shared/realtime';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Room } from '../../media/room';
import type { Realtime } from '../../realtime';
import type { ObjectStore } from '../../storage';
import { chargeParticipant, getPrices, mayStartBilled } from '../billing/service';
import { appendMessage, conversationForCall, createLiveConversation, emitMessage, isActiveParticipant } from '../chat/service';
import { decideAccess } from '../company/access';
import { requirePlan } from '../company/plan';
import { timerKeys, type CallSocketHandle, type CallsHub } from './hub';

export interface CallsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  storage: ObjectStore;
  config: Config;
  realtime: Realtime;
  hub: CallsHub;
}

/** The calls module's deps out of the app's (a request's context holds them all; `calls` is the hub). */
export const callsDepsOf = (d: Omit<CallsDeps, 'hub'> & { calls: CallsHub }): CallsDeps => ({
  db: d.db,
  clock: d.clock,
  logger: d.logger,
  storage: d.storage,
  config: d.config,
  realtime: d.realtime,
  hub: d.calls,
});

/** A member acting inside their company (calls.start and the other company-scoped procedures). */
export interface MemberActor {
  userId: string;
  company: Company;
  member: Member;
}

const fail = (code: TRPCError['code'], message: string): never => {
  throw new TRPCError({ code, message });
};

// -------------------------------------------------------------------------------------------------
// State
// -------------------------------------------------------------------------------------------------

const stateInclude = {
  company: { select: { domain: true } },
  participants: { include: { user: { select: { name: true, anonymous: true } } }, orderBy: { createdAt: 'asc' } },
} satisfies Prisma.CallInclude;
type CallWithState = Prisma.CallGetPayload<{ include: typeof stateInclude }>;

export function toState(call: CallWithState): CallState {
  const connected = call.participants.filter((p) => p.connected);
  return {
    id: call.id,
    domain: call.company.domain,
    conversationId: call.conversationId,
    type: call.type,
    isLive: call.isLive,
    telemedicine: call.telemedicine,
    open: call.open,
    concluded: call.concluded,
    endReason: (call.endReason as CallEndReason | null) ?? null,
    ownerId: call.ownerId,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    rec: call.rec,
    recorderId: call.recorderId,
    canRec: call.canRec,
    subtitles: call.subtitles,
    viewers: call.isLive ? viewerCount(connected.length, connected.some((p) => p.userId === call.ownerId)) : 0,
    // In a live room the viewers are a count, not a list: only the presenter is listed.
    participants: call.participants
      .filter((p) => !call.isLive || p.userId === call.ownerId)
      .map((p) => ({
        userId: p.userId,
        name: p.user.name,
        anonymous: p.user.anonymous,
        isOwner: p.userId === call.ownerId,
        calling: p.calling,
        accepted: p.accepted,
        connecting: p.connecting,
        connected: p.connected,
        rejected: p.rejected,
        audio: p.audio,
        video: p.video,
        screen: p.screen,
        subtitlesOn: p.subtitlesOn,
        translationOn: p.translationOn,
        language: p.language,
      })),
  };
}

export async function loadState(db: Db, callId: string): Promise<CallState | null> {
  const call = await db.call.findUnique({ where: { id: callId }, include: stateInclude });
  return call ? toState(call) : null;
}

/** Everyone on the call's sockets gets the new state. */
export async function pushState(deps: CallsDeps, callId: string): Promise<CallState | null> {
  const state = await loadState(deps.db, callId);
  if (state) deps.realtime.toRoom(socketRooms.call(callId), 'call:state', state);
  return state;
}

// -------------------------------------------------------------------------------------------------
// Helpers
// -------------------------------------------------------------------------------------------------

function requireRooms(deps: CallsDeps) {
  const rooms = deps.hub.rooms;
  if (!rooms) fail('PRECONDITION_FAILED', M.callsUnavailable);
  return rooms!;
}

/** A 9-digit peer number starting with 1 (spec: Call participant peerId). */
const newPeerId = () => randomInt(100_000_000, 200_000_000);

/** The secret of /{emp}/call/{id}/{key}. */
const newLinkKey = () => randomBytes(24).toString('base64url');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** How a callee is reached: the relay flags of their participation (spec Participant whatsapp/telegram). */
function calleeChannel(p: { whatsapp: boolean; telegram: boolean }): Callee {
  return { whatsapp: p.whatsapp, telegram: p.telegram };
}

/** Users of `userIds` who are in (or on their way into) another call that is not over. */
async function busyUsers(db: Db | Prisma.TransactionClient, userIds: string[], exceptCallId?: string): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.callParticipant.findMany({
    where: {
      userId: { in: userIds },
      OR: [{ connected: true }, { connecting: true }],
      call: { concluded: false },
      ...(exceptCallId && { callId: { not: exceptCallId } }),
    },
    select: { userId: true },
  });
  return new Set(rows.map((r) => r.userId));
}

async function lockCall(tx: Prisma.TransactionClient, callId: string) {
  await tx.$executeRaw`SELECT 1 FROM "Call" WHERE "id" = ${callId}::uuid FOR UPDATE`;
}

type CallRef = { id: string; type: number; isLive: boolean; conversationId: string; domain: string };

function signal(call: CallRef, cmd: CallSignal['cmd'], from: { id: string; name: string }, to: { id: string; name: string }, reason?: CallSignal['reason']): CallSignal {
  return { cmd, callId: call.id, domain: call.domain, conversationId: call.conversationId, type: call.type, isLive: call.isLive, from, to, ...(reason && { reason }) };
}

async function names(db: Db, userIds: (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds.filter((x): x is string => !!x))];
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}

/** The chat owns participation: calls asks it. */
export const isConversationParticipant = isActiveParticipant;

function refuseJoin(call: { concluded: boolean; isLive: boolean } | null): void {
  const refusal = joinRefusal(call);
  if (refusal) fail(call ? 'BAD_REQUEST' : 'NOT_FOUND', refusal);
}

// -------------------------------------------------------------------------------------------------
// Starting and ringing
// -------------------------------------------------------------------------------------------------

/**
 * A telemedicine consultation's call (telemedicine module) is started for its doctor, who may be a
 * global doctor and no member of the company: only the company and the caller are needed here.
 */
export async function startCall(deps: CallsDeps, actor: Omit<MemberActor, 'member'> & { member?: MemberActor['member'] }, input: { conversationId: string; type: number; telemedicine?: boolean }) {
  const { db } = deps;
  const conversation = await conversationForCall(db, actor.company.id, input.conversationId);
  if (!conversation) fail('NOT_FOUND', 'Conversation not found');
  if (!conversation!.participants.some((p) => p.userId === actor.userId)) fail('FORBIDDEN', 'You are not in this conversation');
  const isLive = conversation!.type === CONVERSATION_TYPE.live;
  const callees = isLive ? [] : conversation!.participants.filter((p) => p.userId !== actor.userId);
  if (input.type === CALL_TYPE.remoteAccess) {
    // Remote assistance draws over the customer's screen: the plan's annotation flag (spec 3,
    // Company plan `anotation`), on top of `calls` and voiceCall that the procedure declares.
    requirePlan(actor.company, 'anotation');
    if (isLive) fail('BAD_REQUEST', M.remoteNotInLive);
  }
  const refusal = callStartRefusal({ company: actor.company, callees: callees.map(calleeChannel), isLive, telemedicine: input.telemedicine });
  if (refusal) fail(refusal.code, refusal.message);
  // What the request itself cannot do is answered first; then whether this server can hold a call
  // (a voice call says so in the spec's words).
  if (!deps.hub.rooms && input.type === CALL_TYPE.voice && !isLive) fail('PRECONDITION_FAILED', M.voiceCallStartFailed);
  requireRooms(deps);
  if ((await busyUsers(db, [actor.userId])).size) fail('CONFLICT', M.alreadyInCall);
  if (isLive) {
    const running = await db.call.findFirst({ where: { conversationId: conversation!.id, isLive: true, concluded: false } });
    if (running) return { callId: running.id, hostInstance: running.hostInstance, domain: actor.company.domain };
  }
  const prices = await getPrices(db);
  if (!mayStartBilled(actor.company, prices)) fail('FORBIDDEN', M.insufficientBalance);

  const busy = await busyUsers(db, callees.map((c) => c.userId));
  const now = deps.clock.now();
  const deadline = new Date(now.getTime() + RING_TIMEOUT_MS);
  const canRec = allowsCallRecording(actor.company.settings);
  const { call, busyMessages } = await db.$transaction(async (tx) => {
    const call = await tx.call.create({
      data: {
        companyId: actor.company.id,
        conversationId: conversation!.id,
        ownerId: actor.userId,
        type: isLive ? CALL_TYPE.video : input.type,
        isLive,
        telemedicine: input.telemedicine ?? false,
        // A live room opens with its presenter: viewers join a session that is already running.
        open: isLive,
        startedAt: isLive ? now : null,
        linkKey: newLinkKey(),
        hostInstance: deps.hub.instanceId,
        canRec,
        priceVoice: prices.voice,
        priceVideo: prices.video,
        priceShare: prices.share,
        priceRecording: prices.recording,
        priceRemote: prices.remote,
        priceTranslate: prices.translatePerChar,
        participants: {
          create: [
            // The caller is on the way in (choosing devices) while the others ring.
            { userId: actor.userId, accepted: true, connecting: true },
            ...callees.map((c) =>
              busy.has(c.userId) ? { userId: c.userId, rejected: true } : { userId: c.userId, calling: true, ringDeadline: deadline },
            ),
          ],
        },
      },
    });
    const busyMessages = [];
    for (const c of callees.filter((c) => busy.has(c.userId))) {
      const info: InfoMessage = { info: 'callBusy', params: { name: c.name } };
      busyMessages.push(
        await appendMessage(tx, actor.company.domain, { conversationId: conversation!.id, authorId: null, type: 'info', text: infoText(info), data: info }, now),
      );
    }
    return { call, busyMessages };
  });

  for (const m of busyMessages) emitMessage(deps.realtime, m);
  const ref: CallRef = { id: call.id, type: call.type, isLive, conversationId: call.conversationId, domain: actor.company.domain };
  const caller = { id: actor.userId, name: conversation!.participants.find((p) => p.userId === actor.userId)!.name };
  const participants = await db.callParticipant.findMany({ where: { callId: call.id } });
  for (const c of callees) {
    const to = { id: c.userId, name: c.name };
    if (busy.has(c.userId)) {
      deps.realtime.toUser(actor.userId, 'call:signal', signal(ref, 'otherReject', caller, to, 'busy'));
      continue;
    }
    deps.realtime.toUser(c.userId, 'call:signal', signal(ref, 'create', caller, to));
    const p = participants.find((x) => x.userId === c.userId)!;
    deps.hub.setTimer(timerKeys.ring(call.id, p.id), RING_TIMEOUT_MS, () => ringTimedOut(deps, call.id, p.id));
  }
  deps.hub.setTimer(timerKeys.timeLimit(call.id), callTimeLimitMs(deps.config.calls.appEnv), async () => {
    await endCall(deps, call.id, 'timeLimit');
  });
  // Everybody was busy: the call is over before it began.
  if (!isLive && callees.every((c) => busy.has(c.userId))) await endCall(deps, call.id, 'noAnswer');
  return { callId: call.id, hostInstance: call.hostInstance, domain: actor.company.domain };
}

/** Rings more people into a running call (the invite panel): active members of the call's company. */
export async function inviteToCall(deps: CallsDeps, userId: string, input: { callId: string; userIds: string[] }) {
  const { db } = deps;
  const call = await db.call.findUnique({ where: { id: input.callId }, include: { company: { select: { id: true, domain: true } } } });
  refuseJoin(call);
  const me = await db.callParticipant.findUnique({ where: { callId_userId: { callId: input.callId, userId } } });
  if (!me?.connected) fail('FORBIDDEN', M.notParticipant);
  const targets = (
    await db.member.findMany({
      where: { companyId: call!.company.id, userId: { in: input.userIds }, inviteAccepted: true, blocked: false, removed: false },
      include: { user: { select: { id: true, name: true } } },
    })
  ).filter((m) => m.userId !== userId);
  const busy = await busyUsers(db, targets.map((t) => t.userId), input.callId);
  const now = deps.clock.now();
  const deadline = new Date(now.getTime() + RING_TIMEOUT_MS);
  const ref: CallRef = { id: call!.id, type: call!.type, isLive: call!.isLive, conversationId: call!.conversationId, domain: call!.company.domain };
  const from = { id: userId, name: (await names(db, [userId])).get(userId) ?? '' };
  let rung = 0;
  for (const t of targets) {
    const to = { id: t.userId, name: t.user.name };
    if (busy.has(t.userId)) {
      deps.realtime.toUser(userId, 'call:signal', signal(ref, 'otherReject', from, to, 'busy'));
      continue;
    }
    const p = await db.callParticipant.upsert({
      where: { callId_userId: { callId: input.callId, userId: t.userId } },
      create: { callId: input.callId, userId: t.userId, calling: true, ringDeadline: deadline },
      update: { calling: true, rejected: false, ringDeadline: deadline },
    });
    if (p.kicked || p.connected) continue;
    deps.realtime.toUser(t.userId, 'call:signal', signal(ref, 'create', from, to));
    deps.hub.setTimer(timerKeys.ring(input.callId, p.id), RING_TIMEOUT_MS, () => ringTimedOut(deps, input.callId, p.id));
    rung++;
  }
  await pushState(deps, input.callId);
  return { rung };
}

/** No answer in 30 s: that ring ends with '{name} não atendeu' in the conversation. */
async function ringTimedOut(deps: CallsDeps, callId: string, participantId: string): Promise<void> {
  const now = deps.clock.now();
  const result = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.callParticipant.updateMany({ where: { id: participantId, calling: true }, data: { calling: false, ringDeadline: null } });
    if (count === 0) return null;
    const p = await tx.callParticipant.findUniqueOrThrow({
      where: { id: participantId },
      include: { user: { select: { name: true } }, call: { include: { company: { select: { domain: true } } } } },
    });
    const info: InfoMessage = { info: 'callNoAnswer', params: { name: p.user.name } };
    const appended = await appendMessage(
      tx,
      p.call.company.domain,
      { conversationId: p.call.conversationId, authorId: null, type: 'info', text: infoText(info), data: info },
      now,
    );
    return { p, appended };
  });
  if (!result) return;
  emitMessage(deps.realtime, result.appended);
  const { p } = result;
  const ref: CallRef = { id: callId, type: p.call.type, isLive: p.call.isLive, conversationId: p.call.conversationId, domain: p.call.company.domain };
  const who = await names(deps.db, [p.call.ownerId, p.userId]);
  const owner = { id: p.call.ownerId ?? '', name: who.get(p.call.ownerId ?? '') ?? '' };
  const callee = { id: p.userId, name: p.user.name };
  deps.realtime.toUser(p.userId, 'call:signal', signal(ref, 'cancel', owner, callee, 'noAnswer'));
  if (p.call.ownerId) deps.realtime.toUser(p.call.ownerId, 'call:signal', signal(ref, 'otherReject', owner, callee, 'noAnswer'));
  await afterRingChange(deps, callId, 'noAnswer');
}

/** When the last ring of a call that never opened is over, the call is over. */
async function afterRingChange(deps: CallsDeps, callId: string, reasonIfOver: CallEndReason): Promise<void> {
  const call = await deps.db.call.findUnique({ where: { id: callId }, include: { participants: true } });
  if (!call || call.concluded) return;
  const ringing = call.participants.filter((p) => p.calling).length;
  if (!call.open && !call.isLive && ringing === 0) {
    await endCall(deps, callId, reasonIfOver);
    return;
  }
  await pushState(deps, callId);
}

export async function participantFor(db: Db | Prisma.TransactionClient, callId: string, userId: string) {
  return db.callParticipant.findUnique({ where: { callId_userId: { callId, userId } }, include: { user: { select: { name: true } } } });
}

/** The callee answers: accepted + connecting; the call opens; a screen-share call becomes voice. */
export async function acceptCall(deps: CallsDeps, userId: string, callId: string) {
  requireRooms(deps);
  const now = deps.clock.now();
  const { call, p } = await deps.db.$transaction(async (tx) => {
    await lockCall(tx, callId);
    const call = await tx.call.findUnique({ where: { id: callId }, include: { company: { select: { domain: true } } } });
    refuseJoin(call);
    const p = await participantFor(tx, callId, userId);
    if (!p) fail('FORBIDDEN', M.notParticipant);
    const next = nextParticipantFlags(p!, 'accept');
    if (!next) fail('BAD_REQUEST', M.notRinging);
    if ((await busyUsers(tx, [userId], callId)).size) fail('CONFLICT', M.alreadyInCall);
    await tx.callParticipant.update({ where: { id: p!.id }, data: { ...next!, ringDeadline: null } });
    const opens = opensCall(call!, { by: 'other', kind: 'accept' });
    const updated = await tx.call.update({
      where: { id: callId },
      data: { type: typeOnAccept(call!.type), ...(opens && { open: true, startedAt: now }) },
    });
    return { call: { ...updated, domain: call!.company.domain }, p: p! };
  });
  deps.hub.clearTimer(timerKeys.ring(callId, p.id));
  const ref: CallRef = { id: callId, type: call.type, isLive: call.isLive, conversationId: call.conversationId, domain: call.domain };
  const who = await names(deps.db, [call.ownerId]);
  const owner = { id: call.ownerId ?? '', name: who.get(call.ownerId ?? '') ?? '' };
  const me = { id: userId, name: p.user.name };
  // The user's other tabs stop ringing; the caller's 'Chamando' closes.
  deps.realtime.toUser(userId, 'call:signal', signal(ref, 'cancel', owner, me, 'answeredElsewhere'));
  if (call.ownerId) deps.realtime.toUser(call.ownerId, 'call:signal', signal(ref, 'accepted', owner, me));
  await pushState(deps, callId);
  return { callId, hostInstance: call.hostInstance, domain: call.domain };
}

/** The callee declines: reject; the caller is told (otherReject). */
export async function rejectCall(deps: CallsDeps, userId: string, callId: string) {
  const updated = await deps.db.callParticipant.updateMany({
    where: { callId, userId, calling: true },
    data: { calling: false, rejected: true, ringDeadline: null },
  });
  if (updated.count === 0) fail('BAD_REQUEST', M.notRinging);
  const p = (await participantFor(deps.db, callId, userId))!;
  deps.hub.clearTimer(timerKeys.ring(callId, p.id));
  const call = (await deps.db.call.findUnique({ where: { id: callId }, include: { company: { select: { domain: true } } } }))!;
  const ref: CallRef = { id: callId, type: call.type, isLive: call.isLive, conversationId: call.conversationId, domain: call.company.domain };
  const who = await names(deps.db, [call.ownerId]);
  const owner = { id: call.ownerId ?? '', name: who.get(call.ownerId ?? '') ?? '' };
  const me = { id: userId, name: p.user.name };
  deps.realtime.toUser(userId, 'call:signal', signal(ref, 'cancel', owner, me, 'rejected'));
  if (call.ownerId) deps.realtime.toUser(call.ownerId, 'call:signal', signal(ref, 'otherReject', owner, me, 'rejected'));
  await afterRingChange(deps, callId, 'noAnswer');
  return { rejected: true };
}

/** The caller cancels the ringing: of one person, or of everyone (Cancelar on 'Chamando'). */
export async function cancelRinging(deps: CallsDeps, userId: string, input: { callId: string; userId?: string }) {
  const call = await deps.db.call.findUnique({ where: { id: input.callId }, include: { company: { select: { domain: true } } } });
  refuseJoin(call);
  if (call!.ownerId !== userId) fail('FORBIDDEN', M.onlyOwner);
  const ringing = await deps.db.callParticipant.findMany({
    where: { callId: input.callId, calling: true, ...(input.userId && { userId: input.userId }) },
    include: { user: { select: { name: true } } },
  });
  await deps.db.callParticipant.updateMany({ where: { id: { in: ringing.map((p) => p.id) }, calling: true }, data: { calling: false, ringDeadline: null } });
  const ref: CallRef = { id: call!.id, type: call!.type, isLive: call!.isLive, conversationId: call!.conversationId, domain: call!.company.domain };
  const owner = { id: userId, name: (await names(deps.db, [userId])).get(userId) ?? '' };
  for (const p of ringing) {
    deps.hub.clearTimer(timerKeys.ring(input.callId, p.id));
    deps.realtime.toUser(p.userId, 'call:signal', signal(ref, 'cancel', owner, { id: p.userId, name: p.user.name }, 'cancelled'));
  }
  // Nobody ever answered and the caller gave up: the call is over.
  if (!input.userId && !call!.open) {
    await endCall(deps, input.callId, 'cancelled');
    return { cancelled: ringing.length };
  }
  await afterRingChange(deps, input.callId, 'cancelled');
  return { cancelled: ringing.length };
}

/** Rings waiting for this user (a tab opened after the ring started shows them too). */
export async function incomingCalls(deps: CallsDeps, userId: string): Promise<CallSignal[]> {
  const now = deps.clock.now();
  const rows = await deps.db.callParticipant.findMany({
    where: { userId, calling: true, ringDeadline: { gt: now }, call: { concluded: false } },
    include: { user: { select: { name: true } }, call: { include: { company: { select: { domain: true } } } } },
  });
  const who = await names(deps.db, rows.map((r) => r.call.ownerId));
  return rows.map((r) =>
    signal(
      { id: r.callId, type: r.call.type, isLive: r.call.isLive, conversationId: r.call.conversationId, domain: r.call.company.domain },
      'create',
      { id: r.call.ownerId ?? '', name: who.get(r.call.ownerId ?? '') ?? '' },
      { id: userId, name: r.user.name },
    ),
  );
}

// -------------------------------------------------------------------------------------------------
// Entering, joining and leaving
// -------------------------------------------------------------------------------------------------

export interface EnteredCall {
  callId: string;
  domain: string;
  conversationId: string;
  hostInstance: string;
  isLive: boolean;
  type: number;
  ownerId: string | null;
}

/**
 * May this user enter the call? Yes if they are its participant, a participant of its
 * conversation, hold its link key, or it is a live session (whose link is public). The first
 * visit makes them a participant; the media join comes next, on the call's socket.
 */
export async function enterCall(deps: CallsDeps, userId: string, input: { callId: string; key?: string }): Promise<EnteredCall> {
  const call = await deps.db.call.findUnique({ where: { id: input.callId }, include: { company: { select: { domain: true } } } });
  refuseJoin(call);
  const existing = await deps.db.callParticipant.findUnique({ where: { callId_userId: { callId: input.callId, userId } } });
  if (existing?.kicked) fail('FORBIDDEN', M.kicked);
  if (!existing) {
    const byKey = !!input.key && sameSecret(input.key, call!.linkKey);
    if (input.key && !byKey) fail('FORBIDDEN', M.badLink);
    const allowed = byKey || call!.isLive || (await isConversationParticipant(deps.db, call!.conversationId, userId));
    if (!allowed) fail('FORBIDDEN', M.notParticipant);
    await deps.db.callParticipant.upsert({
      where: { callId_userId: { callId: input.callId, userId } },
      create: { callId: input.callId, userId },
      update: {},
    });
  }
  return {
    callId: call!.id,
    domain: call!.company.domain,
    conversationId: call!.conversationId,
    hostInstance: call!.hostInstance,
    isLive: call!.isLive,
    type: call!.type,
    ownerId: call!.ownerId,
  };
}

/** /{emp}/live/{conversationId}: the live session running in that live room. */
export async function enterLive(deps: CallsDeps, userId: string, conversationId: string): Promise<EnteredCall> {
  const live = await deps.db.call.findFirst({ where: { conversationId, isLive: true, concluded: false }, orderBy: { createdAt: 'desc' } });
  if (!live) fail('NOT_FOUND', M.callMissing);
  return enterCall(deps, userId, { callId: live!.id });
}

/** Media join on the hosting instance: connected, billed from now, in the room. */
export async function joinCall(deps: CallsDeps, socket: CallSocketHandle, callId: string): Promise<CallResults['join']> {
  const rooms = requireRooms(deps);
  const { db } = deps;
  const call = await db.call.findUnique({ where: { id: callId } });
  refuseJoin(call);
  // A live room's viewer may reach any instance: this one then relays the host's tracks (cascade.ts).
  const edgeOf = call!.hostInstance !== deps.hub.instanceId ? call!.hostInstance : undefined;
  if (edgeOf && (!call!.isLive || call!.ownerId === socket.userId || !deps.hub.cascade)) fail('PRECONDITION_FAILED', M.wrongInstance);
  const p = await participantFor(db, callId, socket.userId);
  if (!p) fail('FORBIDDEN', M.notParticipant);
  if (p!.kicked) fail('FORBIDDEN', M.kicked);
  // A member the company blocked or removed is no participant of its calls any more.
  const access = await decideAccess(db, { companyId: call!.companyId }, { id: socket.userId }, 'participant');
  if (access?.refusal) fail('FORBIDDEN', access.refusal.message);
  if ((await busyUsers(db, [socket.userId], callId)).size) fail('CONFLICT', M.alreadyInCall);

  // The same person in another tab: the newer connection takes over.
  if (p!.connectionId && p!.connectionId !== socket.id) {
    const previous = deps.hub.sockets.get(p!.connectionId);
    deps.hub.rooms?.get(callId)?.removePeer(p!.connectionId);
    previous?.disconnect();
  }
  const room = edgeOf ? await deps.hub.cascade!.edgeRoom(callId, edgeOf) : await rooms.getOrCreate(callId);
  // A live room's viewers are many: spread them over every worker from the first one.
  room.spread = call!.isLive;
  relayRoom(deps, room);
  const now = deps.clock.now();
  const peerId = newPeerId();
  const wasRinging = p!.calling;
  await db.$transaction(async (tx) => {
    await lockCall(tx, callId);
    const current = await tx.call.findUniqueOrThrow({ where: { id: callId } });
    refuseJoin(current);
    await tx.callParticipant.update({
      where: { id: p!.id },
      data: {
        ...IDLE_FLAGS,
        accepted: true,
        connected: true,
        ringDeadline: null,
        audio: false,
        video: false,
        screen: false,
        peerId,
        connectionId: socket.id,
        connectedAt: now,
        billedUntil: now,
      },
    });
    if (opensCall(current, { by: current.ownerId === socket.userId ? 'owner' : 'other', kind: 'join' })) {
      await tx.call.update({ where: { id: callId }, data: { open: true, startedAt: now, type: typeOnAccept(current.type) } });
    }
  });
  if (wasRinging) deps.hub.clearTimer(timerKeys.ring(callId, p!.id));
  room.addPeer(socket.id, socket.userId);
  scheduleBillingTick(deps, callId, p!.id);
  const state = (await pushState(deps, callId))!;
  return {
    routerRtpCapabilities: room.rtpCapabilities as CallResults['join']['routerRtpCapabilities'],
    producers: edgeOf ? await deps.hub.cascade!.originProducers(callId, edgeOf) : room.producers(socket.id),
    dataProducers: edgeOf ? [] : room.dataProducers(socket.id),
    state,
    peerId,
  };
}

const relayed = new WeakSet<Room>();

/** Tracks appearing, pausing and going away are told to everyone in the call. */
function relayRoom(deps: CallsDeps, room: Room): void {
  if (relayed.has(room)) return;
  relayed.add(room);
  const to = socketRooms.call(room.callId);
  room.listen({
    producerAdded: (producer) => deps.realtime.toRoom(to, 'call:newProducer', producer),
    producerClosed: (producer) => deps.realtime.toRoom(to, 'call:producerClosed', { producerId: producer.producerId }),
    producerPaused: (producer) => deps.realtime.toRoom(to, 'call:producerPaused', { producerId: producer.producerId, paused: producer.paused }),
    dataProducerAdded: (dataProducer) => deps.realtime.toRoom(to, 'call:newDataProducer', dataProducer),
  });
}

/**
 * A tick every BILLING_TICK_MS from the join, the next one set before this one's writes: the
 * cadence does not stretch by the database's time, and whoever ends the call or the participation
 * meanwhile (endCall, leaveCall) clears it.
 */
function scheduleBillingTick(deps: CallsDeps, callId: string, participantId: string): void {
  const key = timerKeys.billing(callId, participantId);
  deps.hub.setTimer(key, BILLING_TICK_MS, async () => {
    scheduleBillingTick(deps, callId, participantId);
    const outcome = await chargeParticipant(deps.db, participantId, deps.clock.now());
    if (outcome.status === 'insufficient') {
      await endCall(deps, callId, 'insufficientBalance');
      return;
    }
    const p = await deps.db.callParticipant.findUnique({ where: { id: participantId }, select: { connected: true } });
    if (!p?.connected) deps.hub.clearTimer(key);
  });
}

/** What a participant sends changed (a track started, paused or stopped): billing and the UI read it. */
export async function setMediaFlags(deps: CallsDeps, callId: string, userId: string, flags: Partial<Record<'audio' | 'video' | 'screen', boolean>>) {
  // Billing charges a tick at the price of what was sent during it: settle the time so far first.
  const p = await deps.db.callParticipant.findUnique({ where: { callId_userId: { callId, userId } } });
  if (!p?.connected) return;
  const changesTag = (flags.video !== undefined && flags.video !== p.video) || (flags.screen !== undefined && flags.screen !== p.screen);
  if (changesTag) {
    const outcome = await chargeParticipant(deps.db, p.id, deps.clock.now());
    if (outcome.status === 'insufficient') {
      await endCall(deps, callId, 'insufficientBalance');
      return;
    }
  }
  await deps.db.callParticipant.update({ where: { id: p.id }, data: flags });
  await pushState(deps, callId);
}

/**
 * A participant's media connection ends (Leave, a closed tab, a kick): charged up to now, flags
 * cleared, out of the room; the call closes by itself when the rule says so.
 */
export async function leaveCall(deps: CallsDeps, socket: CallSocketHandle, callId: string): Promise<void> {
  deps.hub.rooms?.get(callId)?.removePeer(socket.id);
  if (deps.hub.cascade?.isEdge(callId)) await deps.hub.cascade.left(callId).catch((err) => deps.logger.warn({ err, callId }, 'could not take down an edge room'));
  const p = await deps.db.callParticipant.findUnique({ where: { callId_userId: { callId, userId: socket.userId } } });
  // A newer connection (another tab) took over: this one's end changes nothing.
  if (!p || p.connectionId !== socket.id) return;
  deps.hub.clearTimer(timerKeys.billing(callId, p.id));
  if (p.connected) {
    const outcome = await chargeParticipant(deps.db, p.id, deps.clock.now());
    if (outcome.status === 'insufficient') deps.logger.warn({ callId, participantId: p.id }, 'last tick not covered by the balance');
  }
  await deps.db.callParticipant.updateMany({
    where: { id: p.id, connectionId: socket.id },
    data: { ...IDLE_FLAGS, audio: false, video: false, screen: false, connectionId: null, connectedAt: null, peerId: null },
  });
  await closeIfDone(deps, callId);
}

/**
 * The person may no longer act for the company (blocked, removed): their call sockets in its open
 * calls are closed wherever they are connected (the hosting instance's disconnect handler makes
 * them leave, charged up to now), and every socket of theirs leaves those calls' rooms.
 */
export async function dropFromCompanyCalls(deps: { db: Db; realtime: Realtime }, userId: string, companyId: string) {
  const open = await deps.db.callParticipant.findMany({
    where: { userId, call: { companyId, concluded: false } },
    select: { callId: true, connectionId: true },
  });
  for (const p of open) {
    deps.realtime.leaveUser(userId, socketRooms.call(p.callId));
    if (p.connectionId) deps.realtime.disconnectSocket(p.connectionId);
  }
}

/**
 * Rings that must stop because the person can no longer act (blocked or removed in `companyId`,
 * or no session of theirs is left: signed out, revoked, password reset). A call they placed that
 * nobody answered yet is cancelled for everyone it rings; a ring to them stops on every tab (the
 * caller hears they will not answer), and the call ends when no ring is left. Everything goes
 * through the database and the adapter, so it holds whichever instance rings or hosts the call.
 */
export async function endRingsOf(deps: CallsDeps, userId: string, scope: { companyId?: string } = {}) {
  const inScope = { concluded: false, ...(scope.companyId && { companyId: scope.companyId }) };
  const placed = await deps.db.call.findMany({ where: { ...inScope, ownerId: userId, open: false, isLive: false }, select: { id: true } });
  const rung = await deps.db.callParticipant.findMany({ where: { userId, calling: true, call: inScope }, select: { callId: true } });
  // A refusal here means the call ended meanwhile (its caller's call socket closing ends it too).
  const failed = (callId: string) => (err: unknown) => {
    if (!(err instanceof TRPCError)) deps.logger.error({ err, callId, userId }, 'could not end a ring of a person whose access ended');
  };
  for (const { id } of placed) await cancelRinging(deps, userId, { callId: id }).catch(failed(id));
  for (const { callId } of rung) await withdrawRing(deps, callId, userId).catch(failed(callId));
}

/** One person's ring ends without their answer (endRingsOf): not a rejection, nothing posted in the chat. */
async function withdrawRing(deps: CallsDeps, callId: string, userId: string) {
  const { count } = await deps.db.callParticipant.updateMany({ where: { callId, userId, calling: true }, data: { calling: false, ringDeadline: null } });
  if (count === 0) return;
  const p = (await participantFor(deps.db, callId, userId))!;
  // The ring's timer lives on the instance that rang; there it finds the ring over and does nothing.
  deps.hub.clearTimer(timerKeys.ring(callId, p.id));
  const call = (await deps.db.call.findUnique({ where: { id: callId }, include: { company: { select: { domain: true } } } }))!;
  const ref: CallRef = { id: callId, type: call.type, isLive: call.isLive, conversationId: call.conversationId, domain: call.company.domain };
  const owner = { id: call.ownerId ?? '', name: (await names(deps.db, [call.ownerId])).get(call.ownerId ?? '') ?? '' };
  const me = { id: userId, name: p.user.name };
  deps.realtime.toUser(userId, 'call:signal', signal(ref, 'cancel', owner, me, 'cancelled'));
  if (call.ownerId) deps.realtime.toUser(call.ownerId, 'call:signal', signal(ref, 'otherReject', owner, me, 'noAnswer'));
  await afterRingChange(deps, callId, 'cancelled');
}

/** Leaving before the media joined (Cancelar on the device chooser after accepting). */
export async function leaveBeforeJoining(deps: CallsDeps, userId: string, callId: string) {
  const p = await deps.db.callParticipant.findUnique({ where: { callId_userId: { callId, userId } } });
  if (!p) fail('FORBIDDEN', M.notParticipant);
  if (p!.connectionId) {
    const socket = deps.hub.sockets.get(p!.connectionId);
    if (socket) {
      await leaveCall(deps, socket, callId);
      socket.disconnect();
      return { left: true };
    }
    // Connected to another instance (the call's host): closing it there leaves the call there.
    deps.realtime.disconnectSocket(p!.connectionId);
  }
  const call = await deps.db.call.findUnique({ where: { id: callId } });
  // The owner giving up before anyone answered is cancelling the call.
  if (call && !call.open && !call.concluded && call.ownerId === userId) {
    await cancelRinging(deps, userId, { callId });
    return { left: true };
  }
  await deps.db.callParticipant.update({
    where: { id: p!.id },
    data: { ...IDLE_FLAGS, audio: false, video: false, screen: false, connectionId: null, connectedAt: null, ringDeadline: null },
  });
  await closeIfDone(deps, callId);
  return { left: true };
}

async function closeIfDone(deps: CallsDeps, callId: string): Promise<void> {
  const call = await deps.db.call.findUnique({ where: { id: callId }, include: { participants: true } });
  if (!call || call.concluded) return;
  const present = call.participants.filter(isPresent);
  const ringing = call.participants.filter((p) => p.calling).length;
  const ownerPresent = present.some((p) => p.userId === call.ownerId);
  // A live session ends with its presenter; a call nobody answered yet ends when its caller goes.
  if ((call.isLive || !call.open) && !ownerPresent) {
    await endCall(deps, callId, call.open ? 'ended' : 'cancelled');
    return;
  }
  if (shouldAutoClose(call, present.length, ringing)) {
    await endCall(deps, callId, 'ended');
    return;
  }
  await pushState(deps, callId);
}

// -------------------------------------------------------------------------------------------------
// Ending
// -------------------------------------------------------------------------------------------------

/** Hook for the recording module: finish a recording when its call ends (set in recording.ts). */
export const endHooks: { finishRecording?: (deps: CallsDeps, callId: string) => Promise<void> } = {};

/**
 * Hook for the telemedicine module: why a consultation call may not be recorded now (the patient's
 * consent is missing), or null. A telemedicine call with no hook set is never recorded.
 */
export const recordingHooks: { consentRefusal?: (db: Db, callId: string) => Promise<string | null> } = {};
export const NO_RECORDING_CONSENT = 'The patient has not consented to recording';

/**
 * Ends a call for everyone, once: concluded with dataFim, every connected participant charged up
 * to now, the recording finished and posted, the flags cleared, everyone told, the room closed.
 */
export async function endCall(deps: CallsDeps, callId: string, reason: CallEndReason): Promise<boolean> {
  const now = deps.clock.now();
  const { count } = await deps.db.call.updateMany({
    where: { id: callId, concluded: false },
    data: { concluded: true, open: false, endedAt: now, endReason: reason },
  });
  if (count === 0) return false;
  deps.hub.clearTimersOf(callId);
  const participants = await deps.db.callParticipant.findMany({ where: { callId } });
  for (const p of participants.filter((x) => x.connected)) {
    await chargeParticipant(deps.db, p.id, now).catch((err) => deps.logger.error({ err, callId }, 'final charge failed'));
  }
  if (endHooks.finishRecording) {
    await endHooks.finishRecording(deps, callId).catch((err) => deps.logger.error({ err, callId }, 'could not finish the recording of an ended call'));
  }
  // Who rejected stays recorded; everything that says "in the call" or "ringing" is cleared.
  await deps.db.callParticipant.updateMany({
    where: { callId },
    data: { calling: false, accepted: false, connecting: false, connected: false, ringDeadline: null, audio: false, video: false, screen: false, connectionId: null, connectedAt: null },
  });
  const payload: CallEnded = { callId, reason, ...(reason === 'timeLimit' && { appEnv: deps.config.calls.appEnv }) };
  deps.realtime.toRoom(socketRooms.call(callId), 'call:ended', payload);
  // Tabs still ringing, or between accepting and joining, are not in the call's room.
  deps.realtime.toUsers(
    participants.filter((p) => !p.connected).map((p) => p.userId),
    'call:ended',
    payload,
  );
  await pushState(deps, callId);
  deps.hub.rooms?.close(callId);
  for (const p of participants) {
    if (!p.connectionId) continue;
    const local = deps.hub.sockets.get(p.connectionId);
    // A call socket on another instance (this request came through a different one) is closed there.
    if (local) local.disconnect();
    else deps.realtime.disconnectSocket(p.connectionId);
  }
  return true;
}

/** Owner: ends the room for everyone (others can only leave). */
export async function endByOwner(deps: CallsDeps, userId: string, callId: string) {
  const call = await deps.db.call.findUnique({ where: { id: callId } });
  refuseJoin(call);
  if (call!.ownerId !== userId) fail('FORBIDDEN', M.onlyOwner);
  await endCall(deps, callId, 'endedByOwner');
  return { ended: true };
}

/**
 * Calls this instance hosted before it stopped (a crash, a restart) have no media any more: end
 * them, so nobody stays "in a call" forever. Calls whose worker died are ended the same way.
 */
export async function endOrphanedCalls(deps: CallsDeps): Promise<number> {
  const orphans = await deps.db.call.findMany({ where: { hostInstance: deps.hub.instanceId, concluded: false }, select: { id: true } });
  for (const { id } of orphans) await endCall(deps, id, 'mediaFailure');
  return orphans.length;
}

// -------------------------------------------------------------------------------------------------
// Remote commands
// -------------------------------------------------------------------------------------------------

/**
 * The owner's command to a participant. mute/muteVideo pause the track on the server at once (the
 * browser is told and pauses its own); unmute/unmuteVideo ask the participant; kick removes them
 * (they cannot come back to this call).
 */
export async function commandParticipant(deps: CallsDeps, issuerId: string, input: { callId: string; userId: string; command: CallCommand }) {
  const call = await deps.db.call.findUnique({ where: { id: input.callId } });
  refuseJoin(call);
  const target = await participantFor(deps.db, input.callId, input.userId);
  const refusal = commandRefusal({ issuerId, ownerId: call!.ownerId ?? '', targetId: input.userId, targetPresent: !!target?.connected });
  if (refusal) fail(refusal === M.targetNotInCall ? 'NOT_FOUND' : 'FORBIDDEN', refusal);
  await deps.db.callParticipant.update({
    where: { id: target!.id },
    data: {
      cmdExecutor: formatCmdExecutor(input.command, issuerId),
      ...(input.command === 'mute' && { audio: false }),
      ...(input.command === 'muteVideo' && { video: false }),
      ...(input.command === 'kick' && { kicked: true }),
    },
  });
  const room = deps.hub.rooms?.get(input.callId);
  if (room && (input.command === 'mute' || input.command === 'muteVideo')) {
    const producer = room.producerOf(input.userId, input.command === 'mute' ? 'mic' : 'cam');
    if (producer && !producer.paused) {
      const peer = room.peerOfUser(input.userId)!;
      await room.setProducerPaused(peer.id, producer.id, true);
    }
  }
  const issuerName = (await names(deps.db, [issuerId])).get(issuerId) ?? '';
  deps.realtime.toUser(input.userId, 'call:command', { callId: input.callId, command: input.command, from: { id: issuerId, name: issuerName } });
  if (input.command === 'kick' && target!.connectionId) {
    const socket = deps.hub.sockets.get(target!.connectionId);
    if (socket) {
      await leaveCall(deps, socket, input.callId);
      socket.disconnect();
    } else {
      // Their call socket is on the call's host instance: closing it there makes them leave there.
      deps.realtime.disconnectSocket(target!.connectionId);
    }
  }
  await pushState(deps, input.callId);
  return { sent: true };
}

// -------------------------------------------------------------------------------------------------
// Reading
// -------------------------------------------------------------------------------------------------

/** May this user see the call: its participant, or a participant of its conversation. */
export async function assertCanSee(deps: CallsDeps, userId: string, callId: string) {
  const call = await deps.db.call.findUnique({ where: { id: callId }, include: { company: { select: { domain: true } } } });
  if (!call) fail('NOT_FOUND', M.callMissing);
  const p = await deps.db.callParticipant.findUnique({ where: { callId_userId: { callId, userId } } });
  if (!p && !(await isConversationParticipant(deps.db, call!.conversationId, userId))) fail('FORBIDDEN', M.notParticipant);
  return { call: call!, participant: p };
}

/**
 * The open call of a conversation, if any (the conversation header offers to join it). Only its
 * participants learn of it: a colleague outside the conversation gets the same answer as "none".
 */
export async function openCallOf(deps: CallsDeps, actor: MemberActor, conversationId: string) {
  if (!(await isConversationParticipant(deps.db, conversationId, actor.userId))) return null;
  const call = await deps.db.call.findFirst({
    where: { conversationId, companyId: actor.company.id, concluded: false },
    orderBy: { createdAt: 'desc' },
    include: stateInclude,
  });
  return call ? toState(call) : null;
}

/** Creates a live room: the chat makes the conversation (type 4) with its creator in it. */
export async function createLiveRoom(deps: CallsDeps, actor: MemberActor, title: string) {
  return createLiveConversation(deps, { companyId: actor.company.id, userId: actor.userId }, title);
}

/**
 * An anonymous visitor signed in to an account (identity's mergeAnonymousUser): the calls they
 * took part in, owned or recorded become the account's. Where both were in the same call, the
 * account's participation stays (charges name participations by id and keep their history).
 */
export async function moveCallRows(tx: Prisma.TransactionClient, fromId: string, toId: string) {
  await tx.$executeRaw`
    DELETE FROM "CallParticipant" p WHERE p."userId" = ${fromId}::uuid
      AND EXISTS (SELECT 1 FROM "CallParticipant" q WHERE q."callId" = p."callId" AND q."userId" = ${toId}::uuid)`;
  await tx.$executeRaw`UPDATE "CallParticipant" SET "userId" = ${toId}::uuid WHERE "userId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "Call" SET "ownerId" = ${toId}::uuid WHERE "ownerId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "Call" SET "recorderId" = ${toId}::uuid WHERE "recorderId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "CallRecording" SET "recorderId" = ${toId}::uuid WHERE "recorderId" = ${fromId}::uuid`;
}

/** At boot: calls whose worker dies are ended, and so are the calls this instance hosted before it stopped. */
export async function startCalls(deps: CallsDeps): Promise<void> {
  deps.hub.onMediaLost((callIds) => {
    for (const callId of callIds) endCall(deps, callId, 'mediaFailure').catch((err) => deps.logger.error({ err, callId }, 'could not end a call whose media died'));
  });
  const ended = await endOrphanedCalls(deps);
  if (ended) deps.logger.warn({ calls: ended }, 'ended calls this instance hosted before it restarted');
}
