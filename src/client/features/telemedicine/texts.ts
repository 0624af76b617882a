import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import { ENROLMENT_ERRORS as E, type EnrolmentStatus } from '../../../shared/domain/telemedicine';
import { TELEMEDICINE_MESSAGES as M } from '../../../shared/schemas/telemedicine';
import { translateServerMessage } from '../../guard/serverMessages';

/** The server's telemedicine texts in the user's language (the spec's three stay as the spec says them). */
const SERVER_TEXTS: Record<string, MessageDescriptor> = {
  [E.alreadyInvite]: msg`Already invite`,
  [E.alreadyExists]: msg`Already exists`,
  [E.missingStatus]: msg`MISSING FIELD: STATUS`,
  [M.notTelemedicine]: msg`This company does not offer consultations`,
  [M.enrolmentNotFound]: msg`Enrolment not found`,
  [M.notAllowedMove]: msg`This enrolment cannot change to that status`,
  [M.notDoctor]: msg`Only an approved doctor can do this`,
  [M.offline]: msg`Go online to take patients`,
  [M.busy]: msg`Finish your current consultation first`,
  [M.nobodyWaiting]: msg`No patient is waiting`,
  [M.consultationNotFound]: msg`Consultation not found`,
  [M.notYourConsultation]: msg`Only the doctor of this consultation can do this`,
  [M.notInProgress]: msg`This consultation is not in progress`,
  [M.notWaiting]: msg`This consultation is no longer waiting`,
  [M.noDocument]: msg`No document was sent with this enrolment`,
  [M.documentLocked]: msg`The document can only be sent while the enrolment waits for approval`,
  [M.notPatient]: msg`Only the patient can do this`,
};

export function useTeleText() {
  const { i18n } = useLingui();
  return useCallback((message: string) => (SERVER_TEXTS[message] ? i18n._(SERVER_TEXTS[message]) : translateServerMessage(i18n, message)), [i18n]);
}

export const STATUS_LABELS: Record<EnrolmentStatus, MessageDescriptor> = {
  WAITING_APROVATION: msg`Waiting for approval`,
  APPROVED: msg`Approved`,
  REFUSED: msg`Refused`,
  BLOCKED: msg`Blocked`,
};

export const STATUS_TONES = { WAITING_APROVATION: 'warn', APPROVED: 'ok', REFUSED: 'neutral', BLOCKED: 'danger' } as const;

/** What the admin's button says for each move. */
export const MOVE_LABELS: Record<EnrolmentStatus, MessageDescriptor> = {
  WAITING_APROVATION: msg`Waiting for approval`,
  APPROVED: msg`Approve`,
  REFUSED: msg`Refuse`,
  BLOCKED: msg`Block`,
};
