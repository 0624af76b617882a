/**
 * Live subtitles and translation (spec: Subtitles). The call's legenda is the owner's or an
 * admin's switch (plan transc); each participant turns receiving subtitles (legendaAtiva) and
 * translation (traducaoAtiva, into idioma) on for themselves. A speaker's browser sends its final
 * speech-recognition results (call:transcript); each is stored as a CallTranscriptLine and sent
 * to the call socket of every listener with subtitles on, translated once per target language and
 * billed per character (plan translate) — or the original text when translation is not possible.
 */
import { TRPCError } from '@trpc/server';
import type { CallSubtitle } from '../../../shared/call-events';
import { CALL_MESSAGES as M, joinRefusal } from '../../../shared/domain/calls';
import { planValue } from '../../../shared/domain/company';
import {
  baseLanguage,
  characterCount,
  SUBTITLE_MESSAGES as S,
  subtitleDeliveries,
  subtitlesToggleRefusal,
  translationCharge,
  type SubtitleLanguage,
} from '../../../shared/domain/subtitles';
import { rooms } from '../../../shared/realtime';
import { chargeTranslation } from '../billing/service';
import { participantFor, pushState, type CallsDeps } from './service';

const fail = (code: TRPCError['code'], message: string): never => {
  throw new TRPCError({ code, message });
};

/** The call, not over, with its company; and the caller's participation in it. */
async function callOf(deps: CallsDeps, userId: string, callId: string) {
  const call = await deps.db.call.findUnique({ where: { id: callId }, include: { company: { select: { id: true, plan: true } } } });
  const refusal = joinRefusal(call);
  if (refusal) fail(call ? 'BAD_REQUEST' : 'NOT_FOUND', refusal);
  const participant = await participantFor(deps.db, callId, userId);
  return { call: call!, participant };
}

/** legenda on or off. Turning it off tells everyone 'Transcrição desativada'. */
export async function setCallSubtitles(deps: CallsDeps, userId: string, input: { callId: string; on: boolean }) {
  const { call, participant } = await callOf(deps, userId, input.callId);
  const member = await deps.db.member.findUnique({ where: { companyId_userId: { companyId: call.companyId, userId } } });
  const isAdmin = !!member && member.isAdmin && member.inviteAccepted && !member.blocked && !member.removed;
  // Someone who is neither in the call nor an admin of its company (another company's user) is simply not in it.
  if (!participant && !isAdmin) fail('FORBIDDEN', M.notParticipant);
  const refusal = subtitlesToggleRefusal({ isOwner: call.ownerId === userId, isAdmin, planTransc: planValue(call.company.plan, 'transc') });
  if (refusal) fail('FORBIDDEN', refusal);
  const { count } = await deps.db.call.updateMany({ where: { id: call.id, companyId: call.companyId, subtitles: !input.on }, data: { subtitles: input.on } });
  if (count > 0) {
    const name = participant?.user.name ?? (await deps.db.user.findUnique({ where: { id: userId }, select: { name: true } }))?.name ?? '';
    deps.realtime.toRoom(rooms.call(call.id), 'call:subtitles', {
      callId: call.id,
      on: input.on,
      by: { id: userId, name },
      ...(!input.on && { notice: S.transcriptionOff }),
    });
    await pushState(deps, call.id);
  }
  return { on: input.on };
}

/** One's own legendaAtiva / traducaoAtiva / idioma. Translation needs the plan's translate. */
export async function setMySubtitles(
  deps: CallsDeps,
  userId: string,
  input: { callId: string; subtitles?: boolean; translation?: boolean; language?: SubtitleLanguage },
) {
  const { call, participant } = await callOf(deps, userId, input.callId);
  if (!participant) fail('FORBIDDEN', M.notParticipant);
  if (input.translation && planValue(call.company.plan, 'translate') <= 0) fail('FORBIDDEN', S.planNoTranslate);
  const user = await deps.db.user.findUnique({ where: { id: userId }, select: { language: true } });
  const updated = await deps.db.callParticipant.update({
    where: { id: participant!.id },
    data: {
      ...(input.subtitles !== undefined && { subtitlesOn: input.subtitles }),
      ...(input.translation !== undefined && { translationOn: input.translation }),
      // idioma defaults to their interface language the first time anything is set.
      language: input.language ?? participant!.language ?? baseLanguage(user?.language) ?? 'en',
    },
  });
  await pushState(deps, call.id);
  return { subtitles: updated.subtitlesOn, translation: updated.translationOn, language: updated.language as SubtitleLanguage };
}

/**
 * A final speech-recognition result of `userId`, who is connected to the call on this socket.
 * Stored, then delivered: original text to whoever does not need a translation; per target
 * language one translation, charged before it is shown. A translator that fails, or a balance
 * that does not cover the charge, leaves those listeners with the original text and bills nothing.
 */
export async function receiveTranscript(deps: CallsDeps, userId: string, input: { callId: string; text: string; lang: string }) {
  const { call, participant } = await callOf(deps, userId, input.callId);
  if (!participant?.connected) fail('FORBIDDEN', M.notParticipant);
  if (planValue(call.company.plan, 'transc') <= 0) fail('FORBIDDEN', S.planNoTransc);
  if (!call.subtitles) fail('BAD_REQUEST', S.subtitlesOff);

  const spoken = baseLanguage(input.lang);
  const langOrigin = spoken ?? input.lang;
  const name = participant!.user.name;
  const now = deps.clock.now();
  const line = await deps.db.callTranscriptLine.create({
    data: { companyId: call.companyId, callId: call.id, userId, userName: name, text: input.text, lang: langOrigin, createdAt: now },
  });

  const listeners = await deps.db.callParticipant.findMany({
    where: { callId: call.id, connected: true, subtitlesOn: true, connectionId: { not: null } },
    include: { user: { select: { language: true } } },
  });
  const socketOf = new Map(listeners.map((l) => [l.userId, l.connectionId!]));
  const translate = deps.hub.translator.kind !== 'none' && planValue(call.company.plan, 'translate') > 0;
  const { original, byLanguage } = subtitleDeliveries(
    spoken,
    listeners.map((l) => ({ userId: l.userId, subtitlesOn: l.subtitlesOn, translationOn: l.translationOn, language: baseLanguage(l.language ?? l.user.language) })),
    translate,
  );

  const base: Omit<CallSubtitle, 'text' | 'lang'> = { callId: call.id, id: line.id, userId, name, original: input.text, langOrigin, at: now };
  const send = (userIds: string[], text: string, lang: string) => {
    // To their call socket (a room of its own id, on whichever instance holds it), not every tab.
    for (const u of userIds) {
      const socketId = socketOf.get(u);
      if (socketId) deps.realtime.toRoom(socketId, 'call:subtitle', { ...base, text, lang });
    }
  };
  send(original, input.text, langOrigin);

  const translations: Record<string, string> = {};
  await Promise.all(
    [...byLanguage].map(async ([target, userIds]) => {
      const translated = await deps.hub.translator.translate(input.text, spoken!, target);
      if (translated === null) return send(userIds, input.text, langOrigin);
      const characters = characterCount(input.text);
      const outcome = await chargeTranslation(deps.db, {
        companyId: call.companyId,
        callId: call.id,
        lineId: line.id,
        lang: target,
        characters,
        amount: translationCharge(characters, call.priceTranslate.toString()),
        name,
        now,
      });
      if (outcome.status === 'insufficient') {
        deps.logger.warn({ callId: call.id, lang: target }, 'translation not covered by the balance: original text shown');
        return send(userIds, input.text, langOrigin);
      }
      translations[target] = translated;
      send(userIds, translated, target);
    }),
  );
  if (Object.keys(translations).length) await deps.db.callTranscriptLine.update({ where: { id: line.id }, data: { translations } });
  return { id: line.id };
}
