/**
 * Telemedicine rules (spec 3 Doctor enrolment, 4, 5, calls-errors-constants 4, 7.8 and 8): the
 * enrolment's id and states, the 27 Brazilian state codes, who a doctor serves, and the wait a
 * patient is shown.
 */

/** The spec's error texts, verbatim (calls-errors-constants §8). */
export const ENROLMENT_ERRORS = {
  alreadyInvite: 'Already invite',
  alreadyExists: 'Already exists',
  missingStatus: 'MISSING FIELD: STATUS',
} as const;

/** The 27 Brazilian federative units (AC to TO). */
export const BRAZILIAN_UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;
export type Uf = (typeof BRAZILIAN_UFS)[number];

export const ENROLMENT_STATUSES = ['WAITING_APROVATION', 'APPROVED', 'REFUSED', 'BLOCKED'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

/** A CRM number: digits only, as the councils issue them. */
export const CRM_PATTERN = /^\d{1,10}$/;

/** doutorglobal/inscricoes/{crm|uf}: one registration, one enrolment on the whole platform. */
export const enrolmentId = (crm: string, uf: Uf): string => `${crm}|${uf}`;

/**
 * The moves an admin may make. Creation is WAITING_APROVATION (never set by update); a refused
 * enrolment may still be approved later, a blocked doctor unblocked (back to APPROVED).
 */
const MOVES: Readonly<Record<EnrolmentStatus, readonly EnrolmentStatus[]>> = {
  WAITING_APROVATION: ['APPROVED', 'REFUSED', 'BLOCKED'],
  APPROVED: ['BLOCKED'],
  REFUSED: ['APPROVED', 'BLOCKED'],
  BLOCKED: ['APPROVED'],
};

export type StatusUpdate =
  | { ok: true; data: { status: EnrolmentStatus; lastUpdate: Date; blockedAt?: Date | null } }
  | { ok: false; reason: 'missingStatus' | 'notAllowed' };

/** An update: every one sets lastUpdate; BLOCKED sets blockedAt, leaving BLOCKED clears it. */
export function statusUpdate(from: EnrolmentStatus, to: EnrolmentStatus | undefined | null, now: Date): StatusUpdate {
  if (!to) return { ok: false, reason: 'missingStatus' };
  if (!MOVES[from].includes(to)) return { ok: false, reason: 'notAllowed' };
  return { ok: true, data: { status: to, lastUpdate: now, ...(to === 'BLOCKED' ? { blockedAt: now } : from === 'BLOCKED' ? { blockedAt: null } : {}) } };
}

export const statusMoves = (from: EnrolmentStatus): readonly EnrolmentStatus[] => MOVES[from];

/** Consultation states: waiting in the doctors' queue, with a doctor, ended, or left by the patient. */
export const CONSULTATION_STATUS = { waiting: 'WAITING', inProgress: 'IN_PROGRESS', ended: 'ENDED', left: 'LEFT' } as const;

/** What a doctor's consultation time is assumed to be before any consultation ended. */
export const DEFAULT_CONSULTATION_MS = 10 * 60_000;

/**
 * The wait shown to a patient at `position` (1 = next): the whole consultations ahead of them
 * shared among the doctors online, with the average length of the recent ones. No doctor online:
 * unknown (null), not a made-up figure.
 */
export function estimatedWaitMs(position: number, doctorsOnline: number, averageConsultationMs: number | null): number | null {
  if (doctorsOnline <= 0) return null;
  const each = averageConsultationMs && averageConsultationMs > 0 ? averageConsultationMs : DEFAULT_CONSULTATION_MS;
  return Math.ceil((position - 1) / doctorsOnline) * each;
}

/** Which companies' queues a doctor serves: their own, and as a global doctor every one that opted in. */
export function servedCompanyIds(
  doctor: { companyId: string; global: boolean },
  companies: readonly { companyId: string; enabled: boolean; acceptsGlobalDoctors: boolean }[],
): string[] {
  return companies.filter((c) => c.enabled && (c.companyId === doctor.companyId || (doctor.global && c.acceptsGlobalDoctors))).map((c) => c.companyId);
}

/** The route guard (spec 2): where a refusal sends a global doctor — home instead of /{emp}/block. */
export function globalDoctorTarget(target: string | null, domain: string, globalDoctor: boolean): string | null {
  return globalDoctor && target === `/${domain}/block` ? '/' : target;
}
