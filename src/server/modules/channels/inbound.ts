/**
 * What a webhook brings in: verified by the adapter, recorded by the provider's id (a second
 * delivery of the same message does nothing), then applied through the service module's own
 * functions, so a channel customer's first message opens a request exactly as the public page
 * does (protocol number, greeting, queue position, notifications).
 */
import type { ChannelSetting, Company, User } from '../../../generated/prisma/client';
import type { AppDeps } from '../../deps';
import { advanceWatermarkAsServer, storeRelayedFile } from '../chat/service';
import { createRelayUser } from '../identity/service';
import { customerSend, openServices, rateService, requestService } from '../service/customer';
import { CONVERSATION_STATE } from '../../../shared/constants';
import { ChannelSendError, type ChannelKind, type InboundEvent, type WebhookRequest } from './channel';
import { channelFor, connectionOf } from './connections';
import { enqueueRelays, failMessage } from './outbox';
import { linkTelegramFromStart } from './notify';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger'> & { nudge?: () => void };

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

export async function handleWebhook(deps: Deps, kind: ChannelKind, key: string, req: WebhookRequest): Promise<{ status: number; body?: string }> {
  const setting = await deps.db.channelSetting.findUnique({ where: { webhookKey: key } });
  if (!setting || setting.channel !== kind) return { status: 404, body: 'Not found' };
  const answer = channelFor(deps.config, kind).webhook(connectionOf(deps.config, setting), req);
  if (!('events' in answer)) return answer;
  await applyEvents(deps, setting, answer.events);
  return { status: 200, body: 'OK' };
}

/** The one inbound path: a webhook delivery's events, or one update read by long polling. */
export async function applyEvents(deps: Deps, setting: ChannelSetting, events: InboundEvent[]) {
  for (const event of events) {
    if (event.type === 'message') await applyMessage(deps, setting, event);
    else await applyStatus(deps, setting, event);
  }
  deps.nudge?.();
}

/** The User that stands for this sender, made on their first message. */
export async function contactUser(deps: Deps, setting: Pick<ChannelSetting, 'companyId' | 'channel'>, from: string, name: string): Promise<User> {
  const where = { companyId_channel_externalId: { companyId: setting.companyId, channel: setting.channel, externalId: from } };
  for (let attempt = 0; ; attempt++) {
    const known = await deps.db.channelContact.findUnique({ where });
    if (known) {
      const user = await deps.db.user.findUnique({ where: { id: known.userId } });
      if (user) return user;
      await deps.db.channelContact.delete({ where }).catch(() => undefined);
    }
    try {
      return await deps.db.$transaction(async (tx) => {
        const user = await createRelayUser(tx, name, deps.clock.now());
        await tx.channelContact.create({ data: { companyId: setting.companyId, channel: setting.channel, externalId: from, userId: user.id, name } });
        return user;
      });
    } catch (err) {
      // The same person's other message made them a moment ago.
      if (!isUniqueViolation(err) || attempt >= 2) throw err;
    }
  }
}

async function applyMessage(deps: Deps, setting: ChannelSetting, e: Extract<InboundEvent, { type: 'message' }>) {
  try {
    await deps.db.channelInbound.create({ data: { companyId: setting.companyId, channel: setting.channel, externalId: e.externalId } });
  } catch (err) {
    if (isUniqueViolation(err)) return; // a repeated delivery: applied once already
    throw err;
  }
  try {
    if (setting.channel === 'telegram' && (await linkTelegramFromStart(deps, setting, e.from, e.text))) return;
    const company = await deps.db.company.findUniqueOrThrow({ where: { id: setting.companyId } });
    const user = await contactUser(deps, setting, e.from, e.name);
    const [open] = await openServices(deps.db, user, company.domain);
    const clientId = `${setting.channel}:${e.externalId}`.slice(0, 64);
    if (open) {
      if (e.media) await storeMedia(deps, setting, company, open.conversationId, user, clientId, e);
      else await customerSend(deps, user, { conversationId: open.conversationId, clientId, text: e.text.slice(0, 4000) });
      return;
    }
    if (!e.media && (await ratedByReply(deps, company.id, user, e.text))) return;
    const queue =
      (setting.queueId && (await deps.db.queue.findFirst({ where: { id: setting.queueId, companyId: company.id, active: true } }))) ||
      (await deps.db.queue.findFirst({ where: { companyId: company.id, active: true, internal: false }, orderBy: { createdAt: 'asc' } }));
    if (!queue) throw new Error('no active queue to open the request in');
    const request = await requestService(deps, user, { domain: company.domain, queueKey: queue.key, text: e.media ? undefined : e.text.slice(0, 4000) }, 'channel');
    await markRelayParticipant(deps, company.id, request.conversationId, user.id, setting.channel as ChannelKind);
    if (e.media) await storeMedia(deps, setting, company, request.conversationId, user, clientId, e);
  } catch (err) {
    // Not applied: forget the delivery so the provider's retry applies it.
    await deps.db.channelInbound.deleteMany({ where: { companyId: setting.companyId, channel: setting.channel, externalId: e.externalId } });
    deps.logger.error({ err, channel: setting.channel, externalId: e.externalId }, 'channel message could not be applied');
    throw err;
  }
}

/** A photo, document or voice message from the customer: fetched from the provider, kept as a file message. */
async function storeMedia(deps: Deps, setting: ChannelSetting, company: Company, conversationId: string, user: User, clientId: string, e: Extract<InboundEvent, { type: 'message' }>) {
  const media = e.media!;
  let bytes: Buffer;
  try {
    bytes = await channelFor(deps.config, setting.channel as ChannelKind).download(connectionOf(deps.config, setting), media, deps.config.maxUploadBytes);
  } catch (err) {
    // Retrying cannot bring it (too large, gone): the conversation says what was sent instead.
    if (!(err instanceof ChannelSendError) || err.retry) throw err;
    await customerSend(deps, user, { conversationId, clientId, text: `[${media.name}: ${err.message}]${e.text ? `\n${e.text}` : ''}`.slice(0, 4000) });
    return;
  }
  await storeRelayedFile(deps, company, { conversationId, authorId: user.id, clientId, name: media.name, mime: media.mime ?? null, bytes, text: e.text.slice(0, 4000), isRecording: media.audio });
}

/**
 * The conclusion relayed to the customer asks for a rating from 1 to 5: a bare digit, with no
 * request open, rates their latest concluded one (once, by the service module's own rule).
 */
async function ratedByReply(deps: Deps, companyId: string, user: User, text: string): Promise<boolean> {
  const stars = /^\s*([1-5])\s*$/.exec(text)?.[1];
  if (!stars) return false;
  const last = await deps.db.conversation.findFirst({
    where: { companyId, creatorId: user.id, state: CONVERSATION_STATE.concluded, takenById: { not: null }, rating: null },
    orderBy: { concludedAt: 'desc' },
    select: { id: true },
  });
  if (!last) return false;
  await rateService(deps, user, last.id, Number(stars));
  return true;
}

/**
 * The customer is reached through the channel from now on; what the conversation already said to
 * them (the greeting) goes out too.
 */
export async function markRelayParticipant(deps: Deps, companyId: string, conversationId: string, userId: string, kind: ChannelKind | 'email') {
  await deps.db.$transaction(async (tx) => {
    await tx.participant.update({ where: { conversationId_userId: { conversationId, userId } }, data: { [kind]: true } });
    const earlier = await tx.message.findMany({
      where: { conversationId, isComment: false, removed: false, OR: [{ authorId: null }, { authorId: { not: userId } }] },
      orderBy: { seq: 'asc' },
    });
    const relay = [{ userId, whatsapp: kind === 'whatsapp', telegram: kind === 'telegram', email: kind === 'email' }];
    for (const m of earlier) await enqueueRelays(tx, companyId, m, relay);
  });
}

const STATUS_ORDER = ['pending', 'sent', 'delivered', 'read'];

async function applyStatus(deps: Deps, setting: ChannelSetting, e: Extract<InboundEvent, { type: 'status' }>) {
  const row = await deps.db.channelOutbox.findFirst({ where: { companyId: setting.companyId, channel: setting.channel, externalId: e.externalId } });
  if (!row || row.status === 'failed') return;
  if (e.status === 'failed') {
    const reason = e.reason ?? 'The provider could not deliver the message';
    const { count } = await deps.db.channelOutbox.updateMany({ where: { id: row.id, status: { not: 'failed' } }, data: { status: 'failed', lastError: reason } });
    if (count) await failMessage(deps, row, reason);
    return;
  }
  // Statuses may arrive out of order (read before delivered): only forward.
  const later = STATUS_ORDER.slice(STATUS_ORDER.indexOf(e.status) + 1);
  await deps.db.channelOutbox.updateMany({ where: { id: row.id, status: { notIn: [...later, 'failed'] } }, data: { status: e.status } });
  if (e.status !== 'sent' && row.conversationId && row.userId && row.seq !== null) {
    await advanceWatermarkAsServer(deps, { conversationId: row.conversationId, userId: row.userId, kind: e.status, uptoSeq: row.seq });
  }
}
