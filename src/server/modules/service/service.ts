/**
 * The attendant's side of customer service: the queue (with the visibility rule), taking a request
 * (one transaction, exactly one winner), waiting for a third party, transfer, conclusion and
 * reopening, SLA proposals, tags, tasks, linked tickets and the SLA board.
 */
import type { z } from 'zod';
import type { Company, Conversation, Member, User } from '../../../generated/prisma/client';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { followsServiceStates, isServiceRequest, relayChannelOf } from '../../../shared/domain/conversations';
import { memberMayWork, planIncludes } from '../../../shared/domain/company';
import { canSeeRequest, profileAllowsQueue, queuedRequest, type QueueViewer } from '../../../shared/domain/queue-visibility';
import { SERVICE_TRANSITIONS, serviceTransition, type ServiceAction, type ServiceRole, type TransitionRefusal } from '../../../shared/domain/service-states';
import { canProposeSla, slaColumn, slaProposalState, SLA_COLUMNS, type SlaColumn } from '../../../shared/domain/sla';
import { SERVICE_MESSAGES as M, type createTaskInput, type linkedTicketInput, type transferInput } from '../../../shared/schemas/service';
import type { Logger } from '../../logger';
import { appendGrouped } from '../chat/group-commit';
import { appendMessage } from '../chat/service';
import { requirePermission } from '../profiles/permissions';
import { callerFromRow } from '../../realtime/caller';
import { activeMemberUserIds, createNotifications, pushNotifications } from '../notifications/service';
import { claimForAttendant, claimForSession, type Claim } from './claim';
import { emitTaken, pushConversationUpdated, pushPositions, pushQueueAdded, queuePosition, queueViewers, toQueueRequest } from './events';
import { appendInfo, assertPlanFeature, createServiceRequest, infoMessage, emitAll, fail, isConsultation, SERVICE_REQUEST_WHERE, withNewProtocol, type ServiceDeps } from './shared';

/** The attendant, as the member procedure resolved them. */
export interface ServiceContext extends ServiceDeps {
  company: Company;
  member: Member;
  user: User;
  /** The request's logger (tRPC context). */
  log: Logger;
}

/** Spec 6: while the plan is blocked or the company deactivated, only admins serve the queue. */
function assertMayWork(ctx: ServiceContext) {
  if (!memberMayWork(ctx.company, ctx.member)) throw fail('FORBIDDEN', M.blocked);
}

/** This attendant as the queue rule reads them: their groups and their profile's queues (one raw statement). */
async function myViewer(ctx: ServiceContext): Promise<QueueViewer> {
  const [row] = await ctx.db.$queryRaw<{ groupIds: string[]; queueIds: unknown }[]>`
    SELECT ARRAY(SELECT "groupId"::text FROM "GroupMember" WHERE "memberId" = ${ctx.member.id}::uuid) AS "groupIds",
      (SELECT "queueIds" FROM "Profile" WHERE "companyId" = ${ctx.company.id}::uuid AND "code" = ${ctx.member.profile}) AS "queueIds"`;
  const queueIds = Array.isArray(row?.queueIds) ? (row.queueIds as string[]) : [];
  return { userId: ctx.user.id, groupIds: row?.groupIds ?? [], queueIds };
}

/**
 * The queue's visibility rule for one stored conversation: a request this attendant may see in
 * the queue (spec 5). The queue list, taking and the service panel all ask this one function.
 */
function visibleRequest(viewer: QueueViewer, c: Conversation): boolean {
  return isServiceRequest(c) && canSeeRequest(viewer, queuedRequest(c));
}

function rolesIn(ctx: ServiceContext, c: Conversation): ServiceRole[] {
  const roles: ServiceRole[] = ['attendant'];
  if (ctx.member.isAdmin) roles.push('admin');
  if (c.responsibleId === ctx.user.id) roles.push('responsible');
  return roles;
}

const REFUSAL_TEXT: Record<TransitionRefusal, string> = { wrongState: M.wrongState, notAllowed: M.notAllowed, neverTaken: M.neverTaken };

/** Checks a state move for this attendant; answers the spec's texts. */
function allowed(ctx: ServiceContext, c: Conversation, action: ServiceAction) {
  const move = serviceTransition(action, { state: c.state, taken: c.takenById !== null }, rolesIn(ctx, c));
  if (!move.ok) throw fail(move.reason === 'notAllowed' ? 'FORBIDDEN' : 'BAD_REQUEST', REFUSAL_TEXT[move.reason]);
  return move.to;
}

/** A conversation of THIS company that follows the service states. */
async function serviceConversation(ctx: ServiceContext, conversationId: string): Promise<Conversation> {
  const c = await ctx.db.conversation.findFirst({ where: { id: conversationId, companyId: ctx.company.id } });
  if (!c || (await isConsultation(ctx.db, c.id))) throw fail('NOT_FOUND', M.conversationNotFound);
  if (!followsServiceStates(c)) throw fail('BAD_REQUEST', M.notAService);
  return c;
}

/** Participants may act on a conversation; admins on any of their company's. */
async function assertParticipantOrAdmin(ctx: ServiceContext, conversationId: string) {
  if (ctx.member.isAdmin) return;
  const me = await ctx.db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId: ctx.user.id } } });
  if (!me) throw fail('FORBIDDEN', M.notParticipant);
  if (me.removed) throw fail('FORBIDDEN', M.removed);
}

// ---- the queue --------------------------------------------------------------------------------

/**
 * /i/recent/queue/{id}: the requests waiting that this attendant may see, oldest first, and the
 * queues with how many of those wait in each.
 */
export async function listQueue(ctx: ServiceContext, queueId?: string) {
  const viewer = await myViewer(ctx);
  const [waiting, queues] = await Promise.all([
    ctx.db.conversation.findMany({ where: { companyId: ctx.company.id, inQueue: true }, orderBy: [{ queuedAt: 'asc' }, { id: 'asc' }] }),
    ctx.db.queue.findMany({ where: { companyId: ctx.company.id }, orderBy: { createdAt: 'asc' }, select: { id: true, key: true, name: true, active: true } }),
  ]);
  const visible = waiting.filter((c) => visibleRequest(viewer, c));
  const count = new Map<string, number>();
  for (const c of visible) if (c.queueId) count.set(c.queueId, (count.get(c.queueId) ?? 0) + 1);
  return {
    requests: await Promise.all(visible.filter((c) => !queueId || c.queueId === queueId).map((c) => toQueueRequest(ctx.db, c, ctx.user.id))),
    // A profile restricted to some queues shows only those.
    queues: queues.filter((q) => profileAllowsQueue(viewer.queueIds, q.id)).map((q) => ({ ...q, waiting: count.get(q.id) ?? 0 })),
    total: visible.length,
  };
}

/**
 * How many requests this attendant sees waiting, in all and per queue they serve (the
 * navigation's badge, the desk's queue filter): no request row is built.
 */
export async function countQueue(ctx: ServiceContext) {
  const viewer = await myViewer(ctx);
  const [waiting, queues] = await Promise.all([
    ctx.db.conversation.findMany({ where: { companyId: ctx.company.id, inQueue: true } }),
    ctx.db.queue.findMany({ where: { companyId: ctx.company.id }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true } }),
  ]);
  const visible = waiting.filter((c) => visibleRequest(viewer, c));
  return {
    total: visible.length,
    queues: queues
      .filter((q) => profileAllowsQueue(viewer.queueIds, q.id))
      .map((q) => ({ ...q, waiting: visible.filter((c) => c.queueId === q.id).length })),
  };
}

/**
 * Takes a request (spec 4): naFila false, atendido (who and when), responsible, state 1. ONE
 * statement is the referee and does the checks with the claim (claim.ts): of attendants taking the
 * same request at once, exactly one changes the row (and becomes its one responsible participant in
 * that same statement); the others get 'Solicitação já foi atendida'. A loser, or someone who may
 * not take it, costs that one statement (or its share of one): the reason is told apart from what
 * it read. The winner then posts the "taken" info line and tells everyone.
 */
export async function takeRequest(ctx: ServiceContext, conversationId: string) {
  assertMayWork(ctx);
  // Admins may serve Contact Us tickets whatever their profile says; others are asked only when
  // the claim found a ticket it would otherwise have taken.
  const { told, ...taken } = await afterClaim(ctx, conversationId, await claimAs(ctx, conversationId, ctx.member.isAdmin));
  // Over HTTP the answer waits for the line: an integration reading the conversation right after finds it.
  await told;
  return taken;
}

/**
 * service:take: the caller lookup (the socket's session and the membership in the company of
 * `domain`, read for every take, nothing cached) IN the claim's statement, so an attempt is one
 * round trip, shared with the other takes of its event-loop turn (claimForSession). The statement
 * claims only where callerMayActSql and MEMBER_MAY_WORK_SQL let the caller through; the answer is
 * still callerFromRow's and assertMayWork's, from the row it read, in their order and words, then
 * takeRequest's.
 * The desk is answered as soon as the claim is known; the "taken" line and the pushes follow it.
 * They cannot change the answer (a line that fails is logged, never answered as a failure), and the
 * desk gets the line as a push like every participant. Waiting for the line's round trip was the
 * winners' tail: p99 81-99 -> 53-66 ms in bench/queue-take (docs/performance.md section 26).
 */
export async function takeAsCaller(deps: Omit<ServiceContext, 'company' | 'member' | 'user'>, sessionId: string, domain: string, conversationId: string) {
  const claim = await claimForSession(deps, { sessionId, domain, conversationId });
  let ctx: ServiceContext;
  try {
    ctx = { ...deps, ...(await callerFromRow(deps.db, claim.caller, claim.now)) };
    assertMayWork(ctx);
  } catch (err) {
    // The SQL twins drifted from the JS rules: worth an alarm, the refusal is still the answer.
    if (claim.won) deps.log.error({ err, conversationId }, 'service:take: claimed for a caller the rules refuse');
    throw err;
  }
  const { told: _told, ...taken } = await afterClaim(ctx, conversationId, claim);
  return taken;
}

/** The claim of an attendant the member procedure (or callerFromRow) let through. */
function claimAs(ctx: ServiceContext, conversationId: string, ticketsAllowed: boolean): Promise<Claim> {
  const who = { userId: ctx.user.id, memberId: ctx.member.id, companyId: ctx.company.id, profile: ctx.member.profile };
  return claimForAttendant(ctx, { ...who, ticketsAllowed, conversationId });
}

/**
 * What a take does once its first claim is known: the refusal in takeRequest's words, or the
 * winner's line and pushes, under way: `told` settles (never rejects) once they went out.
 */
async function afterClaim(ctx: ServiceContext, conversationId: string, first: Claim): Promise<{ conversationId: string; told: Promise<void> }> {
  const now = first.now;
  let claim = first;
  if (!claim.won) {
    const c = claim.conversation;
    // A request this attendant cannot see does not exist for them.
    if (!c || !visibleRequest(claim.viewer, c)) throw fail('NOT_FOUND', M.requestNotFound);
    if (!c.inQueue) throw fail('CONFLICT', M.alreadyTaken);
    // Contact Us arrives as a ticket: serving those is a profile permission (src/server/modules/governed.ts).
    if (c.type === CONVERSATION_TYPE.ticket && !ctx.member.isAdmin) {
      await requirePermission(ctx, 'serveContactUs');
      allowed(ctx, c, 'take');
      claim = await claimAs(ctx, conversationId, true);
    } else allowed(ctx, c, 'take');
    // Seen in the queue, claimed by someone else between that read and the update.
    if (!claim.won) throw fail('CONFLICT', M.alreadyTaken);
  }
  const c = { id: conversationId, companyId: ctx.company.id, queueId: claim.won.queueId };
  // Written right after the claim, in the group commit with the other lines and sends of the
  // moment (one statement for the takes of a burst; a short transaction where a channel customer's
  // relay goes with it): a process dying in between leaves the request taken, with its responsible,
  // without this line (docs/decisions.md, "The take: one statement").
  // What the pushes tell came with the claim; they go out in the same order as ever, the line first.
  const pushes = claim.taken;
  const told = postTakenLine(ctx, c.id, now)
    .then((appended) => {
      emitAll(ctx.realtime, [appended]);
      if (pushes) emitTaken(ctx, c, ctx.company.domain, pushes);
    })
    .catch((err: unknown) => ctx.log.error({ err, conversationId }, 'take: the pushes after the claim failed'));
  return { conversationId: c.id, told };
}

/**
 * The "taken" info line. The request is the winner's from here on: a failure to post the line
 * must not answer them with an error (they would think they lost what they hold). A transaction
 * that could not start (P2028: no pooled connection in time, nothing was written) is tried again;
 * anything else is logged.
 */
async function postTakenLine(ctx: ServiceContext, conversationId: string, now: Date) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await appendGrouped(ctx.db, ctx.company.domain, infoMessage(conversationId, { info: 'taken', params: { name: ctx.user.name } }), now);
    } catch (err) {
      if ((err as { code?: string }).code === 'P2028' && attempt < 3) continue;
      ctx.log.error({ err, conversationId }, 'take: the "taken" info message was not posted');
      return null;
    }
  }
}

// ---- serving ----------------------------------------------------------------------------------

/**
 * Applies a state move with an optimistic check (the state read is still the state written over),
 * posts its info message in the same transaction, and tells the participants.
 */
async function moveState(
  ctx: ServiceContext,
  c: Conversation,
  action: ServiceAction,
  data: Parameters<ServiceDeps['db']['conversation']['updateMany']>[0]['data'],
  info: Parameters<typeof appendInfo>[3],
) {
  const now = ctx.clock.now();
  const appended = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: c.id, state: c.state, responsibleId: c.responsibleId }, data: { ...data, state: SERVICE_TRANSITIONS[action].to } });
    if (count === 0) throw fail('CONFLICT', M.changed);
    return appendInfo(tx, ctx.company.domain, c.id, info, now);
  });
  emitAll(ctx.realtime, [appended]);
  await pushConversationUpdated(ctx, c.id);
}

/** 1 Atendendo <-> 2 Aguardando Terceiro. */
export async function setWaiting(ctx: ServiceContext, conversationId: string, waiting: boolean) {
  assertMayWork(ctx);
  const c = await serviceConversation(ctx, conversationId);
  const action = waiting ? 'wait' : 'resume';
  allowed(ctx, c, action);
  await moveState(ctx, c, action, {}, { info: waiting ? 'waitingThirdParty' : 'resumed', params: { name: ctx.user.name } });
  return { state: SERVICE_TRANSITIONS[action].to };
}

/** /concluir: concluido, state 9999, dataConcluido, and the info message. */
export async function concludeService(ctx: ServiceContext, conversationId: string) {
  assertMayWork(ctx);
  const c = await serviceConversation(ctx, conversationId);
  allowed(ctx, c, 'conclude');
  await moveState(ctx, c, 'conclude', { concludedAt: ctx.clock.now(), inQueue: false, slaProposalOpen: false }, { info: 'concluded', params: { name: ctx.user.name } });
  return { state: CONVERSATION_STATE.concluded };
}

/** 'Atendimento reaberto': back to state 1, by the owner of a request that was taken. */
export async function reopenService(ctx: ServiceContext, conversationId: string) {
  assertMayWork(ctx);
  const c = await serviceConversation(ctx, conversationId);
  allowed(ctx, c, 'reopen');
  await moveState(ctx, c, 'reopen', { concludedAt: null }, { info: 'reopened', params: { name: ctx.user.name } });
  return { state: CONVERSATION_STATE.serving };
}

/**
 * /transfer: the request goes back into a queue, either another queue (its attendants see it) or
 * aimed at one attendant (userFila: only they see it, and they take it). The person who was
 * responsible stays a participant and may now leave. A comment, when not empty after trimming,
 * is added for members only. Answers 'O Atendimento foi transferido com sucesso!'.
 */
export async function transferService(ctx: ServiceContext, input: z.output<typeof transferInput>) {
  assertMayWork(ctx);
  const c = await serviceConversation(ctx, input.conversationId);
  if (!isServiceRequest(c)) throw fail('BAD_REQUEST', M.notAService);
  allowed(ctx, c, 'transfer');
  const now = ctx.clock.now();
  let target: { queueId: string | null; queueName: string | null; groupIds: string[]; userId: string | null; label: string };
  if (input.target.kind === 'queue') {
    const queue = await ctx.db.queue.findFirst({ where: { id: input.target.queueId, companyId: ctx.company.id }, include: { groups: { select: { groupId: true } } } });
    if (!queue) throw fail('NOT_FOUND', M.queueNotFound);
    if (!queue.active) throw fail('BAD_REQUEST', M.queueDisabled);
    target = { queueId: queue.id, queueName: queue.name, groupIds: queue.groups.map((g) => g.groupId), userId: null, label: queue.name };
  } else {
    if (input.target.userId === ctx.user.id && c.responsibleId === ctx.user.id) throw fail('BAD_REQUEST', M.transferToSelf);
    const [userId] = await activeMemberUserIds(ctx.db, ctx.company.id, [input.target.userId]);
    if (!userId) throw fail('NOT_FOUND', M.attendantNotFound);
    const person = await ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } });
    target = { queueId: c.queueId, queueName: c.queueName, groupIds: c.queueGroupIds, userId, label: person.name };
  }
  const comment = input.comment?.trim();
  const result = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({
      where: { id: c.id, state: c.state, responsibleId: c.responsibleId },
      data: {
        state: SERVICE_TRANSITIONS.transfer.to,
        inQueue: true,
        queuedAt: now,
        queueId: target.queueId,
        queueName: target.queueName,
        queueGroupIds: target.groupIds,
        queueUserId: target.userId,
        responsibleId: null,
      },
    });
    if (count === 0) throw fail('CONFLICT', M.changed);
    await tx.participant.updateMany({ where: { conversationId: c.id, responsible: true }, data: { responsible: false } });
    const appended = [];
    if (comment) appended.push(await appendMessage(tx, ctx.company.domain, { conversationId: c.id, authorId: ctx.user.id, text: comment, isComment: true }, now));
    appended.push(
      await appendInfo(
        tx,
        ctx.company.domain,
        c.id,
        target.userId ? { info: 'transferredToAttendant', params: { from: ctx.user.name, to: target.label } } : { info: 'transferredToQueue', params: { from: ctx.user.name, queue: target.label } },
        now,
      ),
    );
    const notifications = target.userId
      ? await createNotifications(tx, [
          {
            companyId: ctx.company.id,
            userId: target.userId,
            type: 'transfer',
            title: 'A service was transferred to you',
            subtitle: `${c.title} · ${ctx.user.name}`,
            action: `/i/recent/queue/${target.queueId ?? 'all'}`,
          },
        ])
      : [];
    return { appended, notifications, conversation: await tx.conversation.findUniqueOrThrow({ where: { id: c.id } }) };
  });
  emitAll(ctx.realtime, result.appended);
  pushNotifications(ctx.realtime, result.notifications);
  await pushQueueAdded(ctx, ctx.company.domain, result.conversation);
  await pushPositions(ctx, ctx.company.id, result.conversation.queueId);
  await pushConversationUpdated(ctx, c.id);
  return { transferred: true };
}

/** Where a request can be transferred to: the company's active queues and active attendants. */
export async function transferTargets(ctx: ServiceContext) {
  const [queues, members] = await Promise.all([
    ctx.db.queue.findMany({ where: { companyId: ctx.company.id, active: true }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true } }),
    ctx.db.member.findMany({
      where: { companyId: ctx.company.id, inviteAccepted: true, blocked: false, removed: false },
      select: { userId: true, user: { select: { name: true, presence: true } } },
    }),
  ]);
  return {
    queues,
    attendants: members
      .map((m) => ({ userId: m.userId, name: m.user.name, presence: m.user.presence, me: m.userId === ctx.user.id }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

// ---- what the attendant sees of a service -----------------------------------------------------

/** The service panel of a conversation: state, people, queue, SLA, tags, tasks, what I may do. */
export async function serviceDetails(ctx: ServiceContext, conversationId: string) {
  const c = await serviceConversation(ctx, conversationId);
  // A waiting request the queue shows this attendant: they may look at it before taking it.
  const waitingForMe = c.inQueue && visibleRequest(await myViewer(ctx), c);
  if (!waitingForMe) await assertParticipantOrAdmin(ctx, conversationId);
  const ids = [c.creatorId, c.responsibleId, c.takenById].filter((x): x is string => !!x);
  const [people, tasks, parent, linked, creatorPart] = await Promise.all([
    ctx.db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, anonymous: true } }),
    ctx.db.conversation.findMany({ where: { parentId: c.id }, orderBy: { createdAt: 'asc' }, select: { id: true, title: true, protocol: true, state: true } }),
    c.parentId ? ctx.db.conversation.findUnique({ where: { id: c.parentId }, select: { id: true, title: true, protocol: true } }) : null,
    ctx.db.conversation.findMany({ where: { linkedConversationId: c.id }, select: { id: true, protocol: true, state: true, company: { select: { domain: true, name: true } } } }),
    c.creatorId ? ctx.db.participant.findUnique({ where: { conversationId_userId: { conversationId: c.id, userId: c.creatorId } }, select: { email: true, whatsapp: true, telegram: true } }) : null,
  ]);
  const person = (id: string | null) => (id ? (people.find((p) => p.id === id) ?? null) : null);
  const roles = rolesIn(ctx, c);
  const can = (action: ServiceAction) => serviceTransition(action, { state: c.state, taken: c.takenById !== null }, roles).ok;
  return {
    conversationId: c.id,
    type: c.type,
    state: c.state,
    protocol: c.protocol,
    title: c.title,
    queue: c.queueId ? { id: c.queueId, name: c.queueName } : c.queueName ? { id: null, name: c.queueName } : null,
    inQueue: c.inQueue,
    position: await queuePosition(ctx.db, c),
    customer: person(c.creatorId),
    /** The customer came by e-mail, WhatsApp or Telegram (null: in the app or on the public page). */
    customerChannel: relayChannelOf(creatorPart),
    responsible: person(c.responsibleId),
    takenBy: person(c.takenById),
    takenAt: c.takenAt,
    concludedAt: c.concludedAt,
    rating: c.rating,
    tags: c.tags,
    sla: { proposal: slaProposalState(c), offerDate: c.slaOfferDate, dueAt: c.slaDueAt, accepted: c.slaAccepted },
    tasks,
    parent,
    linkedTickets: linked.map((l) => ({ conversationId: l.id, protocol: l.protocol, state: l.state, domain: l.company.domain, companyName: l.company.name })),
    can: {
      // The same checks as takeRequest: visible and waiting, allowed to work, the 'take' move.
      take: waitingForMe && memberMayWork(ctx.company, ctx.member) && can('take'),
      wait: can('wait'),
      resume: can('resume'),
      transfer: isServiceRequest(c) && can('transfer'),
      conclude: can('conclude'),
      reopen: can('reopen'),
      proposeSla:
        planIncludes(ctx.company.plan, 'sla') &&
        isServiceRequest(c) &&
        (roles.includes('responsible') || roles.includes('admin')) &&
        c.state !== CONVERSATION_STATE.concluded,
      timesheet: planIncludes(ctx.company.plan, 'timesheet'),
    },
  };
}

// ---- SLA --------------------------------------------------------------------------------------

/** Proposes a conclusion date (propostaSLA): a proposal message the customer answers. */
export async function proposeSla(ctx: ServiceContext, conversationId: string, offerDate: Date) {
  assertPlanFeature(ctx.company, 'sla');
  assertMayWork(ctx);
  const c = await serviceConversation(ctx, conversationId);
  const roles = rolesIn(ctx, c);
  if (!isServiceRequest(c)) throw fail('BAD_REQUEST', M.notAService);
  if (!roles.includes('responsible') && !roles.includes('admin')) throw fail('FORBIDDEN', M.notAllowed);
  const now = ctx.clock.now();
  const refusal = canProposeSla(c, offerDate, now);
  if (refusal) throw fail('BAD_REQUEST', { concluded: M.concluded, alreadyOpen: M.slaAlreadyOpen, inThePast: M.slaInThePast }[refusal]);
  const appended = await ctx.db.$transaction(async (tx) => {
    const proposal = await appendMessage(
      tx,
      ctx.company.domain,
      {
        conversationId: c.id,
        authorId: ctx.user.id,
        type: 'propostaSLA',
        text: `Proposed conclusion date: ${offerDate.toISOString()}`,
        data: { offerDate: offerDate.toISOString(), escolhaProposta: null },
      },
      now,
    );
    const { count } = await tx.conversation.updateMany({
      where: { id: c.id, slaProposalOpen: false, state: { not: CONVERSATION_STATE.concluded } },
      data: { slaProposalOpen: true, slaOfferDate: offerDate, slaProposalMessageId: proposal.message.id },
    });
    if (count === 0) throw fail('CONFLICT', M.slaAlreadyOpen);
    return proposal;
  });
  emitAll(ctx.realtime, [appended]);
  await pushConversationUpdated(ctx, c.id);
  return { messageId: appended.message.id };
}

/**
 * /i/kanbansla: the company's open service requests (and those concluded in the last 7 days) by
 * SLA column, soonest due first. Admins see all; attendants the ones they take part in.
 */
export async function slaBoard(ctx: ServiceContext) {
  assertPlanFeature(ctx.company, 'kanban');
  const now = ctx.clock.now();
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3_600_000);
  const rows = await ctx.db.conversation.findMany({
    where: {
      companyId: ctx.company.id,
      OR: [{ slaDueAt: { not: null } }, { slaOfferDate: { not: null } }, { queue: { sla: true } }],
      AND: [
        SERVICE_REQUEST_WHERE,
        { OR: [{ state: { not: CONVERSATION_STATE.concluded } }, { concludedAt: { gte: weekAgo } }] },
        ...(ctx.member.isAdmin ? [] : [{ participants: { some: { userId: ctx.user.id, removed: false } } }]),
      ],
    },
    orderBy: [{ slaDueAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }],
    take: 500,
  });
  const responsibles = await ctx.db.user.findMany({ where: { id: { in: rows.map((r) => r.responsibleId).filter((x): x is string => !!x) } }, select: { id: true, name: true } });
  const nameOf = new Map(responsibles.map((u) => [u.id, u.name]));
  const columns = Object.fromEntries(SLA_COLUMNS.map((k) => [k, [] as unknown[]])) as Record<SlaColumn, ReturnType<typeof card>[]>;
  function card(r: Conversation) {
    return {
      conversationId: r.id,
      protocol: r.protocol,
      title: r.title,
      state: r.state,
      queueName: r.queueName,
      responsibleName: r.responsibleId ? (nameOf.get(r.responsibleId) ?? null) : null,
      dueAt: r.slaDueAt,
      accepted: r.slaAccepted,
      offerDate: r.slaOfferDate,
    };
  }
  for (const r of rows) columns[slaColumn(r, now)].push(card(r));
  return { columns: SLA_COLUMNS.map((key) => ({ key, cards: columns[key] })), now };
}

// ---- tags and tasks ---------------------------------------------------------------------------

/** Replaces a conversation's tags: trimmed, without repeats (regardless of case). */
export async function setTags(ctx: ServiceContext, conversationId: string, tags: string[]) {
  const c = await serviceConversation(ctx, conversationId);
  await assertParticipantOrAdmin(ctx, conversationId);
  const seen = new Set<string>();
  const clean = tags.map((t) => t.trim()).filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  await ctx.db.conversation.update({ where: { id: c.id }, data: { tags: clean } });
  await pushConversationUpdated(ctx, c.id);
  return { tags: clean };
}

/** The tags used in the company, most used first, to suggest while typing. */
export async function companyTags(ctx: ServiceContext) {
  const rows = await ctx.db.$queryRaw<{ tag: string; n: bigint }[]>`
    SELECT t AS tag, count(*) AS n FROM "Conversation", unnest(tags) AS t
    WHERE "companyId" = ${ctx.company.id}::uuid GROUP BY t ORDER BY n DESC, t LIMIT 200`;
  return rows.map((r) => r.tag);
}

/** A task (type 2) opened from a conversation (idPai), with the members who do it. */
export async function createTask(ctx: ServiceContext, input: z.output<typeof createTaskInput>) {
  assertMayWork(ctx);
  const parent = await serviceConversation(ctx, input.conversationId);
  await assertParticipantOrAdmin(ctx, parent.id);
  const others = input.userIds.filter((id) => id !== ctx.user.id);
  const active = await activeMemberUserIds(ctx.db, ctx.company.id, others);
  if (active.length !== new Set(others).size) throw fail('NOT_FOUND', M.attendantNotFound);
  const now = ctx.clock.now();
  const result = await withNewProtocol(ctx.db, async (tx, protocol) => {
    const task = await tx.conversation.create({
      data: {
        companyId: ctx.company.id,
        type: CONVERSATION_TYPE.task,
        state: CONVERSATION_STATE.serving,
        title: input.title,
        protocol,
        creatorId: ctx.user.id,
        parentId: parent.id,
        takenById: ctx.user.id,
        takenAt: now,
        responsibleId: ctx.user.id,
        createdAt: now,
        participants: { create: [ctx.user.id, ...active].map((userId) => ({ userId, responsible: userId === ctx.user.id, joinedAt: now })) },
      },
    });
    const inParent = await appendInfo(tx, ctx.company.domain, parent.id, { info: 'taskCreated', params: { title: task.title, protocol } }, now);
    return { task, inParent };
  });
  emitAll(ctx.realtime, [result.inParent]);
  await pushConversationUpdated(ctx, result.task.id);
  return { conversationId: result.task.id, protocol: result.task.protocol };
}

// ---- linked tickets ---------------------------------------------------------------------------

/** Companies linked to this one (its client companies and the companies it is a client of), accepted. */
async function linkedCompanies(ctx: ServiceContext) {
  const links = await ctx.db.clientCompanyLink.findMany({
    where: { accepted: true, OR: [{ companyId: ctx.company.id }, { clientDomain: ctx.company.domain }] },
    select: { clientDomain: true, company: { select: { domain: true } } },
  });
  const domains = [...new Set(links.map((l) => (l.clientDomain === ctx.company.domain ? l.company.domain : l.clientDomain)))].filter((d) => d !== ctx.company.domain);
  return ctx.db.company.findMany({ where: { domain: { in: domains } }, orderBy: { name: 'asc' } });
}

/** /i/recent/chamadoVinculado: where a linked ticket can be opened, with each company's public queues. */
export async function linkTargets(ctx: ServiceContext) {
  const companies = await linkedCompanies(ctx);
  const queues = await ctx.db.queue.findMany({
    where: { companyId: { in: companies.map((c) => c.id) }, active: true, internal: false },
    orderBy: { createdAt: 'asc' },
    select: { companyId: true, key: true, name: true },
  });
  return companies.map((c) => ({
    domain: c.domain,
    name: c.name,
    hasImage: c.imageKey !== null,
    queues: queues.filter((q) => q.companyId === c.id).map((q) => ({ key: q.key, name: q.name })),
  }));
}

/**
 * Opens a ticket in a client or network company, linked to this conversation: the attendant is its
 * customer there, and this conversation records it.
 */
export async function openLinkedTicket(ctx: ServiceContext, input: z.output<typeof linkedTicketInput>) {
  assertMayWork(ctx);
  const source = await serviceConversation(ctx, input.conversationId);
  await assertParticipantOrAdmin(ctx, source.id);
  const target = (await linkedCompanies(ctx)).find((c) => c.domain === input.targetDomain);
  if (!target) throw fail('FORBIDDEN', M.companyNotLinked);
  const queue = await ctx.db.queue.findFirst({ where: { companyId: target.id, key: input.queueKey, internal: false }, include: { groups: { select: { groupId: true } } } });
  if (!queue) throw fail('NOT_FOUND', M.queueNotFound);
  if (!queue.active) throw fail('BAD_REQUEST', M.queueDisabled);
  const { conversation } = await createServiceRequest(ctx, {
    company: target,
    queue,
    customer: ctx.user,
    type: CONVERSATION_TYPE.ticket,
    text: input.text || `${ctx.company.name} · ${source.protocol}${source.title ? ` · ${source.title}` : ''}`,
    linkedConversationId: source.id,
  });
  const now = ctx.clock.now();
  const appended = await ctx.db.$transaction((tx) =>
    appendInfo(tx, ctx.company.domain, source.id, { info: 'linkedTicketOpened', params: { company: target.name, protocol: conversation.protocol } }, now),
  );
  emitAll(ctx.realtime, [appended]);
  return { conversationId: conversation.id, domain: target.domain, protocol: conversation.protocol };
}

/** Used by the queue alarm and tests: the attendants who see at least one waiting request, with how many. */
export async function waitingPerAttendant(db: ServiceDeps['db'], companyId: string) {
  const [viewers, waiting] = await Promise.all([
    queueViewers(db, companyId),
    db.conversation.findMany({ where: { companyId, inQueue: true }, select: { queueGroupIds: true, queueUserId: true, queueId: true } }),
  ]);
  const result: { userId: string; waiting: number; settings: Record<string, unknown> }[] = [];
  for (const v of viewers) {
    const n = waiting.filter((w) => canSeeRequest(v, queuedRequest(w))).length;
    if (n > 0) result.push({ userId: v.userId, waiting: n, settings: v.settings });
  }
  return result;
}
