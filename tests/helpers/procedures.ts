import type { AnyRouter } from '@trpc/server';
import type { ProcedureLevel } from '../../src/server/trpc';

export interface ProcedureInfo {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  level: ProcedureLevel | undefined;
  inputKeys: string[];
}

/** Every procedure of a router, flattened, with its level and the top-level keys of its input. */
export function listProcedures(router: AnyRouter): ProcedureInfo[] {
  return Object.entries(router._def.procedures as Record<string, any>).map(([path, proc]) => {
    const def = proc._def;
    const inputKeys = new Set<string>();
    for (const schema of def.inputs ?? []) {
      const shape = schema?.shape ?? schema?._zod?.def?.shape;
      if (shape) for (const key of Object.keys(shape)) inputKeys.add(key);
    }
    return { path, type: def.type, level: def.meta?.level, inputKeys: [...inputKeys] };
  });
}

/**
 * The only procedures that name a company in their input yet are meant for people who are NOT its
 * members, each with the reason. Adding one is a security decision: it skips the isolation check,
 * so its service must read nothing of the company beyond what the reason says.
 */
export const NON_MEMBER_COMPANY_PROCEDURES: Readonly<Record<string, string>> = {
  'company.checkDomain': 'public: is a domain free to register? answers only available or "Domain unavailable"',
  'company.register': 'authed: creates a company under a free domain; nobody is a member of it yet',
  'company.join': 'authed: asks to join; the caller is by definition not a member yet (answers only their own state)',
  'customer.companyPage': 'public: the company public page (/{emp}): name, bio, image, social networks, rating, its public queues',
  'customer.contactUsForm': 'public: the Contact Us form (/{emp}/faleconosco) as the company configured it',
  'customer.request': 'participant: a customer or anonymous visitor asks for service in a public queue; writes only their own request',
  'customer.contactUs': 'participant: a customer or anonymous visitor sends the Contact Us form; writes only their own ticket',
  'customer.openServices': "participant: the caller's own open requests in that company (as its customer), nothing else",
  'telemedicine.offered': 'public: whether the company offers consultations (its public page links to them), nothing else',
  'telemedicine.enrol': 'participant: a user enrols as a doctor with a company (not its member yet); writes only their own enrolment',
  'telemedicine.request': "participant: a patient asks a telemedicine company for a consultation; writes only the patient's own consultation",
  'channels.whatsappEntry': 'public: the WhatsApp number a company publishes for its customers (/{emp}/whatsapp), nothing else',
  'booking.attendants': 'public: the names of the members who take appointments on the public page (/{emp}), nothing else',
  'booking.slots': "public: one bookable attendant's free slots (start and end only, no customer or booking data)",
  'booking.book': "participant: a visitor or customer books a free slot for himself; writes only his own appointment",
  'booking.queues': 'public: the names of the queues that take appointments on the public page (/{emp}), nothing else',
  'booking.queueSlots': "public: one bookable queue's free slots (start and end only, no customer or booking data)",
  'booking.bookQueue': "participant: a visitor or customer books a queue's free slot for himself; writes only his own appointment",
  'booking.byLink': "public: the appointment a signed cancel link names (HMAC of its id): time, attendant's name, the customer's own name",
  'booking.cancelByLink': 'public: cancels only the appointment its signed link names, before it starts',
  'booking.rescheduleByLink': 'public: moves only the appointment its signed link names to another free slot, before it starts',
  'feeds.publicPost': 'public: one feed post its author published publicly (/{emp}/feeds/{feedId}); any other post is "Post not found"',
};
const allowedForNonMembers = (p: ProcedureInfo) => Object.hasOwn(NON_MEMBER_COMPANY_PROCEDURES, p.path);

export const isCompanyScoped = (p: ProcedureInfo) =>
  !allowedForNonMembers(p) &&
  (p.level === 'member' || p.level === 'admin' || p.inputKeys.includes('domain') || p.inputKeys.includes('companyId'));

export interface OutsiderResult {
  code?: string;
  message?: string;
}

/**
 * The isolation rule, as a function so it can be proven to catch a violation: every company-scoped
 * procedure, called by a signed-in admin of ANOTHER company with the victim's domain, answers
 * FORBIDDEN — before it reads or validates anything else. Returns the violations.
 */
export async function findIsolationViolations(
  procedures: ProcedureInfo[],
  callAsOutsider: (p: ProcedureInfo) => Promise<OutsiderResult>,
): Promise<string[]> {
  const violations: string[] = [];
  for (const p of procedures) {
    if (!p.level) violations.push(`${p.path}: has no procedure level (build it on public/authed/member/admin)`);
    if (
      !allowedForNonMembers(p) &&
      (p.inputKeys.includes('domain') || p.inputKeys.includes('companyId')) &&
      p.level !== 'member' &&
      p.level !== 'admin'
    ) {
      violations.push(`${p.path}: takes a company in its input but is "${p.level}", not member or admin`);
    }
    if (!isCompanyScoped(p) || p.type === 'subscription') continue;
    const result = await callAsOutsider(p);
    if (result.code !== 'FORBIDDEN') {
      violations.push(`${p.path}: an outsider got ${result.code ?? 'success'} (${result.message ?? 'data'}) instead of FORBIDDEN`);
    }
  }
  return violations;
}

/** Input keys that name something a person reaches through their own participation in a company's conversations. */
export const PARTICIPATION_KEYS = ['conversationId', 'callId', 'formId', 'recordingId', 'budgetId', 'saleId'] as const;

/**
 * Every procedure that takes a conversation, call, filled form or call recording must ask "may this
 * person act for that company now": participant level (or member/admin, which ask it by domain).
 * A procedure on public or authed with such an input would let a blocked member through.
 */
export function participantLevelViolations(procedures: ProcedureInfo[]): string[] {
  return procedures
    .filter((p) => PARTICIPATION_KEYS.some((k) => p.inputKeys.includes(k)))
    .filter((p) => p.level !== 'participant' && p.level !== 'member' && p.level !== 'admin')
    .map((p) => `${p.path}: reaches a company through ${PARTICIPATION_KEYS.filter((k) => p.inputKeys.includes(k)).join(', ')} but is "${p.level}"`);
}
