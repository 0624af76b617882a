import { CONVERSATION_STATE } from '../constants';

/**
 * SLA of a request (spec 3 and 4): an attendant proposes a conclusion date (propostaSLA: aberta with
 * offerDate); the customer answers, which closes the proposal and records the choice
 * (escolhaProposta) on the proposal message; accepting confirms the date (dataConclusaoSLA.aceito).
 */
export interface SlaFields {
  state: number;
  slaProposalOpen: boolean; // propostaSLA.aberta
  slaOfferDate: Date | string | null; // propostaSLA.offerDate
  slaDueAt: Date | string | null; // dataConclusaoSLA.dateGMT
  slaAccepted: boolean; // dataConclusaoSLA.aceito
}

export type SlaChoice = 'accepted' | 'declined';

/** Where a proposal stands: none yet, waiting for the customer, or answered. */
export type SlaProposalState = 'none' | 'open' | 'accepted' | 'declined';

export function slaProposalState(c: Pick<SlaFields, 'slaProposalOpen' | 'slaOfferDate' | 'slaAccepted'>): SlaProposalState {
  if (c.slaProposalOpen) return 'open';
  if (c.slaAccepted) return 'accepted';
  return c.slaOfferDate ? 'declined' : 'none';
}

export type SlaProposalRefusal = 'concluded' | 'alreadyOpen' | 'inThePast';

/** Whether a new date may be proposed now. */
export function canProposeSla(c: Pick<SlaFields, 'state' | 'slaProposalOpen'>, offerDate: Date, now: Date): SlaProposalRefusal | null {
  if (c.state === CONVERSATION_STATE.concluded) return 'concluded';
  if (c.slaProposalOpen) return 'alreadyOpen';
  if (offerDate.getTime() <= now.getTime()) return 'inThePast';
  return null;
}

/** What an answer changes: the proposal closes; accepting makes the offer the agreed date. */
export function answerSla(c: Pick<SlaFields, 'slaOfferDate' | 'slaDueAt' | 'slaAccepted'>, choice: SlaChoice) {
  return choice === 'accepted'
    ? { slaProposalOpen: false, slaAccepted: true, slaDueAt: c.slaOfferDate }
    : { slaProposalOpen: false, slaAccepted: c.slaAccepted, slaDueAt: c.slaDueAt };
}

/** The columns of /i/kanbansla, in board order. */
export const SLA_COLUMNS = ['noDate', 'proposal', 'onTime', 'dueToday', 'overdue', 'concluded'] as const;
export type SlaColumn = (typeof SLA_COLUMNS)[number];

const DAY_MS = 24 * 3_600_000;

/**
 * The board column of a request: concluded ones apart; a proposal waiting for the customer; then
 * by the agreed (or default) due date: overdue, due within a day, on time; or no date at all.
 */
export function slaColumn(c: SlaFields, now: Date): SlaColumn {
  if (c.state === CONVERSATION_STATE.concluded) return 'concluded';
  if (c.slaProposalOpen) return 'proposal';
  if (!c.slaDueAt) return 'noDate';
  const left = new Date(c.slaDueAt).getTime() - now.getTime();
  if (left < 0) return 'overdue';
  if (left <= DAY_MS) return 'dueToday';
  return 'onTime';
}

/** The default due date of a request entering an SLA queue: SLAtempoAtendimento days later. */
export function defaultSlaDueAt(from: Date, serviceDays: number): Date {
  return new Date(from.getTime() + Math.max(1, serviceDays) * DAY_MS);
}
