import { CONVERSATION_STATE } from '../constants';

/**
 * The life of a service request (atendimento), spec 4 "Conversation state":
 * 0 Aguardando Atendimento -> 1 Atendendo <-> 2 Aguardando Terceiro -> 9999 Concluído, and back.
 * Who may move it is decided here, once; the service module applies the move in a transaction.
 */
export type ServiceState = (typeof CONVERSATION_STATE)[keyof typeof CONVERSATION_STATE];
export const SERVICE_STATES: readonly ServiceState[] = [0, 1, 2, 9999];

/**
 * What the caller is to this request. A person can be several at once (an admin who is also
 * responsible). `attendant` is any active member of the company; `customer` the person who asked.
 */
export type ServiceRole = 'customer' | 'attendant' | 'responsible' | 'admin';

export type ServiceAction =
  | 'take' // an attendant takes it from the queue
  | 'leaveQueue' // the customer gives up waiting
  | 'wait' // waiting for a third party (2)
  | 'resume' // back to serving (1)
  | 'transfer' // to another queue or attendant: back into the queue
  | 'conclude'
  | 'reopen';

interface Rule {
  from: readonly ServiceState[];
  to: ServiceState;
  by: readonly ServiceRole[];
}

const S = CONVERSATION_STATE;
export const SERVICE_TRANSITIONS: Readonly<Record<ServiceAction, Rule>> = {
  take: { from: [S.waiting], to: S.serving, by: ['attendant'] },
  leaveQueue: { from: [S.waiting], to: S.concluded, by: ['customer'] },
  wait: { from: [S.serving], to: S.waitingThirdParty, by: ['responsible'] },
  resume: { from: [S.waitingThirdParty], to: S.serving, by: ['responsible'] },
  transfer: { from: [S.serving, S.waitingThirdParty], to: S.waiting, by: ['responsible', 'admin'] },
  conclude: { from: [S.serving, S.waitingThirdParty], to: S.concluded, by: ['responsible', 'admin'] },
  // Spec: only the owner of an already taken request may reopen it.
  reopen: { from: [S.concluded], to: S.serving, by: ['responsible'] },
};

export type TransitionRefusal = 'wrongState' | 'notAllowed' | 'neverTaken';
export type TransitionResult = { ok: true; to: ServiceState } | { ok: false; reason: TransitionRefusal };

export function serviceTransition(
  action: ServiceAction,
  current: { state: number; taken: boolean },
  roles: readonly ServiceRole[],
): TransitionResult {
  const rule = SERVICE_TRANSITIONS[action];
  if (!rule.by.some((r) => roles.includes(r))) return { ok: false, reason: 'notAllowed' };
  if (!rule.from.includes(current.state as ServiceState)) return { ok: false, reason: 'wrongState' };
  if (action === 'reopen' && !current.taken) return { ok: false, reason: 'neverTaken' };
  return { ok: true, to: rule.to };
}

export const isOpenState = (state: number) => state !== S.concluded;
