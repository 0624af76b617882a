/**
 * Web Push for people with no tab of the app open: a new message in their conversations and a
 * call ringing for them. Services already tell every participant's tabs after their commit
 * ('message:new', the 'create' call signal); this wraps the realtime layer at the composition
 * root and looks at those emits, so the chat send path pays nothing but an array push. A batch
 * (every BATCH_MS) keeps only recipients with a push subscription, then only those with no socket
 * on any instance, then those whose settings let it out (playMessagensReceive: "sounds and
 * push"), and writes one outbox row per browser; the channel worker sends them.
 */
import type { Prisma } from '../../../generated/prisma/client';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import type { ChatMessageEvent } from '../../../shared/chat-events';
import { readSoundSettings } from '../../../shared/domain/notification-relay';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { serverText, userLanguage } from '../../i18n';

const BATCH_MS = 200;
const BODY_CHARS = 180;

type Pending =
  | { kind: 'message'; userId: string; message: ChatMessageEvent }
  | { kind: 'call'; userId: string; callId: string; conversationId: string; domain: string; from: string; video: boolean };

/** The push's payload, as the service worker (client/public/sw.js) reads it. */
interface Payload {
  id: string;
  title: string;
  body: string;
  action: string;
  type: 'message' | 'call';
}

export function withAbsentPush(inner: Realtime, deps: { db: Db; logger: Logger }): Realtime & { flush(): Promise<void>; stop(): Promise<void> } {
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (!timer && !stopped) timer = setTimeout(() => void flush(), BATCH_MS);
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    flushing = flushing.then(() => (batch.length ? pushToAbsent(deps, inner, batch) : undefined)).catch((err) => deps.logger.warn({ err }, 'push to absent users failed'));
    return flushing;
  };
  const look = (userId: string, event: string, arg: unknown) => {
    if (stopped) return;
    if (event === 'message:new') {
      const message = arg as ChatMessageEvent;
      // Only what a person wrote, to everyone but its author; comments reach members only already.
      if (!message.authorId || message.authorId === userId || message.removed) return;
      pending.push({ kind: 'message', userId, message });
    } else if (event === 'call:signal') {
      const s = arg as { cmd: string; callId: string; conversationId: string; domain: string; type: number; from: { name: string } };
      if (s.cmd !== 'create') return;
      pending.push({ kind: 'call', userId, callId: s.callId, conversationId: s.conversationId, domain: s.domain, from: s.from.name, video: s.type !== 1 });
    } else return;
    schedule();
  };
  return {
    ...inner,
    toUser: (userId, event, ...args) => {
      inner.toUser(userId, event, ...args);
      look(userId, event, args[0]);
    },
    toUsers: (userIds, event, ...args) => {
      const ids = [...userIds];
      inner.toUsers(ids, event, ...args);
      for (const id of ids) look(id, event, args[0]);
    },
    flush,
    stop: async () => {
      await flush();
      stopped = true;
    },
  };
}

async function pushToAbsent(deps: { db: Db }, realtime: Realtime, batch: Pending[]) {
  const userIds = [...new Set(batch.map((p) => p.userId))];
  const subs = await deps.db.pushSubscription.findMany({ where: { userId: { in: userIds } }, select: { userId: true, endpoint: true } });
  if (!subs.length) return;
  const subscribed = [...new Set(subs.map((s) => s.userId))];
  const online = await realtime.onlineUsers(subscribed);
  const absent = new Set(subscribed.filter((u) => !online.has(u)));
  const wanted = batch.filter((p) => absent.has(p.userId));
  if (!wanted.length) return;
  const conversationIds = [...new Set(wanted.map((p) => (p.kind === 'message' ? p.message.conversationId : p.conversationId)))];
  const [conversations, users] = await Promise.all([
    deps.db.conversation.findMany({ where: { id: { in: conversationIds } }, select: { id: true, companyId: true, title: true, type: true, company: { select: { domain: true } } } }),
    deps.db.user.findMany({ where: { id: { in: [...absent] } }, select: { id: true, settings: true, language: true } }),
  ]);
  const conv = new Map(conversations.map((c) => [c.id, c]));
  const members = new Set(
    (
      await deps.db.member.findMany({
        where: { userId: { in: [...absent] }, companyId: { in: [...new Set(conversations.map((c) => c.companyId))] }, inviteAccepted: true, removed: false },
        select: { userId: true, companyId: true },
      })
    ).map((m) => `${m.companyId}:${m.userId}`),
  );
  const settings = new Map(users.map((u) => [u.id, readSoundSettings(u.settings)]));
  const language = new Map(users.map((u) => [u.id, userLanguage(u)]));
  const lang = (userId: string) => language.get(userId) ?? 'en';
  // One push per person and conversation (several messages in a batch: the latest, counted).
  const perTarget = new Map<string, { companyId: string; userId: string; payload: Payload; count: number }>();
  for (const p of wanted) {
    if (p.kind === 'call') {
      const c = conv.get(p.conversationId);
      if (!c) continue;
      const payload: Payload = { id: `call:${p.callId}`, type: 'call', title: serverText(lang(p.userId), p.video ? 'incomingVideoCall' : 'incomingCall'), body: serverText(lang(p.userId), 'callingYou', { name: p.from }), action: `/${p.domain}/call/${p.callId}` };
      perTarget.set(`call:${p.callId}:${p.userId}`, { companyId: c.companyId, userId: p.userId, payload, count: 1 });
      continue;
    }
    const m = p.message;
    const c = conv.get(m.conversationId);
    // "Sounds and push" for received messages turned off: no push for them.
    if (!c || settings.get(p.userId)?.playMessagensReceive === false) continue;
    const key = `message:${c.id}:${p.userId}`;
    const n = (perTarget.get(key)?.count ?? 0) + 1;
    const text = m.file ? (m.text && m.text !== m.file.name ? `${m.file.name}: ${m.text}` : m.file.name) : m.text;
    const isMember = members.has(`${c.companyId}:${p.userId}`);
    const action = isMember ? `/i/recent/chat/${c.id}` : `/${c.company.domain}/${c.type === CONVERSATION_TYPE.ticket ? 'ticket' : 'chat'}/${c.id}`;
    const title = [m.authorName, c.title && c.title !== m.authorName ? c.title : null].filter(Boolean).join(' · ') || serverText(lang(p.userId), 'newMessage');
    const body = `${n > 1 ? `(${n}) ` : ''}${text}`.slice(0, BODY_CHARS);
    perTarget.set(key, { companyId: c.companyId, userId: p.userId, payload: { id: `conversation:${c.id}`, type: 'message', title, body, action }, count: n });
  }
  const data: Prisma.ChannelOutboxCreateManyInput[] = [];
  for (const t of perTarget.values())
    for (const s of subs.filter((x) => x.userId === t.userId)) data.push({ companyId: t.companyId, channel: 'push', to: s.endpoint, userId: t.userId, body: JSON.stringify(t.payload) });
  if (data.length) await deps.db.channelOutbox.createMany({ data });
}
