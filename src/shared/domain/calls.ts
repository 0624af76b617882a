/**
 * Call rules (spec product §4 "Call", calls-errors-constants §4–§6): who may start, join and
 * command a call, how a participant's flags move, when a call opens, when it closes by itself,
 * and the time limit per environment. Pure, so the server and the browser apply the same rule.
 */
import { CALL_TIME_LIMIT_MS, CALL_TYPE } from '../constants';
import { companyBlocksWork, type CompanyWorkState } from './company';

export type CallType = (typeof CALL_TYPE)[keyof typeof CALL_TYPE];
export const CALL_TYPES: readonly CallType[] = [CALL_TYPE.voice, CALL_TYPE.video, CALL_TYPE.screenShare, CALL_TYPE.remoteAccess];

/** The spec's texts for calls, word for word; the browser maps each to the user's language. */
export const CALL_MESSAGES = {
  whatsappCustomer: 'Clientes WhatsApp não conseguem receber chamadas.',
  telegramOnly: 'Clientes Telegram não conseguem receber chamadas.',
  companyDeactivated: 'Atenção - Empresa desativada',
  planBlocked: 'No momento a conta da empresa está desativada, você não poderá atender a fila, ou interagir com atendimentos.',
  voiceCallFinished: 'Chamada de voz finalizada',
  callMissing: 'Chamada/Live inexistente',
  insufficientBalance: 'Atenção - Saldo Insuficiente: Para continuar a utilizar os recursos, você deve fazer uma recarga.',
  recordingPlanOff: 'Serviço Desabilitado - Procure o administrator para habilitar o recurso de gravação das chamadas',
  recordingPlanOffAdmin: 'As configurações de sua organização não permitem iniciar uma gravação',
  recordingDisabled: 'Gravação desabilitada - As configurações da organização não permitem iniciar a gravação',
  notRecorder: 'Você não pode finalizar esta gravação',
  roomGone: 'Sala não encontrada. Você não pode finalizar esta gravação',
  alreadyInCall: 'You are already on a call!',
  sessionNotStarted: 'Sessão não iniciada. Aguarde e tente novamente mais tarde',
  connectionFailed: 'Falha na conexão com a sessão',
  voiceCallStartFailed: 'Error starting voice call',
  // Ours (the spec shows no text for these situations).
  notParticipant: 'You are not in this call',
  onlyOwner: 'Only the owner of the call can do this',
  recordOwnerOrAdmin: 'Only the owner of the call or an administrator can record',
  recordingBusy: 'The recording is changing state; try again in a moment',
  notRecording: 'This call is not being recorded',
  alreadyRecording: 'This call is already being recorded',
  recordingFailed: 'The recording could not be started',
  recordingStopFailed: 'The recording could not be finished',
  kicked: 'You were removed from this call',
  noOneToCall: 'There is nobody else in this conversation to call',
  callsUnavailable: 'Calls are not available on this server right now',
  wrongInstance: 'This call is hosted by another server instance',
  targetNotInCall: 'This person is not in the call',
  selfCommand: 'You cannot send this command to yourself',
  notRinging: 'This call is no longer ringing',
  badLink: 'This call link is not valid',
  liveOnlyPresenter: 'Only the presenter sends media in a live session',
  recordingNotFound: 'Recording not found',
  remoteNotInLive: 'Remote assistance is not available in a live room',
  annotationsOnlyRemote: 'Annotations are only drawn in a remote assistance call',
  annotationsOnlyOwner: 'Only the attendant who started the remote assistance can draw',
} as const;

// -------------------------------------------------------------------------------------------------
// Starting a call
// -------------------------------------------------------------------------------------------------

/** The people a call would ring, as the refusal rules need them (spec: WhatsApp, Telegram). */
export interface Callee {
  /** The participant is a customer reached through the WhatsApp relay. */
  whatsapp: boolean;
  /** The participant is a customer reached through the Telegram relay. */
  telegram: boolean;
}

export type CallStartRefusal = { code: 'FORBIDDEN' | 'BAD_REQUEST'; message: string };

/**
 * Spec §5: a call start is refused for a deactivated company, a blocked plan without exemption,
 * WhatsApp customers, and (outside telemedicine) when every other participant is on Telegram.
 */
export function callStartRefusal(input: { company: CompanyWorkState; callees: Callee[]; telemedicine?: boolean; isLive?: boolean }): CallStartRefusal | null {
  const block = companyBlocksWork(input.company);
  if (block?.reason === 'deactivated') return { code: 'FORBIDDEN', message: CALL_MESSAGES.companyDeactivated };
  if (block?.reason === 'planBlocked') return { code: 'FORBIDDEN', message: CALL_MESSAGES.planBlocked };
  if (input.isLive) return null;
  if (input.callees.length === 0) return { code: 'BAD_REQUEST', message: CALL_MESSAGES.noOneToCall };
  if (input.callees.some((c) => c.whatsapp)) return { code: 'BAD_REQUEST', message: CALL_MESSAGES.whatsappCustomer };
  if (!input.telemedicine && input.callees.every((c) => c.telegram)) return { code: 'BAD_REQUEST', message: CALL_MESSAGES.telegramOnly };
  return null;
}

// -------------------------------------------------------------------------------------------------
// Participant flags (spec: calling, then accepted plus connecting, then connected; or reject)
// -------------------------------------------------------------------------------------------------

export interface ParticipantFlags {
  calling: boolean;
  accepted: boolean;
  connecting: boolean;
  connected: boolean;
  rejected: boolean;
}

export const IDLE_FLAGS: ParticipantFlags = { calling: false, accepted: false, connecting: false, connected: false, rejected: false };

export type ParticipantEvent = 'ring' | 'accept' | 'reject' | 'connect' | 'leave' | 'noAnswer' | 'cancel';

/**
 * The next flags of a participant, or null when the event does not apply in this state (an
 * accept after the ring timed out, a second connect...). Leaving clears every flag (spec).
 */
export function nextParticipantFlags(f: ParticipantFlags, event: ParticipantEvent): ParticipantFlags | null {
  switch (event) {
    case 'ring':
      if (f.connected || f.connecting) return null;
      return { ...IDLE_FLAGS, calling: true };
    case 'accept':
      if (!f.calling) return null;
      return { ...IDLE_FLAGS, accepted: true, connecting: true };
    case 'reject':
      if (!f.calling) return null;
      return { ...IDLE_FLAGS, rejected: true };
    case 'noAnswer':
    case 'cancel':
      if (!f.calling) return null;
      return { ...IDLE_FLAGS };
    case 'connect':
      // Someone joining by link or from the call page never rang: connecting straight to connected.
      if (f.connected) return null;
      return { ...IDLE_FLAGS, accepted: true, connected: true };
    case 'leave':
      return { ...IDLE_FLAGS };
  }
}

/** In the call, or on the way in (accepted and choosing devices): counts as "a user remaining". */
export const isPresent = (f: Pick<ParticipantFlags, 'connected' | 'connecting'>) => f.connected || f.connecting;

// -------------------------------------------------------------------------------------------------
// Call lifecycle
// -------------------------------------------------------------------------------------------------

export interface CallLifecycle {
  open: boolean; // aberta
  concluded: boolean; // concluida
  isLive: boolean;
  /** voipCallApi: a call driven by an integration; never closed for being alone. */
  apiCall?: boolean;
}

/**
 * Spec: "Becomes aberta when someone accepts or joins". The owner's own join does not count:
 * the caller is in the room while it rings, and a call open with one person would close at once.
 */
export function opensCall(call: CallLifecycle, event: { by: 'owner' | 'other'; kind: 'accept' | 'join' }): boolean {
  if (call.concluded || call.open) return false;
  return call.isLive || event.by === 'other';
}

/**
 * Spec: an open call with fewer than 2 users remaining (not live, not a voip-api call) closes by
 * itself and its recording stops; any call with nobody left is concluded.
 */
export function shouldAutoClose(call: CallLifecycle, presentCount: number, ringingCount: number): boolean {
  if (call.concluded) return false;
  if (presentCount === 0 && ringingCount === 0) return true;
  if (!call.open || call.isLive || call.apiCall) return false;
  return presentCount < 2;
}

/** Why a call ended, as the participants are told. */
export type CallEndReason =
  | 'ended' // the last people left, or it closed with fewer than 2
  | 'endedByOwner'
  | 'noAnswer' // nobody answered or everybody rejected
  | 'cancelled' // the caller cancelled the ringing
  | 'timeLimit'
  | 'insufficientBalance'
  | 'mediaFailure'; // the media worker hosting it died

/** Spec §5: joining a finished voice call, or a call that does not exist. */
export function joinRefusal(call: { concluded: boolean; isLive: boolean } | null): string | null {
  if (!call) return CALL_MESSAGES.callMissing;
  if (call.concluded) return call.isLive ? CALL_MESSAGES.callMissing : CALL_MESSAGES.voiceCallFinished;
  return null;
}

/** Spec: type 3 (screen share) is switched to 1 on acceptance. */
export const typeOnAccept = (type: number): number => (type === CALL_TYPE.screenShare ? CALL_TYPE.voice : type);

// -------------------------------------------------------------------------------------------------
// Remote commands (spec §6: mute, unmute (asks), muteVideo, unmuteVideo, kick)
// -------------------------------------------------------------------------------------------------

export const CALL_COMMANDS = ['mute', 'unmute', 'muteVideo', 'unmuteVideo', 'kick'] as const;
export type CallCommand = (typeof CALL_COMMANDS)[number];

/** Turning someone's microphone or camera back on is a request they accept; the rest just happen. */
export const commandAsksTarget = (c: CallCommand) => c === 'unmute' || c === 'unmuteVideo';

/** The cmdExecutor field: 'command|issuerId'. */
export const formatCmdExecutor = (command: CallCommand, issuerId: string) => `${command}|${issuerId}`;

export function parseCmdExecutor(value: string | null | undefined): { command: CallCommand; issuerId: string } | null {
  if (!value) return null;
  const [command, issuerId] = value.split('|');
  if (!issuerId || !(CALL_COMMANDS as readonly string[]).includes(command ?? '')) return null;
  return { command: command as CallCommand, issuerId };
}

/** Spec §6: the owner (userPai) commands the others; nobody commands themselves. */
export function commandRefusal(input: { issuerId: string; ownerId: string; targetId: string; targetPresent: boolean }): string | null {
  if (input.issuerId !== input.ownerId) return CALL_MESSAGES.onlyOwner;
  if (input.targetId === input.issuerId) return CALL_MESSAGES.selfCommand;
  if (!input.targetPresent) return CALL_MESSAGES.targetNotInCall;
  return null;
}

// -------------------------------------------------------------------------------------------------
// Time limit (calls-errors-constants §8/§9)
// -------------------------------------------------------------------------------------------------

export const APP_ENVS = ['prod', 'stage', 'dev'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

export const callTimeLimitMs = (env: AppEnv): number => CALL_TIME_LIMIT_MS[env];

/** The notice per environment, word for word. */
export const CALL_TIME_LIMIT_MESSAGES: Record<AppEnv, string> = {
  prod: 'Tempo limite de 8 horas',
  stage: 'Tempo limite de 4h esgotado',
  dev: 'Tempo limite de 2h esgotado',
};

/** How long is left before the limit, from when the call opened; 0 when it is reached. */
export function timeLeftMs(env: AppEnv, startedAt: Date, now: Date): number {
  return Math.max(0, startedAt.getTime() + callTimeLimitMs(env) - now.getTime());
}

// -------------------------------------------------------------------------------------------------
// Live rooms
// -------------------------------------------------------------------------------------------------

/** Spec: the live participant count is never below 0. Viewers are everyone but the presenter. */
export const viewerCount = (connected: number, presenterConnected: boolean): number => Math.max(0, connected - (presenterConnected ? 1 : 0));
