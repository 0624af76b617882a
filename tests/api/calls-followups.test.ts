/**
 * Calls and the chat's rows (no media worker needed): a recording removed as a chat message takes
 * its stored object with it, calls.removeRecording goes through the chat, the relay flags refuse
 * WhatsApp and Telegram-only callees, live rooms are created by the chat, and the company's
 * allowCallRecording setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendMessage } from '../../src/server/modules/chat/service';
import { mergeAnonymousUser } from '../../src/server/modules/identity/service';
import { ObjectNotFoundError } from '../../src/server/storage/types';
import { CONVERSATION_TYPE } from '../../src/shared/constants';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { addMember, createUser, memberOfNewCompany, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { INSTANCE_ID: 'api-calls-followups' } });
});
afterAll(() => server?.close());

async function as(cookie: string, path: string, input: unknown, type: 'query' | 'mutation' = 'mutation') {
  return callProcedure(server.url, path, input, { cookie, type });
}

async function direct() {
  const owner = await memberOfNewCompany(server.db);
  const other = await createUser(server.db, { name: 'Bruno' });
  await addMember(server.db, owner.company.id, other.id);
  const { data } = await as(owner.cookie, 'chat.startDirect', { domain: owner.company.domain, userId: other.id });
  return { owner, other, conversationId: (data as { conversationId: string }).conversationId };
}

/** A finished recording as recording.ts leaves it: the object stored, the message, the CallRecording row. */
async function recordedCall() {
  const { owner, other, conversationId } = await direct();
  const call = await server.db.call.create({
    data: {
      companyId: owner.company.id,
      conversationId,
      ownerId: owner.user.id,
      type: 2,
      concluded: true,
      linkKey: `k${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`,
      hostInstance: 'api-calls-followups',
      participants: { create: [{ userId: owner.user.id }, { userId: other.id }] },
    },
  });
  const messageId = crypto.randomUUID();
  const key = `${owner.company.domain}/${conversationId}/${messageId}/recording.webm`;
  const body = Buffer.from('not really a webm, but bytes in the store');
  const storage = server.server.deps.storage;
  await storage.put(key, body, { size: body.length, contentType: 'video/webm' });
  await server.db.$transaction(async (tx) => {
    await appendMessage(
      tx,
      owner.company.domain,
      {
        id: messageId,
        conversationId,
        authorId: owner.user.id,
        type: 'arquivo',
        text: 'recording.webm',
        file: { key, name: 'recording.webm', size: body.length, mime: 'video/webm', isRecording: true, durationMs: 10_000, callId: call.id },
      },
      new Date(),
    );
    await tx.callRecording.create({
      data: { callId: call.id, messageId, recorderId: owner.user.id, fileKey: key, fileName: 'recording.webm', fileSize: BigInt(body.length), durationMs: 10_000, startedAt: new Date(), endedAt: new Date() },
    });
  });
  const recording = await server.db.callRecording.findUniqueOrThrow({ where: { messageId } });
  return { owner, conversationId, call, messageId, key, recording };
}

async function gone(key: string) {
  return server.server.deps.storage.stat(key).then(
    () => false,
    (err) => err instanceof ObjectNotFoundError,
  );
}

describe('recordings are chat attachments', () => {
  it("deleting the recording message in the chat deletes the stored recording, and the call no longer lists it", async () => {
    const r = await recordedCall();
    expect(await gone(r.key)).toBe(false);
    const before = await as(r.owner.cookie, 'calls.get', { callId: r.call.id }, 'query');
    expect((before.data as { recordings: unknown[] }).recordings).toHaveLength(1);

    const res = await as(r.owner.cookie, 'chat.deleteMessage', { domain: r.owner.company.domain, conversationId: r.conversationId, messageId: r.messageId });
    expect(res.error).toBeUndefined();
    expect(await gone(r.key)).toBe(true);
    const message = await server.db.message.findUniqueOrThrow({ where: { id: r.messageId } });
    expect(message).toMatchObject({ removed: true, type: 'removida', fileKey: null, isRecording: false });
    const after = await as(r.owner.cookie, 'calls.get', { callId: r.call.id }, 'query');
    expect((after.data as { recordings: unknown[] }).recordings).toHaveLength(0);
  });

  it('calls.removeRecording removes the message through the chat: object gone, message removida', async () => {
    const r = await recordedCall();
    const res = await as(r.owner.cookie, 'calls.removeRecording', { recordingId: r.recording.id });
    expect(res.error).toBeUndefined();
    expect(await gone(r.key)).toBe(true);
    expect(await server.db.message.findUniqueOrThrow({ where: { id: r.messageId } })).toMatchObject({ removed: true, type: 'removida', fileKey: null });
    expect((await server.db.callRecording.findUniqueOrThrow({ where: { id: r.recording.id } })).removedAt).not.toBeNull();
    // Removing it again: it is not there any more.
    expect((await as(r.owner.cookie, 'calls.removeRecording', { recordingId: r.recording.id })).error?.message).toBe(M.recordingNotFound);
  });
});

describe('callees reached through relays', () => {
  it("refuses to call a WhatsApp customer: 'Clientes WhatsApp não conseguem receber chamadas.'", async () => {
    const { owner, other, conversationId } = await direct();
    // The relay marks how the customer is reached in this conversation.
    await server.db.participant.update({ where: { conversationId_userId: { conversationId, userId: other.id } }, data: { whatsapp: true } });
    const res = await as(owner.cookie, 'calls.start', { domain: owner.company.domain, conversationId, type: 1 });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: M.whatsappCustomer });
    expect(M.whatsappCustomer).toBe('Clientes WhatsApp não conseguem receber chamadas.');
    expect(await server.db.call.count({ where: { conversationId } })).toBe(0);
  });

  it("refuses a call whose callees are all on Telegram: 'Clientes Telegram não conseguem receber chamadas.'", async () => {
    const { owner, other, conversationId } = await direct();
    await server.db.participant.update({ where: { conversationId_userId: { conversationId, userId: other.id } }, data: { telegram: true } });
    const res = await as(owner.cookie, 'calls.start', { domain: owner.company.domain, conversationId, type: 2 });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: M.telegramOnly });
    expect(M.telegramOnly).toBe('Clientes Telegram não conseguem receber chamadas.');

    // One web callee beside the Telegram one: no relay refusal (this server just has no media).
    const web = await createUser(server.db);
    await addMember(server.db, owner.company.id, web.id);
    await as(owner.cookie, 'chat.addParticipants', { domain: owner.company.domain, conversationId, userIds: [web.id] });
    const mixed = await as(owner.cookie, 'calls.start', { domain: owner.company.domain, conversationId, type: 2 });
    expect(mixed.error).toMatchObject({ code: 'PRECONDITION_FAILED', message: M.callsUnavailable });
  });
});

describe('live rooms', () => {
  it('calls.createLive makes a type-4 conversation through the chat with its creator in it', async () => {
    const owner = await memberOfNewCompany(server.db);
    const res = await as(owner.cookie, 'calls.createLive', { domain: owner.company.domain, title: 'Lançamento' });
    expect(res.error).toBeUndefined();
    const { conversationId } = res.data as { conversationId: string };
    const conversation = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { participants: true } });
    expect(conversation).toMatchObject({ type: CONVERSATION_TYPE.live, title: 'Lançamento', companyId: owner.company.id, creatorId: owner.user.id });
    expect(conversation.participants.map((p) => p.userId)).toEqual([owner.user.id]);
  });
});

describe("a conversation's open call", () => {
  it('is told to its participants only: a colleague outside the conversation hears of none', async () => {
    const { owner, other, conversationId } = await direct();
    const outsider = await createUser(server.db, { name: 'Carla' });
    await addMember(server.db, owner.company.id, outsider.id);
    const call = await server.db.call.create({
      data: {
        companyId: owner.company.id,
        conversationId,
        ownerId: owner.user.id,
        type: 2,
        linkKey: `k${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`,
        hostInstance: 'api-calls-followups',
        participants: { create: [{ userId: owner.user.id }, { userId: other.id }] },
      },
    });
    const input = { domain: owner.company.domain, conversationId };
    const seen = await as(owner.cookie, 'calls.openInConversation', input, 'query');
    expect((seen.data as { id: string } | null)?.id).toBe(call.id);
    const outsiderCookie = await signIn(server.db, outsider.id);
    const hidden = await as(outsiderCookie, 'calls.openInConversation', input, 'query');
    expect(hidden.error).toBeUndefined();
    expect(hidden.data).toBeNull();
  });
});

describe('an anonymous visitor who signs in to an account', () => {
  it('keeps the calls they joined, owned and recorded under the account', async () => {
    const { owner, conversationId } = await direct();
    const visitor = await server.db.user.create({ data: { name: 'Visitor', anonymous: true } });
    const account = await createUser(server.db, { name: 'Visitor Account' });
    const linkKey = () => `k${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`;
    const base = { companyId: owner.company.id, conversationId, type: 2, concluded: true, hostInstance: 'api-calls-followups' };
    // One call the visitor joined by link, one they were in together with the account already.
    const joined = await server.db.call.create({
      data: { ...base, ownerId: owner.user.id, linkKey: linkKey(), participants: { create: [{ userId: owner.user.id }, { userId: visitor.id, accepted: true }] } },
    });
    const both = await server.db.call.create({
      data: { ...base, ownerId: visitor.id, recorderId: visitor.id, linkKey: linkKey(), participants: { create: [{ userId: visitor.id }, { userId: account.id }] } },
    });

    await mergeAnonymousUser(server.db, visitor.id, account.id);

    expect(await server.db.user.count({ where: { id: visitor.id } })).toBe(0);
    expect(await server.db.callParticipant.findMany({ where: { callId: joined.id }, select: { userId: true } })).toEqual(
      expect.arrayContaining([{ userId: owner.user.id }, { userId: account.id }]),
    );
    expect(await server.db.callParticipant.count({ where: { callId: both.id } })).toBe(1);
    expect(await server.db.callParticipant.count({ where: { callId: both.id, userId: account.id } })).toBe(1);
    expect(await server.db.call.findUniqueOrThrow({ where: { id: both.id } })).toMatchObject({ ownerId: account.id, recorderId: account.id });
  });
});

describe("the company's allowCallRecording setting", () => {
  it('is switched by admins only, and recording is refused while it is off with the spec text', async () => {
    const { owner, other, conversationId } = await direct();
    const domain = owner.company.domain;
    expect((await as(owner.cookie, 'settings.callSettings', { domain }, 'query')).data).toEqual({ allowCallRecording: true });
    const member = await as(await signIn(server.db, other.id), 'settings.updateCallSettings', { domain, allowCallRecording: false });
    expect(member.error?.code).toBe('FORBIDDEN');

    // A call running since before the switch (canRec true when it started).
    const call = await server.db.call.create({
      data: {
        companyId: owner.company.id,
        conversationId,
        ownerId: owner.user.id,
        type: 2,
        open: true,
        startedAt: new Date(),
        canRec: true,
        linkKey: `k${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`,
        hostInstance: 'api-calls-followups',
        participants: { create: [{ userId: owner.user.id, accepted: true, connected: true }, { userId: other.id, accepted: true, connected: true }] },
      },
    });
    const off = await as(owner.cookie, 'settings.updateCallSettings', { domain, allowCallRecording: false });
    expect(off.data).toEqual({ allowCallRecording: false });
    expect((await as(owner.cookie, 'settings.callSettings', { domain }, 'query')).data).toEqual({ allowCallRecording: false });
    // Other settings keys are kept.
    await as(owner.cookie, 'settings.updateGreeting', { domain, greeting: 'Olá [nomecliente]' });
    expect((await server.db.company.findUniqueOrThrow({ where: { id: owner.company.id } })).settings).toMatchObject({ allowCallRecording: false, greeting: 'Olá [nomecliente]' });

    const refused = await as(owner.cookie, 'calls.startRecording', { callId: call.id });
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', message: M.recordingDisabled });
    expect(M.recordingDisabled).toBe('Gravação desabilitada - As configurações da organização não permitem iniciar a gravação');

    // Back on: the setting no longer refuses (this server has no media room for the call).
    await as(owner.cookie, 'settings.updateCallSettings', { domain, allowCallRecording: true });
    expect((await as(owner.cookie, 'calls.startRecording', { callId: call.id })).error?.message).toBe(M.roomGone);
  });
});
