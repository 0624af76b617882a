/**
 * The customer's side of a service: the company's public page, asking for service (directly or
 * through Contact Us), following one's own request and answering in it, leaving the queue, the
 * SLA answer and the rating. Customers and anonymous visitors are Users who are participants of
 * the conversation, not members of the company: every rule here is checked by participation.
 */
import { widgetSettingsOf } from '../../../shared/domain/widget';
import type { ContactSource } from '../../../shared/domain/contacts';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { User } from '../../../generated/prisma/client';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { isServiceRequest } from '../../../shared/domain/conversations';
import { companyBlocksWork } from '../../../shared/domain/company';
import { contactUsMessage, validateContactUs, type ContactUsFieldError } from '../../../shared/domain/contact-us-form';
import { applyRating, publicRating } from '../../../shared/domain/rating';
import { serviceTransition } from '../../../shared/domain/service-states';
import { answerSla as answerSlaRule, slaProposalState } from '../../../shared/domain/sla';
import { SERVICE_MESSAGES as M, type contactUsSubmitInput, type customerFileLinksInput, type customerMessagesInput, type customerSendInput, type requestServiceInput } from '../../../shared/schemas/service';
import type { Db } from '../../db/client';
import type { ObjectStore } from '../../storage';
import type { CompanyContext } from '../company/service';
import { appendMessage, emitMessage, toMessage } from '../chat/service';
import { FILE_ROW, signFileLinks } from '../chat/files';
import { updateAccount } from '../identity/service';
import { createNotifications, pushNotifications } from '../notifications/service';
import { readContactUs } from '../settings/service';
import { estimatedWait, pushConversationUpdated, queuePosition } from './events';
import { afterLeavingQueue, appendInfo, assertTakingRequests, createServiceRequest, emitAll, fail, findCompany, SERVICE_REQUEST_WHERE, type ServiceDeps } from './shared';

// ---- the company's public page ----------------------------------------------------------------

/** Contact Us settings of a company; the settings module's rule (defaults for older companies). */
const contactUsOf = (db: Db, company: CompanyContext['company']) => readContactUs({ db, company } as CompanyContext);

/** /{emp}: what anyone may see of a company, and the queues a visitor may ask in. */
export async function companyPage(db: Db, domain: string) {
  const company = await findCompany(db, domain);
  const queues = await db.queue.findMany({ where: { companyId: company.id, active: true, internal: false }, orderBy: { createdAt: 'asc' }, select: { key: true, name: true } });
  const contactUs = contactUsOf(db, company);
  return {
    domain: company.domain,
    name: company.name,
    bio: company.bio,
    website: company.website,
    socialNetworks: company.socialNetworks as Record<string, string>,
    hasImage: company.imageKey !== null,
    /** null until a customer rated a service (the stored seed is not a rating). */
    rating: publicRating({ total: company.ratingTotal, count: company.ratingCount }),
    contactUs: { name: contactUs.name, blocked: contactUs.blocked },
    /** False while the company's plan is blocked or it is deactivated. */
    takingRequests: companyBlocksWork(company) === null,
    queues,
    /** The embeddable widget's look (public: it is drawn on the company's own site anyway). */
    widget: widgetSettingsOf(company.widget),
  };
}

/** /{emp}/faleconosco: the form as configured, with the company's additional fields. */
export async function contactUsForm(db: Db, domain: string) {
  const company = await findCompany(db, domain);
  const settings = contactUsOf(db, company);
  const extras = await db.additionalField.findMany({ where: { companyId: company.id }, orderBy: { createdAt: 'asc' } });
  return {
    companyName: company.name,
    name: settings.name,
    pageTitle: settings.pageTitle,
    blocked: settings.blocked,
    fields: settings.fields,
    extras: extras.map((x) => ({ tag: x.tag, name: x.name, multipleChoice: x.multipleChoice, options: x.options as string[] })),
  };
}

// ---- asking for service -----------------------------------------------------------------------

/**
 * The name a request is opened under. Anonymous visitors must give one first (spec 5); it becomes
 * their user's name. A signed-in user with a name keeps their own.
 */
async function customerWithName(db: Db, user: User, given: string | undefined): Promise<User> {
  const name = given?.trim();
  if ((user.anonymous || !user.name.trim()) && name) return updateAccount(db, user, { name });
  if (!user.name.trim()) throw fail('BAD_REQUEST', M.nameRequired);
  return user;
}

async function isActiveMember(db: Db, companyId: string, userId: string) {
  return (await db.member.count({ where: { companyId, userId, inviteAccepted: true, blocked: false, removed: false } })) > 0;
}

/**
 * /{emp}/direct/queue/{queue}: a request into a queue. An open one in the same queue is returned
 * instead. The channels ask through here too (`source` 'channel', for the customer directory).
 */
export async function requestService(deps: ServiceDeps, user: User, input: z.output<typeof requestServiceInput>, source: ContactSource = 'publicPage') {
  const company = await findCompany(deps.db, input.domain);
  assertTakingRequests(company);
  const queue = await deps.db.queue.findFirst({ where: { companyId: company.id, key: input.queueKey }, include: { groups: { select: { groupId: true } } } });
  // Internal queues are for the company's own members; to anyone else they do not exist.
  if (!queue || (queue.internal && !(await isActiveMember(deps.db, company.id, user.id)))) throw fail('NOT_FOUND', M.queueNotFound);
  if (!queue.active) throw fail('BAD_REQUEST', M.queueDisabled);
  const customer = await customerWithName(deps.db, user, input.name);
  const open = await deps.db.conversation.findFirst({
    where: { companyId: company.id, creatorId: customer.id, queueId: queue.id, type: CONVERSATION_TYPE.single, state: { not: CONVERSATION_STATE.concluded } },
    orderBy: { createdAt: 'desc' },
  });
  if (open) return { conversationId: open.id, protocol: open.protocol, position: await queuePosition(deps.db, open), existing: true };
  const { conversation, position } = await createServiceRequest(deps, { company, queue, customer, type: CONVERSATION_TYPE.single, text: input.text, source });
  return { conversationId: conversation.id, protocol: conversation.protocol, position, existing: false };
}

const FIELD_ERROR_TEXT: Record<ContactUsFieldError, string> = {
  required: 'Fill in all fields',
  email: 'Invalid email',
  tooShort: 'Too short',
  tooLong: 'Too long',
  notAnOption: 'Choose one of the options',
};

/**
 * /{emp}/faleconosco: the form becomes a ticket in the Contact Us queue, its answers the first
 * message. Read-only fields carry what the account already knows (name, e-mail, phone).
 */
export async function submitContactUs(deps: ServiceDeps, user: User, input: z.output<typeof contactUsSubmitInput>) {
  const company = await findCompany(deps.db, input.domain);
  const settings = contactUsOf(deps.db, company);
  if (settings.blocked) throw fail('FORBIDDEN', M.contactUsBlocked);
  assertTakingRequests(company);
  const known: Record<string, string | null> = { name: user.anonymous ? null : user.name, email: user.email, phone: user.phone };
  const values = { ...input.values };
  for (const f of settings.fields) if (f.readOnly) values[f.key] = known[f.key] ?? '';
  const extras = (await deps.db.additionalField.findMany({ where: { companyId: company.id }, orderBy: { createdAt: 'asc' } })).map((x) => ({
    tag: x.tag,
    name: x.name,
    multipleChoice: x.multipleChoice,
    options: x.options as string[],
  }));
  const checked = validateContactUs(settings.fields, extras, values);
  if (!checked.ok) {
    // As a validation error (a real ZodError, from a parse): the client gets each field's problem in data.fieldErrors.
    const failed = z
      .object({})
      .superRefine((_value, zctx) => {
        for (const [key, error] of Object.entries(checked.errors)) zctx.addIssue({ code: 'custom', path: [key], message: FIELD_ERROR_TEXT[error] });
      })
      .safeParse({});
    throw new TRPCError({ code: 'BAD_REQUEST', message: M.invalidForm, cause: failed.error });
  }
  const queue = await deps.db.queue.findFirst({ where: { companyId: company.id, key: settings.defaultQueueKey }, include: { groups: { select: { groupId: true } } } });
  if (!queue || !queue.active) throw fail('BAD_REQUEST', M.queueDisabled);
  const customer = await customerWithName(deps.db, user, checked.values.name);
  const { conversation, position } = await createServiceRequest(deps, {
    company,
    queue,
    customer,
    type: CONVERSATION_TYPE.ticket,
    text: contactUsMessage(settings.fields, extras, checked.values),
  });
  return { conversationId: conversation.id, protocol: conversation.protocol, position };
}

/** The caller's own open requests in a company, newest first (to go back to one). */
export async function openServices(db: Db, user: User, domain: string) {
  const company = await findCompany(db, domain);
  const rows = await db.conversation.findMany({
    where: { companyId: company.id, creatorId: user.id, ...SERVICE_REQUEST_WHERE, state: { not: CONVERSATION_STATE.concluded }, participants: { some: { userId: user.id, removed: false } } },
    orderBy: { createdAt: 'desc' },
    take: 20,
    select: { id: true, type: true, state: true, protocol: true, queueName: true, createdAt: true },
  });
  return rows.map((r) => ({ conversationId: r.id, type: r.type, state: r.state, protocol: r.protocol, queueName: r.queueName, createdAt: r.createdAt }));
}

// ---- following one's own request --------------------------------------------------------------

/** The caller's participation in a service request, or a refusal; any company. */
async function asCustomer(db: Db, userId: string, conversationId: string) {
  const conversation = await db.conversation.findUnique({ where: { id: conversationId }, include: { company: true } });
  if (!conversation || !isServiceRequest(conversation)) throw fail('NOT_FOUND', M.conversationNotFound);
  const me = await db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId } } });
  if (!me) throw fail('FORBIDDEN', M.invalidAccess);
  if (me.removed) throw fail('FORBIDDEN', M.removed);
  return { conversation, company: conversation.company, me };
}

/** /{emp}/chat/{id} and /{emp}/ticket/{id}: where the request stands. */
export async function customerConversation(deps: ServiceDeps, user: User, conversationId: string) {
  const { conversation: c, company, me } = await asCustomer(deps.db, user.id, conversationId);
  const responsible = c.responsibleId ? await deps.db.user.findUnique({ where: { id: c.responsibleId }, select: { name: true } }) : null;
  const isCustomer = c.creatorId === user.id;
  // The attendants in it: their names and faces beside their bubbles, their watermarks for my ticks.
  const others = await deps.db.participant.findMany({
    where: { conversationId, removed: false, NOT: { userId: user.id } },
    select: { userId: true, deliveredSeq: true, readSeq: true, user: { select: { name: true, avatarKey: true } } },
  });
  return {
    conversationId: c.id,
    domain: company.domain,
    companyName: company.name,
    companyHasImage: company.imageKey !== null,
    type: c.type,
    state: c.state,
    protocol: c.protocol,
    queueName: c.queueName,
    position: await queuePosition(deps.db, c),
    estimatedWaitMinutes: c.inQueue && !c.takenAt ? await estimatedWait(deps.db, company.id, deps.clock.now()) : null,
    responsibleName: responsible?.name ?? null,
    takenAt: c.takenAt,
    concludedAt: c.concludedAt,
    rating: c.rating,
    canRate: isCustomer && c.state === CONVERSATION_STATE.concluded && c.takenById !== null && c.rating === null,
    canLeaveQueue: isCustomer && serviceTransition('leaveQueue', { state: c.state, taken: c.takenById !== null }, ['customer']).ok,
    sla: { proposal: slaProposalState(c), offerDate: c.slaOfferDate, dueAt: c.slaDueAt, accepted: c.slaAccepted },
    lastSeq: c.lastSeq,
    readSeq: me.readSeq,
    others: others.map((o) => ({ userId: o.userId, name: o.user.name, hasAvatar: o.user.avatarKey !== null, deliveredSeq: o.deliveredSeq, readSeq: o.readSeq })),
  };
}

/** The conversation's messages without the members' comments, which customers never see. */
export async function customerMessages(deps: ServiceDeps, user: User, input: z.output<typeof customerMessagesInput>) {
  await asCustomer(deps.db, user.id, input.conversationId);
  const newestFirst = input.afterSeq === undefined;
  const rows = await deps.db.message.findMany({
    where: { conversationId: input.conversationId, isComment: false, ...(input.afterSeq !== undefined && { seq: { gt: input.afterSeq } }) },
    orderBy: { seq: newestFirst ? 'desc' : 'asc' },
    take: input.limit,
    include: { author: { select: { name: true } } },
  });
  if (newestFirst) rows.reverse();
  return rows.map(toMessage);
}

/**
 * Short-lived links to the files of the request's messages, as chat.fileLinks gives members: only
 * messages the customer sees (never a comment's file), only in a request they take part in.
 */
export async function customerFileLinks(deps: ServiceDeps & { storage: ObjectStore }, user: User, input: z.output<typeof customerFileLinksInput>) {
  await asCustomer(deps.db, user.id, input.conversationId);
  const rows = await deps.db.message.findMany({
    where: { id: { in: input.messageIds }, conversationId: input.conversationId, isComment: false, removed: false, fileKey: { not: null } },
    select: FILE_ROW,
  });
  return signFileLinks(deps, user.id, input.conversationId, rows, input);
}

/** The customer answers. Idempotent by clientId, like the chat's own send. */
export async function customerSend(deps: ServiceDeps, user: User, input: z.output<typeof customerSendInput>) {
  const { conversation, company } = await asCustomer(deps.db, user.id, input.conversationId);
  if (conversation.state === CONVERSATION_STATE.concluded) throw fail('BAD_REQUEST', M.concluded);
  assertTakingRequests(company);
  const byClientId = { conversationId_authorId_clientId: { conversationId: conversation.id, authorId: user.id, clientId: input.clientId } };
  const earlier = await deps.db.message.findUnique({ where: byClientId, include: { author: { select: { name: true } } } });
  if (earlier) return toMessage(earlier);
  try {
    const appended = await deps.db.$transaction((tx) =>
      appendMessage(tx, company.domain, { conversationId: conversation.id, authorId: user.id, clientId: input.clientId, text: input.text }, deps.clock.now()),
    );
    emitMessage(deps.realtime, appended);
    return appended.message;
  } catch (err) {
    // A racing retry with the same clientId committed first.
    if ((err as { code?: string }).code !== 'P2002') throw err;
    return toMessage(await deps.db.message.findUniqueOrThrow({ where: byClientId, include: { author: { select: { name: true } } } }));
  }
}

/** The customer read up to a message: their watermark moves forward (never back) and the attendants' ticks follow. */
export async function customerMarkRead(deps: ServiceDeps, user: User, conversationId: string, uptoSeq: number) {
  const { conversation } = await asCustomer(deps.db, user.id, conversationId);
  const upto = Math.min(uptoSeq, conversation.lastSeq);
  const { count } = await deps.db.participant.updateMany({
    where: { conversationId, userId: user.id, readSeq: { lt: upto } },
    data: { readSeq: upto, deliveredSeq: upto },
  });
  if (count === 0) return { uptoSeq: upto, moved: false };
  await deps.db.receipt.create({ data: { conversationId, userId: user.id, kind: 'read', uptoSeq: upto, at: deps.clock.now() } });
  const others = await deps.db.participant.findMany({ where: { conversationId, removed: false, NOT: { userId: user.id } }, select: { userId: true } });
  deps.realtime.toUsers(
    others.map((o) => o.userId),
    'receipt:update',
    { conversationId, userId: user.id, kind: 'read', uptoSeq: upto },
  );
  return { uptoSeq: upto, moved: true };
}

/** The customer gives up waiting: the request ends (state 9999) and leaves every attendant's queue. */
export async function leaveQueue(deps: ServiceDeps, user: User, conversationId: string) {
  const { conversation: c, company } = await asCustomer(deps.db, user.id, conversationId);
  const move = serviceTransition('leaveQueue', { state: c.state, taken: c.takenById !== null }, c.creatorId === user.id ? ['customer'] : []);
  if (!move.ok) throw fail('BAD_REQUEST', move.reason === 'wrongState' ? M.alreadyTaken : M.notAllowed);
  const now = deps.clock.now();
  const appended = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({
      where: { id: c.id, inQueue: true, state: CONVERSATION_STATE.waiting },
      data: { inQueue: false, state: move.to, concludedAt: now, queueUserId: null },
    });
    // An attendant took it a moment ago.
    if (count === 0) throw fail('CONFLICT', M.alreadyTaken);
    return appendInfo(tx, company.domain, c.id, { info: 'leftQueue', params: { name: user.name } }, now);
  });
  emitAll(deps.realtime, [appended]);
  await afterLeavingQueue(deps, c, company.domain);
  await pushConversationUpdated(deps, c.id);
  return { left: true };
}

/**
 * The customer rates a concluded service, once; the company's rating follows (spec 9: it starts
 * at 5 over 1 rating, average rounded to 1 decimal). The company row is locked for the update so
 * two ratings at once both count.
 */
export async function rateService(deps: ServiceDeps, user: User, conversationId: string, stars: number) {
  const { conversation: c, company } = await asCustomer(deps.db, user.id, conversationId);
  if (c.creatorId !== user.id || c.state !== CONVERSATION_STATE.concluded || c.takenById === null) throw fail('BAD_REQUEST', M.notRateable);
  const now = deps.clock.now();
  const { appended, rating } = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: c.id, rating: null }, data: { rating: stars } });
    if (count === 0) throw fail('CONFLICT', M.alreadyRated);
    const [row] = await tx.$queryRaw<{ ratingTotal: number; ratingCount: number }[]>`
      SELECT "ratingTotal", "ratingCount" FROM "Company" WHERE id = ${company.id}::uuid FOR UPDATE`;
    const next = applyRating({ total: row!.ratingTotal, count: row!.ratingCount }, stars);
    await tx.company.update({ where: { id: company.id }, data: { ratingTotal: next.total, ratingCount: next.count } });
    return { appended: await appendInfo(tx, company.domain, c.id, { info: 'rated', params: { stars } }, now), rating: next };
  });
  emitAll(deps.realtime, [appended]);
  return { stars, companyRating: rating };
}

/**
 * The customer answers an SLA proposal: it closes, the choice (escolhaProposta) is recorded on the
 * proposal message, and accepting confirms the date (dataConclusaoSLA.aceito).
 */
export async function answerSla(deps: ServiceDeps, user: User, conversationId: string, accept: boolean) {
  const { conversation: c, company } = await asCustomer(deps.db, user.id, conversationId);
  if (c.creatorId !== user.id) throw fail('FORBIDDEN', M.notAllowed);
  if (!c.slaProposalOpen || !c.slaOfferDate) throw fail('BAD_REQUEST', M.slaNotOpen);
  const choice = accept ? 'accepted' : 'declined';
  const now = deps.clock.now();
  const result = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: c.id, slaProposalOpen: true, slaOfferDate: c.slaOfferDate }, data: answerSlaRule(c, choice) });
    if (count === 0) throw fail('CONFLICT', M.slaNotOpen);
    if (c.slaProposalMessageId) {
      const proposal = await tx.message.findUnique({ where: { id: c.slaProposalMessageId }, select: { data: true } });
      await tx.message.update({ where: { id: c.slaProposalMessageId }, data: { data: { ...((proposal?.data as object) ?? {}), escolhaProposta: choice } } });
    }
    const appended = await appendInfo(tx, company.domain, c.id, { info: 'slaAnswered', params: { accepted: accept, date: c.slaOfferDate!.toISOString() } }, now);
    const notifications = c.responsibleId
      ? await createNotifications(tx, [
          {
            companyId: company.id,
            userId: c.responsibleId,
            type: 'slaAnswered',
            title: accept ? 'SLA proposal accepted' : 'SLA proposal declined',
            subtitle: `${c.title} · ${c.protocol}`,
            action: `/i/recent/chat/${c.id}`,
          },
        ])
      : [];
    return { appended, notifications };
  });
  emitAll(deps.realtime, [result.appended]);
  pushNotifications(deps.realtime, result.notifications);
  await pushConversationUpdated(deps, c.id);
  return { choice };
}
