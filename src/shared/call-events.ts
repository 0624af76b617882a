/**
 * What calls push and ask over Socket.IO (plain JSON: dates arrive as ISO strings). Signals ring
 * a person's every tab; the call state and the media negotiation go over the socket a call screen
 * opens for that call (one per call, `query: { call }`), answered through acknowledgements.
 */
import type { types } from 'mediasoup-client';
import type { CallCommand, CallEndReason } from './domain/calls';

export type MediaSource = 'mic' | 'cam' | 'screen';

/** The spec's signalling entry (cmd create, cancel, otherReject), plus 'accepted' for the caller. */
export interface CallSignal {
  cmd: 'create' | 'cancel' | 'otherReject' | 'accepted';
  callId: string;
  domain: string;
  conversationId: string;
  /** 1 voice, 2 video, 3 screen share, 4 remote access. */
  type: number;
  isLive: boolean;
  from: { id: string; name: string };
  to: { id: string; name: string };
  /** Why a ring ended: the callee was busy, rejected, did not answer, answered in another tab, or the caller cancelled. */
  reason?: 'busy' | 'rejected' | 'noAnswer' | 'answeredElsewhere' | 'cancelled' | 'ended';
}

export interface CallParticipantState {
  userId: string;
  name: string;
  anonymous: boolean;
  isOwner: boolean;
  calling: boolean;
  accepted: boolean;
  connecting: boolean;
  connected: boolean;
  rejected: boolean;
  audio: boolean;
  video: boolean;
  screen: boolean;
  /** legendaAtiva, traducaoAtiva, idioma (null: their UI language). */
  subtitlesOn: boolean;
  translationOn: boolean;
  language: string | null;
}

/** The whole state of a call, pushed to its room after every change. */
export interface CallState {
  id: string;
  domain: string;
  conversationId: string;
  type: number;
  isLive: boolean;
  /** A consultation (telemedicine module): recording needs the patient's consent, asked in the call. */
  telemedicine: boolean;
  open: boolean;
  concluded: boolean;
  endReason: CallEndReason | null;
  ownerId: string | null;
  startedAt: string | Date | null;
  endedAt: string | Date | null;
  /** Recording: 1 idle, 2 changing, 3 recording. */
  rec: number;
  recorderId: string | null;
  canRec: boolean;
  /** legenda: live subtitles on in this call. */
  subtitles: boolean;
  /** Live rooms: everyone connected but the presenter (never below 0). */
  viewers: number;
  participants: CallParticipantState[];
}

export interface CallEnded {
  callId: string;
  reason: CallEndReason;
  /** For 'timeLimit': which environment's notice applies (8 h, 4 h or 2 h). */
  appEnv?: 'prod' | 'stage' | 'dev';
}

export interface CallCommandEvent {
  callId: string;
  command: CallCommand;
  from: { id: string; name: string };
}

/** A data channel in the call (the attendant's annotations in remote assistance). */
export interface DataProducerInfo {
  dataProducerId: string;
  userId: string;
  label: string;
}

export interface ProducerInfo {
  producerId: string;
  userId: string;
  kind: 'audio' | 'video';
  source: MediaSource;
  paused: boolean;
}

export interface CallChatLine {
  callId: string;
  id: string;
  userId: string;
  name: string;
  text: string;
  at: string | Date;
}

/** A subtitle line to one listener: translated into `lang` when they asked for it, else the original. */
export interface CallSubtitle {
  callId: string;
  id: string;
  userId: string;
  name: string;
  text: string;
  lang: string;
  /** The words as spoken, and their language (langOrigin). */
  original: string;
  langOrigin: string;
  at: string | Date;
}

/** The call's subtitles were turned on or off; `notice` is the text to show ('Transcrição desativada'). */
export interface CallSubtitlesToggled {
  callId: string;
  on: boolean;
  by: { id: string; name: string };
  notice?: string;
}

/** A final speech-recognition result of the speaker, sent on their call socket. */
export interface CallTranscriptInput {
  callId: string;
  text: string;
  lang: string;
}

export type CallTranscriptAck = { ok: true; data: { id: string } } | { ok: false; error: string };

/** Requests of the call socket, one handler with a case for each (server: modules/calls/events.ts). */
export type CallRequest =
  | { method: 'join'; callId: string }
  | { method: 'createTransport'; direction: 'send' | 'recv' }
  | { method: 'connectTransport'; transportId: string; dtlsParameters: types.DtlsParameters }
  | { method: 'produce'; transportId: string; kind: 'audio' | 'video'; rtpParameters: types.RtpParameters; source: MediaSource }
  | { method: 'closeProducer'; producerId: string }
  | { method: 'pauseProducer'; producerId: string }
  | { method: 'resumeProducer'; producerId: string }
  | { method: 'consume'; producerId: string; rtpCapabilities: types.RtpCapabilities }
  | { method: 'resumeConsumer'; consumerId: string }
  | { method: 'produceData'; transportId: string; sctpStreamParameters: types.SctpStreamParameters }
  | { method: 'consumeData'; dataProducerId: string }
  | { method: 'chat'; text: string }
  | { method: 'leave' };

export type CallMethod = CallRequest['method'];

export interface CallResults {
  join: { routerRtpCapabilities: types.RtpCapabilities; producers: ProducerInfo[]; dataProducers: DataProducerInfo[]; state: CallState; peerId: number };
  createTransport: {
    id: string;
    iceParameters: types.IceParameters;
    iceCandidates: types.IceCandidate[];
    dtlsParameters: types.DtlsParameters;
    sctpParameters?: types.SctpParameters;
  };
  connectTransport: Record<string, never>;
  produce: { producerId: string };
  closeProducer: Record<string, never>;
  pauseProducer: Record<string, never>;
  resumeProducer: Record<string, never>;
  consume: { consumerId: string; producerId: string; kind: 'audio' | 'video'; rtpParameters: types.RtpParameters; userId: string; source: MediaSource };
  resumeConsumer: Record<string, never>;
  produceData: { dataProducerId: string };
  consumeData: { dataConsumerId: string; dataProducerId: string; sctpStreamParameters: types.SctpStreamParameters; label: string; protocol: string; userId: string };
  chat: { id: string };
  leave: Record<string, never>;
}

export type CallAck<M extends CallMethod = CallMethod> = { ok: true; data: CallResults[M] } | { ok: false; error: string };
