import { describe, expect, it } from 'vitest';
import { RECORDING_STATE } from '../../src/shared/constants';
import { chargeFor, covers, fromUnits, participantTag, toUnits } from '../../src/shared/domain/billing';
import { activeSpeaker, gridLayout } from '../../src/shared/domain/call-grid';
import {
  CALL_MESSAGES as M,
  CALL_TIME_LIMIT_MESSAGES,
  callStartRefusal,
  callTimeLimitMs,
  commandAsksTarget,
  commandRefusal,
  formatCmdExecutor,
  IDLE_FLAGS,
  joinRefusal,
  nextParticipantFlags,
  opensCall,
  parseCmdExecutor,
  shouldAutoClose,
  timeLeftMs,
  typeOnAccept,
  viewerCount,
} from '../../src/shared/domain/calls';
import { nextRecordingState, recordingFileName, recordingStartRefusal, recordingStopRefusal } from '../../src/shared/domain/recording';

const active = { planBlocked: false, billingExempt: false, deactivated: false };
const web = { whatsapp: false, telegram: false };

describe('starting a call', () => {
  it('is refused for a deactivated company, then a blocked plan without exemption', () => {
    expect(callStartRefusal({ company: { ...active, deactivated: true, planBlocked: true }, callees: [web] })?.message).toBe(M.companyDeactivated);
    expect(callStartRefusal({ company: { ...active, planBlocked: true }, callees: [web] })?.message).toBe(M.planBlocked);
    expect(callStartRefusal({ company: { ...active, planBlocked: true, billingExempt: true }, callees: [web] })).toBeNull();
  });

  it('is refused for WhatsApp customers, and for Telegram-only calls outside telemedicine', () => {
    expect(callStartRefusal({ company: active, callees: [web, { whatsapp: true, telegram: false }] })?.message).toBe(M.whatsappCustomer);
    const telegram = { whatsapp: false, telegram: true };
    expect(callStartRefusal({ company: active, callees: [telegram, telegram] })?.message).toBe(M.telegramOnly);
    expect(callStartRefusal({ company: active, callees: [telegram, web] })).toBeNull();
    expect(callStartRefusal({ company: active, callees: [telegram], telemedicine: true })).toBeNull();
  });

  it('needs somebody to call, except for a live room', () => {
    expect(callStartRefusal({ company: active, callees: [] })?.message).toBe(M.noOneToCall);
    expect(callStartRefusal({ company: active, callees: [], isLive: true })).toBeNull();
  });

  it('switches a screen-share call to voice on acceptance', () => {
    expect(typeOnAccept(3)).toBe(1);
    expect(typeOnAccept(2)).toBe(2);
  });
});

describe('participant flags', () => {
  it('go calling -> accepted + connecting -> connected, or rejected; leaving clears them', () => {
    const ringing = nextParticipantFlags(IDLE_FLAGS, 'ring')!;
    expect(ringing).toEqual({ ...IDLE_FLAGS, calling: true });
    const accepted = nextParticipantFlags(ringing, 'accept')!;
    expect(accepted).toEqual({ ...IDLE_FLAGS, accepted: true, connecting: true });
    const connected = nextParticipantFlags(accepted, 'connect')!;
    expect(connected).toEqual({ ...IDLE_FLAGS, accepted: true, connected: true });
    expect(nextParticipantFlags(connected, 'leave')).toEqual(IDLE_FLAGS);
    expect(nextParticipantFlags(ringing, 'reject')).toEqual({ ...IDLE_FLAGS, rejected: true });
  });

  it('refuse events that do not apply: accepting a ring that ended, connecting twice', () => {
    expect(nextParticipantFlags(IDLE_FLAGS, 'accept')).toBeNull();
    expect(nextParticipantFlags({ ...IDLE_FLAGS, rejected: true }, 'accept')).toBeNull();
    expect(nextParticipantFlags({ ...IDLE_FLAGS, connected: true }, 'connect')).toBeNull();
    expect(nextParticipantFlags({ ...IDLE_FLAGS, connected: true }, 'ring')).toBeNull();
    expect(nextParticipantFlags(IDLE_FLAGS, 'noAnswer')).toBeNull();
  });
});

describe('call lifecycle', () => {
  const fresh = { open: false, concluded: false, isLive: false };
  it('opens when someone other than the owner accepts or joins; a live room opens with its presenter', () => {
    expect(opensCall(fresh, { by: 'owner', kind: 'join' })).toBe(false);
    expect(opensCall(fresh, { by: 'other', kind: 'accept' })).toBe(true);
    expect(opensCall({ ...fresh, isLive: true }, { by: 'owner', kind: 'join' })).toBe(true);
    expect(opensCall({ ...fresh, concluded: true }, { by: 'other', kind: 'join' })).toBe(false);
  });

  it('closes an open call with fewer than 2 people, never a live or api call; an empty one always', () => {
    const open = { ...fresh, open: true };
    expect(shouldAutoClose(open, 1, 0)).toBe(true);
    expect(shouldAutoClose(open, 2, 0)).toBe(false);
    expect(shouldAutoClose({ ...open, isLive: true }, 1, 0)).toBe(false);
    expect(shouldAutoClose({ ...open, apiCall: true }, 1, 0)).toBe(false);
    // Still ringing someone, nobody accepted yet: the caller waits.
    expect(shouldAutoClose(fresh, 1, 1)).toBe(false);
    expect(shouldAutoClose(fresh, 0, 0)).toBe(true);
    expect(shouldAutoClose({ ...open, isLive: true }, 0, 0)).toBe(true);
    expect(shouldAutoClose({ ...open, concluded: true }, 0, 0)).toBe(false);
  });

  it('refuses joining a finished call or a missing one with the spec texts', () => {
    expect(joinRefusal(null)).toBe('Chamada/Live inexistente');
    expect(joinRefusal({ concluded: true, isLive: false })).toBe('Chamada de voz finalizada');
    expect(joinRefusal({ concluded: true, isLive: true })).toBe('Chamada/Live inexistente');
    expect(joinRefusal({ concluded: false, isLive: false })).toBeNull();
  });

  it('counts live viewers, never below 0', () => {
    expect(viewerCount(5, true)).toBe(4);
    expect(viewerCount(0, true)).toBe(0);
    expect(viewerCount(3, false)).toBe(3);
  });
});

describe('remote commands', () => {
  it('are the owner\'s, to someone else in the call; unmuting asks the target', () => {
    const base = { issuerId: 'o', ownerId: 'o', targetId: 't', targetPresent: true };
    expect(commandRefusal(base)).toBeNull();
    expect(commandRefusal({ ...base, issuerId: 'x' })).toBe(M.onlyOwner);
    expect(commandRefusal({ ...base, targetId: 'o' })).toBe(M.selfCommand);
    expect(commandRefusal({ ...base, targetPresent: false })).toBe(M.targetNotInCall);
    expect(['mute', 'unmute', 'muteVideo', 'unmuteVideo', 'kick'].filter((c) => commandAsksTarget(c as never))).toEqual(['unmute', 'unmuteVideo']);
  });

  it('are kept as command|issuerId', () => {
    expect(formatCmdExecutor('kick', 'u1')).toBe('kick|u1');
    expect(parseCmdExecutor('muteVideo|u2')).toEqual({ command: 'muteVideo', issuerId: 'u2' });
    expect(parseCmdExecutor('explode|u2')).toBeNull();
    expect(parseCmdExecutor('')).toBeNull();
  });
});

describe('time limit', () => {
  it('is 8 h in prod, 4 h in stage, 2 h elsewhere, with the spec notices', () => {
    expect(callTimeLimitMs('prod')).toBe(8 * 3_600_000);
    expect(callTimeLimitMs('stage')).toBe(4 * 3_600_000);
    expect(callTimeLimitMs('dev')).toBe(2 * 3_600_000);
    expect(CALL_TIME_LIMIT_MESSAGES).toEqual({ prod: 'Tempo limite de 8 horas', stage: 'Tempo limite de 4h esgotado', dev: 'Tempo limite de 2h esgotado' });
    const start = new Date('2026-01-01T10:00:00Z');
    expect(timeLeftMs('dev', start, new Date('2026-01-01T11:30:00Z'))).toBe(30 * 60_000);
    expect(timeLeftMs('dev', start, new Date('2026-01-01T13:00:00Z'))).toBe(0);
  });
});

describe('recording state machine', () => {
  const { idle, changing, recording } = RECORDING_STATE;
  it('starts 1 -> 2 -> 3 and stops 3 -> 2 -> 1; a failure goes back where it came from', () => {
    expect(nextRecordingState(idle, 'start')).toBe(changing);
    expect(nextRecordingState(changing, 'started')).toBe(recording);
    expect(nextRecordingState(changing, 'startFailed')).toBe(idle);
    expect(nextRecordingState(recording, 'stop')).toBe(changing);
    expect(nextRecordingState(changing, 'stopped')).toBe(idle);
    expect(nextRecordingState(changing, 'stopFailed')).toBe(recording);
  });

  it('refuses events out of order', () => {
    expect(nextRecordingState(recording, 'start')).toBeNull();
    expect(nextRecordingState(idle, 'stop')).toBeNull();
    expect(nextRecordingState(idle, 'started')).toBeNull();
  });

  it('lets the owner or an admin start, when the plan and the call allow it', () => {
    const ok = { isOwner: true, isAdmin: false, planRecorder: 1, canRec: true, state: idle } as const;
    expect(recordingStartRefusal(ok)).toBeNull();
    expect(recordingStartRefusal({ ...ok, isOwner: false, isAdmin: true })).toBeNull();
    expect(recordingStartRefusal({ ...ok, isOwner: false })).toBe(M.recordOwnerOrAdmin);
    expect(recordingStartRefusal({ ...ok, planRecorder: 0 })).toBe(M.recordingPlanOff);
    expect(recordingStartRefusal({ ...ok, isAdmin: true, planRecorder: 0 })).toBe(M.recordingPlanOffAdmin);
    expect(recordingStartRefusal({ ...ok, canRec: false })).toBe(M.recordingDisabled);
    expect(recordingStartRefusal({ ...ok, state: recording })).toBe(M.alreadyRecording);
    expect(recordingStartRefusal({ ...ok, state: changing })).toBe(M.recordingBusy);
  });

  it('lets only the recorder stop, and not once the room is gone', () => {
    const ok = { userId: 'u', recorderId: 'u', state: recording, roomExists: true } as const;
    expect(recordingStopRefusal(ok)).toBeNull();
    expect(recordingStopRefusal({ ...ok, userId: 'other' })).toBe('Você não pode finalizar esta gravação');
    expect(recordingStopRefusal({ ...ok, roomExists: false })).toBe('Sala não encontrada. Você não pode finalizar esta gravação');
    expect(recordingStopRefusal({ ...ok, state: idle })).toBe(M.notRecording);
  });

  it('names files after the start time', () => {
    expect(recordingFileName(new Date('2026-03-04T05:06:07.890Z'), 'webm')).toBe('recording-20260304-050607.webm');
  });
});

describe('billing', () => {
  it('charges seconds / 60 x price per minute, to 4 places, rounding half up', () => {
    expect(chargeFor(30, '0.10')).toBe('0.0500');
    expect(chargeFor(30, '1')).toBe('0.5000');
    expect(chargeFor(7, '0.0100')).toBe('0.0012'); // 0.0011666...
    expect(chargeFor(3, '0.0001')).toBe('0.0000'); // 0.000005 -> rounds to 0.0000 (half of a unit is 0.00005)
    expect(chargeFor(0, '5')).toBe('0.0000');
    expect(() => chargeFor(1.5, '1')).toThrow();
  });

  it('converts amounts without float error and compares balances', () => {
    expect(toUnits('12.5')).toBe(125000n);
    expect(fromUnits(toUnits('0.1') + toUnits('0.2'))).toBe('0.3000');
    expect(fromUnits(-5n)).toBe('-0.0005');
    expect(covers('1.0000', '1')).toBe(true);
    expect(covers('0.9999', '1')).toBe(false);
    expect(() => toUnits('abc')).toThrow();
  });

  it('tags a participant by what they send: share, else video, else voice', () => {
    expect(participantTag({ screen: true, video: true })).toBe('share');
    expect(participantTag({ screen: false, video: true })).toBe('video');
    expect(participantTag({ screen: false, video: false })).toBe('voice');
  });
});

describe('camera grid', () => {
  it('is as square as possible, and 4 x 4 pages above 12 videos', () => {
    expect(gridLayout(1)).toMatchObject({ columns: 1, rows: 1 });
    expect(gridLayout(2)).toMatchObject({ columns: 2, rows: 1 });
    expect(gridLayout(5)).toMatchObject({ columns: 3, rows: 2 });
    expect(gridLayout(12)).toMatchObject({ columns: 4, rows: 3, pages: 1 });
    expect(gridLayout(13)).toMatchObject({ columns: 4, rows: 4, perPage: 16, pages: 1 });
    expect(gridLayout(40)).toMatchObject({ columns: 4, rows: 4, pages: 3 });
    expect(gridLayout(5, { narrow: true })).toMatchObject({ columns: 2, rows: 3 });
  });

  it('picks the loudest speaker above the threshold', () => {
    expect(activeSpeaker(new Map([['a', 3], ['b', 5]]), 5)).toBeNull();
    expect(activeSpeaker(new Map([['a', 30], ['b', 12]]), 5)).toBe('a');
  });
});
