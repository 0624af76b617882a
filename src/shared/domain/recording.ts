/**
 * Recording state (spec §4 "Recording"): rec 1 idle, 2 changing, 3 recording. Start goes 1 -> 2 -> 3
 * and back to 1 on failure; stop goes 3 -> 2 -> 1 and back to 3 on failure. Only the holder of
 * the recorder id stops it; the owner or an admin starts it, when the plan has voipRecorder and
 * the call's canRec allows it.
 */
import { RECORDING_STATE } from '../constants';
import { CALL_MESSAGES } from './calls';

export type RecordingState = (typeof RECORDING_STATE)[keyof typeof RECORDING_STATE];

export type RecordingEvent = 'start' | 'started' | 'startFailed' | 'stop' | 'stopped' | 'stopFailed';

/**
 * The next state, or null when the event does not apply. `start`/`stop` move to "changing" and
 * remember where they came from through the event that ends them (`started`/`startFailed`,
 * `stopped`/`stopFailed`), so a failure lands on the previous state.
 */
export function nextRecordingState(state: RecordingState, event: RecordingEvent): RecordingState | null {
  const { idle, changing, recording } = RECORDING_STATE;
  switch (event) {
    case 'start':
      return state === idle ? changing : null;
    case 'started':
      return state === changing ? recording : null;
    case 'startFailed':
      return state === changing ? idle : null;
    case 'stop':
      return state === recording ? changing : null;
    case 'stopped':
      return state === changing ? idle : null;
    case 'stopFailed':
      return state === changing ? recording : null;
  }
}

export interface RecordingStartCheck {
  isOwner: boolean;
  isAdmin: boolean;
  /** The company plan's voipRecorder. */
  planRecorder: number;
  /** The call's canRec. */
  canRec: boolean;
  state: RecordingState;
}

/** Why this person may not start a recording now, in the spec's words; null when they may. */
export function recordingStartRefusal(c: RecordingStartCheck): string | null {
  if (!c.isOwner && !c.isAdmin) return CALL_MESSAGES.recordOwnerOrAdmin;
  // An admin is the one who would enable it; anyone else is told to ask the administrator.
  if (!(c.planRecorder > 0)) return c.isAdmin ? CALL_MESSAGES.recordingPlanOffAdmin : CALL_MESSAGES.recordingPlanOff;
  if (!c.canRec) return CALL_MESSAGES.recordingDisabled;
  if (c.state === RECORDING_STATE.recording) return CALL_MESSAGES.alreadyRecording;
  if (c.state === RECORDING_STATE.changing) return CALL_MESSAGES.recordingBusy;
  return null;
}

/** Only the holder of the recorder id stops a recording; a room that is gone cannot be stopped. */
export function recordingStopRefusal(c: { userId: string; recorderId: string | null; state: RecordingState; roomExists: boolean }): string | null {
  if (!c.roomExists) return CALL_MESSAGES.roomGone;
  if (c.state === RECORDING_STATE.idle) return CALL_MESSAGES.notRecording;
  if (c.recorderId !== c.userId) return CALL_MESSAGES.notRecorder;
  if (c.state === RECORDING_STATE.changing) return CALL_MESSAGES.recordingBusy;
  return null;
}

/** A recording's file name: the call's start in UTC, readable and sortable. */
export function recordingFileName(startedAt: Date, extension: 'webm' | 'mp4'): string {
  const stamp = startedAt.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
  return `recording-${stamp}.${extension}`;
}
