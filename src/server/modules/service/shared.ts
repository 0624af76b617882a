import { randomInt } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Company, Conversation, Prisma, Queue, User } from '../../../generated/prisma/client';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { companyBlocksWork, type PlanFeature } from '../../../shared/domain/company';
import { requirePlan } from '../company/plan';
import { fillGreeting } from '../../../shared/domain/greeting';
import { infoText, type InfoMessage } from '../../../shared/domain/info-messages';
import { newProtocol } from '../../../shared/domain/protocol';
import { canSeeRequest } from '../../../shared/domain/queue-visibility';
import { defaultSlaDueAt } from '../../../shared/domain/sla';
import { SERVICE_MESSAGES as M } from '../../../shared/schemas/service';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { rememberCustomer } from '../contacts/service';
import type { ContactSource } from '../../../shared/domain/contacts';
import type { Realtime } from '../../realtime';
import { appendMessage, emitMessage, type ChatMessage, type NewMessage } from '../chat/service';
import { createNotifications, pushNotifications } from '../notifications/service';
import { pushPositions, pushQueueAdded, pushQueueRemoved, queuePosition, queueViewers } from './events';

export type Tx = Prisma.TransactionClient;

/** What every service rule works with. */
export interface ServiceDeps {
  db: Db;
  clock: Clock;
  realtime: Realtime;
}

export const fail = (code: TRPCError['code'], message: string) => new TRPCError({ code, message });

/** Plan flags sla / kanban / timesheet: their procedures refuse when the company's plan lacks them. */
export const assertPlanFeature = (company: Pick<Company, 'plan'>, feature: PlanFeature): void => requirePlan(company, feature);

/** The rows `isServiceRequest` (shared/domain/conversations.ts) accepts, as a query filter. */
export const SERVICE_REQUEST_WHERE = {
  OR: [{ type: CONVERSATION_TYPE.ticket }, { type: CONVERSATION_TYPE.single, queuedAt: { not: null } }],
} satisfies Prisma.ConversationWhereInput;

/**
 * A consultation's conversation is health data handled by its doctor (telemedicine module): the
 * company's admins and attendants do not see or act on it through the service screens.
 */
export async function isConsultation(db: Db, conversationId: string): Promise<boolean> {
  return (await db.consultation.count({ where: { conversationId } })) > 0;
}

/**
 * A conversation with a fresh 15-digit protocol. A clash of two random protocols is unlikely, not
 * impossible: the whole transaction runs again with another number.
 */
export async function withNewProtocol<T>(db: Db, work: (tx: Tx, protocol: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction((tx) => work(tx, newProtocol(() => randomInt(0, 10))));
    } catch (err) {
      const e = err as { code?: string; meta?: unknown; message?: string };
      const onProtocol = e.code === 'P2002' && `${JSON.stringify(e.meta ?? {})} ${e.message ?? ''}`.includes('protocol');
      if (!onProtocol || attempt >= 3) throw err;
    }
  }
}

/** Appends a server info message inside the caller's transaction. */
export function appendInfo(tx: Tx, domain: string, conversationId: string, info: InfoMessage, now: Date) {
  return appendMessage(tx, domain, infoMessage(conversationId, info), now);
}

/** The info line of `info` in a conversation, as appendMessage takes it (no author: the system's). */
export function infoMessage(conversationId: string, info: InfoMessage): NewMessage {
  return { conversationId, authorId: null, type: 'info', text: infoText(info), data: info };
}

export function emitAll(realtime: Realtime, appended: ({ message: ChatMessage; recipients: string[] } | null | undefined)[]) {
  for (const a of appended) if (a) emitMessage(realtime, a);
}

export type QueueWithGroups = Queue & { groups: { groupId: string }[] };

export async function findCompany(db: Db, domain: string): Promise<Company> {
  const company = await db.company.findUnique({ where: { domain } });
  if (!company) throw fail('NOT_FOUND', 'Domain not found');
  return company;
}

export interface NewRequest {
  company: Company;
  queue: QueueWithGroups;
  customer: User;
  type: number;
  /** The customer's first words, after the greeting. */
  text?: string;
  /** A linked ticket: the conversation (of another company) it was opened from. */
  linkedConversationId?: string;
  /** How the customer came, as the directory records it (contacts module); the public page by default. */
  source?: ContactSource;
}

/**
 * A request enters the queue (spec 4): state 0, naFila true, not taken; the company's greeting,
 * filled in, starts the conversation, then the customer's own words if any. The attendants who can
 * see it get it on their queue screen at once, and a notification unless they turned those off.
 */
export async function createServiceRequest(deps: ServiceDeps, req: NewRequest) {
  const { company, queue, customer } = req;
  const now = deps.clock.now();
  const groupIds = queue.groups.map((g) => g.groupId);
  const greeting = fillGreeting((company.settings as { greeting?: string } | null)?.greeting, { customerName: customer.name, companyName: company.name });
  const result = await withNewProtocol(deps.db, async (tx, protocol) => {
    const conversation = await tx.conversation.create({
      data: {
        companyId: company.id,
        type: req.type,
        state: CONVERSATION_STATE.waiting,
        title: customer.name,
        protocol,
        creatorId: customer.id,
        queueId: queue.id,
        queueName: queue.name,
        inQueue: true,
        queuedAt: now,
        queueGroupIds: groupIds,
        slaDueAt: queue.sla ? defaultSlaDueAt(now, queue.slaServiceTime) : null,
        linkedConversationId: req.linkedConversationId,
        createdAt: now,
        participants: { create: [{ userId: customer.id, joinedAt: now }] },
      },
    });
    // The customer enters the company's directory (contacts module) with their first request.
    await rememberCustomer(tx, company.id, customer, req.source ?? 'publicPage', now);
    const appended = [await appendInfo(tx, company.domain, conversation.id, { info: 'greeting', params: { text: greeting } }, now)];
    if (req.text) appended.push(await appendMessage(tx, company.domain, { conversationId: conversation.id, authorId: customer.id, clientId: 'request', text: req.text }, now));
    const toNotify = (await queueViewers(tx, company.id)).filter(
      (v) => v.userId !== customer.id && canSeeRequest(v, { groupIds, queueUserId: null, queueId: queue.id }),
    );
    const notifications = await createNotifications(
      tx,
      toNotify.map((v) => ({
        companyId: company.id,
        userId: v.userId,
        type: 'queueRequest',
        title: 'New request in the queue',
        subtitle: `${customer.name} · ${queue.name}`,
        action: `/i/recent/queue/${queue.id}`,
      })),
    );
    return { conversation: await tx.conversation.findUniqueOrThrow({ where: { id: conversation.id } }), appended, notifications };
  });
  emitAll(deps.realtime, result.appended);
  await pushQueueAdded(deps, company.domain, result.conversation);
  pushNotifications(deps.realtime, result.notifications);
  return { conversation: result.conversation, position: (await queuePosition(deps.db, result.conversation)) ?? 1 };
}

/** Refuses requests while the company cannot work (blocked plan or deactivated, spec 5). */
export function assertTakingRequests(company: Company) {
  if (companyBlocksWork(company)) throw fail('FORBIDDEN', M.notTakingRequests);
}

/** After a request left its queue: attendants drop it, the customers behind it move up. */
export async function afterLeavingQueue(deps: ServiceDeps, c: Pick<Conversation, 'companyId' | 'queueId' | 'id'>, domain: string) {
  await pushQueueRemoved(deps, c.companyId, domain, c.id);
  await pushPositions(deps, c.companyId, c.queueId);
}
