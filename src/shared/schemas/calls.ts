import { z } from 'zod';
import { SUBTITLE_LANGUAGES, SUBTITLE_MESSAGES } from '../domain/subtitles';
import { MESSAGE_MAX_LENGTH } from '../constants';
import { CALL_COMMANDS } from '../domain/calls';
import { domainSchema } from './company';

const id = z.uuid();
const callId = { callId: id };

/** Start a call from a conversation: 1 voice, 2 video, 3 screen share, 4 remote assistance (plan flag anotation). */
export const startCallInput = z.object({ domain: domainSchema, conversationId: id, type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]) });
/** Start a live session in a live room (conversation type 4). */
export const startLiveInput = z.object({ domain: domainSchema, conversationId: id });
/** Create a live room (a conversation of type 4) and start its live session. */
export const createLiveInput = z.object({ domain: domainSchema, title: z.string().trim().min(1).max(120) });
export const conversationCallInput = z.object({ domain: domainSchema, conversationId: id });
export const callInput = z.object(callId);
/** The link key of /{emp}/call/{id}/{key}: 32 url-safe characters. */
export const linkKeySchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
export const enterCallInput = z.object({ ...callId, key: linkKeySchema.optional() });
/** /{emp}/live/{id}: the live room's conversation id. */
export const enterLiveInput = z.object({ conversationId: id });
export const cancelCallInput = z.object({ ...callId, userId: id.optional() });
export const inviteToCallInput = z.object({ ...callId, userIds: z.array(id).min(1).max(50) });
export const commandInput = z.object({ ...callId, userId: id, command: z.enum(CALL_COMMANDS) });
export const recordingInput = z.object({ recordingId: id });
export const statementInput = z.object({ domain: domainSchema, cursor: id.optional(), limit: z.number().int().min(1).max(100).default(50) });

const source = z.enum(['mic', 'cam', 'screen']);
/** mediasoup validates its own parameter objects; here they only need to be objects. */
const mediaParams = z.looseObject({});
const mediaId = z.string().min(1).max(64);

/** The call socket's requests (CallRequest in shared/call-events.ts), checked before anything runs. */
export const callRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('join'), callId: id }),
  z.object({ method: z.literal('createTransport'), direction: z.enum(['send', 'recv']) }),
  z.object({ method: z.literal('connectTransport'), transportId: mediaId, dtlsParameters: mediaParams }),
  z.object({ method: z.literal('produce'), transportId: mediaId, kind: z.enum(['audio', 'video']), rtpParameters: mediaParams, source }),
  z.object({ method: z.literal('closeProducer'), producerId: mediaId }),
  z.object({ method: z.literal('pauseProducer'), producerId: mediaId }),
  z.object({ method: z.literal('resumeProducer'), producerId: mediaId }),
  z.object({ method: z.literal('consume'), producerId: mediaId, rtpCapabilities: mediaParams }),
  z.object({ method: z.literal('resumeConsumer'), consumerId: mediaId }),
  // Remote assistance (tipo 4): the attendant's annotation channel, and everyone else receiving it.
  z.object({ method: z.literal('produceData'), transportId: mediaId, sctpStreamParameters: mediaParams }),
  z.object({ method: z.literal('consumeData'), dataProducerId: mediaId }),
  z.object({ method: z.literal('chat'), text: z.string().trim().min(1).max(MESSAGE_MAX_LENGTH) }),
  z.object({ method: z.literal('leave') }),
]);

// Subtitles and translation ------------------------------------------------------------------
const subtitleLanguage = z.enum(SUBTITLE_LANGUAGES, { error: SUBTITLE_MESSAGES.badLanguage });
/** The call's legenda (owner or admin). */
export const callSubtitlesInput = z.object({ ...callId, on: z.boolean() });
/** One's own legendaAtiva, traducaoAtiva and idioma; what is left out stays as it is. */
export const mySubtitlesInput = z.object({ ...callId, subtitles: z.boolean().optional(), translation: z.boolean().optional(), language: subtitleLanguage.optional() });
/** A final speech-recognition result (call:transcript); lang is the recogniser's tag ('pt-BR'). */
export const transcriptInput = z.object({ ...callId, text: z.string().trim().min(1).max(1000), lang: z.string().trim().min(2).max(35) });
