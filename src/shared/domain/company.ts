import { BYTES_PER_GB, DEFAULT_PLAN } from '../constants';

/**
 * Company-level rules: which domains can be registered, when the plan stops work, storage plan
 * size. Pure, so the chat and call modules apply exactly the same rule as the company page.
 */

/**
 * Domains that would shadow a path the server or the client owns (`/{emp}` is a top-level route),
 * so a company named "files" would never see its public page. Keep in step with SERVER_PATHS in
 * src/server/http.ts.
 */
export const RESERVED_DOMAINS: ReadonlySet<string> = new Set([
  'trpc', 'files', 'uploads', 'avatars', 'healthz', 'metrics', 'assets', 'dev', 'api', 'socketio',
  'companies', 'convite', 'login', 'admin', 'root', 'www', 'static', 'public', 'forms',
]);

export const isReservedDomain = (domain: string) => RESERVED_DOMAINS.has(domain.toLowerCase());

/** Company names are unique regardless of case and surrounding spaces ("Acme" = " ACME "). */
export const companyNameKey = (name: string) => name.trim().toLowerCase();

export interface CompanyWorkState {
  planBlocked: boolean; // planoBloqueado
  billingExempt: boolean; // isentarCobranca
  deactivated: boolean; // desativada
}

export type WorkBlock = { reason: 'planBlocked' | 'deactivated' };

/**
 * A blocked plan (planoBloqueado without isentarCobranca) or a deactivated company blocks sending
 * messages and starting chats (spec 5). Deactivation is reported first: it is the stronger state.
 */
export function companyBlocksWork(c: CompanyWorkState): WorkBlock | null {
  if (c.deactivated) return { reason: 'deactivated' };
  if (c.planBlocked && !c.billingExempt) return { reason: 'planBlocked' };
  return null;
}

/** While work is blocked only admins continue ('somenteAdmins', spec 6). */
export function memberMayWork(c: CompanyWorkState, member: { isAdmin: boolean }): boolean {
  return companyBlocksWork(c) === null || member.isAdmin;
}

/** Plan GB = bytes / 1073741824 rounded up, at least 1 (spec constants). */
export function storagePlanGb(bytes: number | bigint): number {
  const n = typeof bytes === 'bigint' ? Number(bytes) : bytes;
  if (!Number.isFinite(n) || n <= 0) return 1;
  return Math.max(1, Math.ceil(n / BYTES_PER_GB));
}

/** Empty social-network values are dropped on save (spec 5). */
export function cleanSocialNetworks(input: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) {
    const value = v?.trim();
    if (value) out[k] = value;
  }
  return out;
}

/** configuracoes.allowCallRecording: calls may be recorded unless an admin turned it off. */
export function allowsCallRecording(settings: unknown): boolean {
  return (settings as { allowCallRecording?: unknown } | null)?.allowCallRecording !== false;
}

/** A plan value; a plan that does not mention a feature has the default plan's value for it. */
export function planValue(plan: unknown, key: keyof typeof DEFAULT_PLAN): number {
  const value = (plan as Record<string, unknown> | null)?.[key];
  return typeof value === 'number' ? value : DEFAULT_PLAN[key];
}

/**
 * The plan flags of the spec that switch a feature on or off (spec 3, Company plan). `members`
 * switches taking in members (approving, inviting; on by default like calls and forms); `size` is
 * the storage quota (Company.storageBytes), not a switch, and `ellevo` / `zabbix` name
 * integrations this product does not have. A feature is on when its value is above 0.
 */
export const PLAN_FEATURES = [
  'members', 'calls', 'voipRecorder', 'transc', 'whatsapp', 'intmail', 'calendar', 'forms', 'kanban', 'timesheet',
  'sla', 'translate', 'anotation', 'invent', 'change', 'cmdb',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const planIncludes = (plan: unknown, feature: PlanFeature) => planValue(plan, feature) > 0;

export function planFeatures(plan: unknown): Record<PlanFeature, boolean> {
  return Object.fromEntries(PLAN_FEATURES.map((f) => [f, planIncludes(plan, f)])) as Record<PlanFeature, boolean>;
}

/** What the server answers when the plan does not include a feature (the client translates it). */
export const PLAN_FEATURE_MESSAGES: Record<PlanFeature, string> = {
  members: 'Adding members is not included in your plan. Ask an administrator to enable it.',
  calls: 'Calls are not included in your plan. Ask an administrator to enable them.',
  voipRecorder: 'Serviço Desabilitado - Procure o administrator para habilitar o recurso de gravação das chamadas',
  transc: 'Subtitles are not included in your plan. Ask an administrator to enable them.',
  whatsapp: 'WhatsApp is not included in your plan. Ask an administrator to enable it.',
  intmail: 'The e-mail integration is not included in your plan. Ask an administrator to enable it.',
  calendar: 'The calendar is not included in your plan. Ask an administrator to enable it.',
  forms: 'Forms are not included in your plan. Ask an administrator to enable them.',
  sla: 'SLA is not included in your plan. Ask an administrator to enable it.',
  kanban: 'The SLA board is not included in your plan. Ask an administrator to enable it.',
  timesheet: 'The timesheet is not included in your plan. Ask an administrator to enable it.',
  translate: 'Translation is not included in your plan. Ask an administrator to enable it.',
  anotation: 'Annotations are not included in your plan. Ask an administrator to enable them.',
  invent: 'Stock control is not included in your plan. Ask an administrator to enable it.',
  change: 'Change management is not included in your plan. Ask an administrator to enable it.',
  cmdb: 'The configuration database is not included in your plan. Ask an administrator to enable it.',
};
