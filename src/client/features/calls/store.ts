/**
 * The tab's calls, one store for every screen: the rings waiting for an answer ('Chamada'), the
 * call being started, answered or joined (device chooser, then the call screen), and the notice
 * left when a call ends. The CallOverlay renders it; StartCallButtons and the call pages act on
 * it. Server texts stay as the server sent them; screens translate them (guard/serverMessages).
 */
import { useSyncExternalStore } from 'react';
import type { CallCommandEvent, CallEnded, CallSignal } from '../../../shared/call-events';
import { CALL_TYPE } from '../../../shared/constants';
import { CALL_MESSAGES } from '../../../shared/domain/calls';
import type { trpc } from '../../trpc';
import { cameraConstraints, microphoneConstraints, openMedia, savedCameraOn, savedDevice } from './devices';
import type { CallSession } from './session';

type Client = ReturnType<typeof trpc.useUtils>['client'];

export type CallRole = 'caller' | 'callee' | 'guest' | 'presenter' | 'viewer';

export interface ActiveCall {
  phase: 'devices' | 'joining' | 'in';
  role: CallRole;
  callId: string | null;
  domain: string | null;
  conversationId: string | null;
  type: number;
  isLive: boolean;
  hostInstance: string | null;
  /** A call to start once the caller has chosen their devices. */
  pendingStart: { domain: string; conversationId: string; type: number; live: boolean } | null;
  session: CallSession | null;
  error: string | null;
  /** What happened to the people this caller rang (busy, declined, no answer). */
  ringNotes: CallSignal[];
  /** Answered in one step: the remembered devices open without the chooser (it shows only if they fail). */
  quick: boolean;
}

export type CallNotice =
  | { kind: 'ended'; payload: CallEnded }
  | { kind: 'kicked' }
  | { kind: 'command'; payload: CallCommandEvent }
  | { kind: 'lost' }
  | { kind: 'error'; message: string };

export interface CallsState {
  incoming: CallSignal[];
  active: ActiveCall | null;
  notice: CallNotice | null;
  /** The owner asks to turn the microphone or camera back on. */
  ask: CallCommandEvent | null;
}

let state: CallsState = { incoming: [], active: null, notice: null, ask: null };
const listeners = new Set<() => void>();
let client: Client | null = null;
let myUserId: string | null = null;

function set(patch: Partial<CallsState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}
const patchActive = (patch: Partial<ActiveCall>) => state.active && set({ active: { ...state.active, ...patch } });

export function useCallsState(): CallsState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

export const getCallsState = () => state;

/** The overlay hands over the API client and who is signed in. */
export function configureCalls(c: Client, userId: string | null) {
  client = c;
  myUserId = userId;
}

function api(): Client {
  if (!client) throw new Error('Calls are not ready yet');
  return client;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

// -------------------------------------------------------------------------------------------------
// Signals from the tab's main socket
// -------------------------------------------------------------------------------------------------

export function setIncoming(rings: CallSignal[]) {
  set({ incoming: rings });
}

export function onSignal(signal: CallSignal) {
  switch (signal.cmd) {
    case 'create':
      if (state.active?.callId === signal.callId) return;
      set({ incoming: [...state.incoming.filter((s) => s.callId !== signal.callId), signal] });
      return;
    case 'cancel':
      set({ incoming: state.incoming.filter((s) => s.callId !== signal.callId) });
      return;
    case 'otherReject':
    case 'accepted':
      if (state.active?.callId === signal.callId) patchActive({ ringNotes: [...state.active.ringNotes, signal] });
      return;
  }
}

export function onCallEnded(payload: CallEnded) {
  set({ incoming: state.incoming.filter((s) => s.callId !== payload.callId) });
  // The call's own socket handles the active call; this covers a caller still choosing devices.
  if (state.active?.callId === payload.callId && !state.active.session) {
    set({ active: null, notice: { kind: 'ended', payload } });
  }
}

// -------------------------------------------------------------------------------------------------
// Starting, answering, entering
// -------------------------------------------------------------------------------------------------

function fresh(patch: Partial<ActiveCall>): ActiveCall {
  return {
    phase: 'devices',
    role: 'guest',
    callId: null,
    domain: null,
    conversationId: null,
    type: CALL_TYPE.video,
    isLive: false,
    hostInstance: null,
    pendingStart: null,
    session: null,
    error: null,
    ringNotes: [],
    quick: false,
    ...patch,
  };
}

/** A call from a conversation: the device chooser first, then the call starts ringing. */
export function prepareCall(input: { domain: string; conversationId: string; type: number }) {
  if (state.active) return;
  set({ notice: null, active: fresh({ role: 'caller', type: input.type, domain: input.domain, conversationId: input.conversationId, pendingStart: { ...input, live: false } }) });
}

/** A live session in a live room: the presenter chooses devices, then it starts. */
export function prepareLive(input: { domain: string; conversationId: string }) {
  if (state.active) return;
  set({
    notice: null,
    active: fresh({ role: 'presenter', isLive: true, domain: input.domain, conversationId: input.conversationId, pendingStart: { ...input, type: CALL_TYPE.video, live: true } }),
  });
}

export async function acceptRing(signal: CallSignal) {
  set({ incoming: state.incoming.filter((s) => s.callId !== signal.callId) });
  if (state.active) {
    set({ notice: { kind: 'error', message: CALL_MESSAGES.alreadyInCall } });
    return;
  }
  try {
    const accepted = await api().calls.accept.mutate({ callId: signal.callId });
    const type = signal.type === CALL_TYPE.screenShare ? CALL_TYPE.voice : signal.type;
    set({
      notice: null,
      active: fresh({ role: 'callee', callId: signal.callId, domain: accepted.domain, conversationId: signal.conversationId, type, hostInstance: accepted.hostInstance, quick: true }),
    });
    await joinRemembered(type);
  } catch (err) {
    set({ notice: { kind: 'error', message: messageOf(err) } });
  }
}

/**
 * Accept is the one step: the devices chosen last time open and the call joins. When they cannot
 * open (blocked, unplugged), the device chooser shows instead and says why.
 */
async function joinRemembered(type: number) {
  let media: MediaStream;
  try {
    // Remote assistance is about the screen: the customer answers with their voice only.
    const camera = type !== CALL_TYPE.voice && type !== CALL_TYPE.remoteAccess && savedCameraOn();
    media = await openMedia({ camera, cameraId: camera ? await savedDeviceId('camera') : null, microphoneId: await savedDeviceId('microphone') });
  } catch {
    patchActive({ quick: false });
    return;
  }
  if (state.active?.phase !== 'devices') return media.getTracks().forEach((t) => t.stop());
  await joinWith(media);
}

export async function rejectRing(signal: CallSignal) {
  set({ incoming: state.incoming.filter((s) => s.callId !== signal.callId) });
  await api().calls.reject.mutate({ callId: signal.callId }).catch(() => {});
}

/** Joining a call by its page or link (members from the conversation, customers, visitors). */
export async function enterCall(input: { callId: string; key?: string }) {
  if (state.active?.callId === input.callId) return;
  if (state.active) {
    set({ notice: { kind: 'error', message: CALL_MESSAGES.alreadyInCall } });
    return;
  }
  try {
    const entered = await api().calls.enter.mutate(input);
    const viewer = entered.isLive && entered.ownerId !== myUserId;
    set({
      notice: null,
      active: fresh({
        role: viewer ? 'viewer' : entered.isLive ? 'presenter' : 'guest',
        callId: entered.callId,
        domain: entered.domain,
        conversationId: entered.conversationId,
        type: entered.type,
        isLive: entered.isLive,
        hostInstance: entered.hostInstance,
      }),
    });
    // Viewers send nothing: no device chooser.
    if (viewer) await joinWith(null);
  } catch (err) {
    set({ notice: { kind: 'error', message: messageOf(err) } });
  }
}

/** /{emp}/live/{id}: the live session running in a live room. */
export async function enterLive(conversationId: string) {
  if (state.active) return;
  try {
    const entered = await api().calls.enterLive.mutate({ conversationId });
    await enterCall({ callId: entered.callId });
  } catch (err) {
    set({ notice: { kind: 'error', message: messageOf(err) } });
  }
}

/** Cancelar on the device chooser. */
export async function cancelDevices() {
  const active = state.active;
  if (!active) return;
  set({ active: null });
  if (active.callId && active.role === 'callee') await api().calls.leave.mutate({ callId: active.callId }).catch(() => {});
}

// -------------------------------------------------------------------------------------------------
// In the call
// -------------------------------------------------------------------------------------------------

function onSessionEnded(payload: CallEnded) {
  set({ active: null, ask: null, notice: { kind: 'ended', payload } });
}

function onCommand(payload: CallCommandEvent) {
  const session = state.active?.session;
  if (!session) return;
  switch (payload.command) {
    case 'mute':
      void session.setEnabled('mic', false).catch(() => {});
      set({ notice: { kind: 'command', payload } });
      return;
    case 'muteVideo':
      void session.setEnabled('cam', false).catch(() => {});
      set({ notice: { kind: 'command', payload } });
      return;
    case 'unmute':
    case 'unmuteVideo':
      set({ ask: payload });
      return;
    case 'kick':
      session.close();
      set({ active: null, ask: null, notice: { kind: 'kicked' } });
      return;
  }
}

/** 'Ingressar agora': starts the call if this is the caller, joins the room, sends the chosen tracks. */
export async function joinWith(media: MediaStream | null) {
  const active = state.active;
  if (!active || active.phase !== 'devices' || !myUserId) return;
  patchActive({ phase: 'joining', error: null });
  let session: CallSession | null = null;
  try {
    let { callId, hostInstance } = active;
    if (active.pendingStart) {
      const p = active.pendingStart;
      const started = p.live
        ? await api().calls.startLive.mutate({ domain: p.domain, conversationId: p.conversationId })
        : await api().calls.start.mutate({ domain: p.domain, conversationId: p.conversationId, type: p.type as 1 | 2 | 3 | 4 });
      callId = started.callId;
      hostInstance = started.hostInstance;
      patchActive({ callId, hostInstance, pendingStart: null });
    }
    // mediasoup-client loads with the first call, not with the page.
    const { CallSession } = await import('./session');
    session = new CallSession(callId!, myUserId, hostInstance ?? '', {
      onEnded: onSessionEnded,
      onCommand,
      onLost: () => set({ active: null, ask: null, notice: { kind: 'lost' } }),
    });
    patchActive({ session });
    await session.join();
    const audio = media?.getAudioTracks()[0];
    const video = media?.getVideoTracks()[0];
    if (audio) await session.publish('mic', audio);
    if (video) await session.publish('cam', video);
    patchActive({ phase: 'in' });
    // A screen-share call starts by sharing.
    if (active.role === 'caller' && active.type === CALL_TYPE.screenShare) await shareScreen().catch(() => {});
  } catch (err) {
    session?.close();
    media?.getTracks().forEach((t) => t.stop());
    if (!state.active) return;
    // Started but could not join: the call must not ring on without its caller.
    const callId = state.active.callId;
    if (active.role === 'caller' && callId) await api().calls.leave.mutate({ callId }).catch(() => {});
    set({ active: null, notice: { kind: 'error', message: messageOf(err) } });
  }
}

export async function shareScreen() {
  const session = state.active?.session;
  if (!session) return;
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: { width: 1280, height: 720, frameRate: 30 }, audio: false });
  const track = stream.getVideoTracks()[0];
  if (track) await session.publish('screen', track);
}

export async function stopScreen() {
  await state.active?.session?.unpublish('screen');
}

/** Leave: the call goes on for the others (it closes by itself if one person would be left). */
export async function leaveCall() {
  const active = state.active;
  set({ active: null, ask: null });
  await active?.session?.leave();
}

/** The owner's 'End for everyone'. */
export async function endCallForAll() {
  const callId = state.active?.callId;
  if (callId) await api().calls.end.mutate({ callId });
}

/**
 * The call bar's device settings: the new microphone and camera replace the tracks being sent,
 * keeping each one's on/off state.
 */
export async function applyDevices(media: MediaStream | null) {
  const session = state.active?.session;
  if (!session || !media) return;
  const before = session.getSnapshot().local;
  const audio = media.getAudioTracks()[0];
  const video = media.getVideoTracks()[0];
  if (audio) {
    await session.publish('mic', audio);
    if (before.mic && before.mic !== audio) before.mic.stop();
    if (!before.micOn && session.hasProducer('mic')) await session.setEnabled('mic', false);
  }
  if (video) {
    await session.publish('cam', video);
    if (before.cam && before.cam !== video) before.cam.stop();
    // A paused camera turned on in the settings sends again.
    if (!before.camOn) await session.setEnabled('cam', true);
  } else if (session.hasProducer('cam') && before.camOn) {
    await session.setEnabled('cam', false);
  }
}

/** Cancelar on 'Chamando': stops ringing everyone; a call nobody answered ends. */
export async function cancelRinging() {
  const callId = state.active?.callId;
  if (callId) await api().calls.cancel.mutate({ callId });
}

/** The saved device of a kind, matched by label among what the browser has now. */
async function savedDeviceId(kind: 'camera' | 'microphone'): Promise<string | null> {
  const label = savedDevice(kind);
  if (!label) return null;
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.find((d) => d.label === label && d.kind === (kind === 'camera' ? 'videoinput' : 'audioinput'))?.deviceId ?? null;
}

/** Microphone on or off; the first time on (a call joined without it) opens the device. */
export async function setMicrophone(on: boolean) {
  const session = state.active?.session;
  if (!session) return;
  if (session.hasProducer('mic')) return session.setEnabled('mic', on);
  if (!on) return;
  const stream = await navigator.mediaDevices.getUserMedia({ audio: microphoneConstraints(await savedDeviceId('microphone')) });
  await session.publish('mic', stream.getAudioTracks()[0]!);
}

/** Camera on or off; the first time on (a voice call) opens the camera. */
export async function setCamera(on: boolean) {
  const session = state.active?.session;
  if (!session) return;
  if (session.hasProducer('cam')) return session.setEnabled('cam', on);
  if (!on) return;
  const stream = await navigator.mediaDevices.getUserMedia({ video: cameraConstraints(await savedDeviceId('camera')) });
  await session.publish('cam', stream.getVideoTracks()[0]!);
}

export function answerAsk(accept: boolean) {
  const ask = state.ask;
  set({ ask: null });
  if (!ask || !accept) return;
  const turnOn = ask.command === 'unmute' ? setMicrophone(true) : setCamera(true);
  turnOn.catch((err) => showError(messageOf(err)));
}

export function dismissNotice() {
  set({ notice: null });
}

export function showError(message: string) {
  set({ notice: { kind: 'error', message } });
}
