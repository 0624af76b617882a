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

export const isCompanyScoped = (p: ProcedureInfo) =>
  p.level === 'member' || p.level === 'admin' || p.inputKeys.includes('domain') || p.inputKeys.includes('companyId');

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
    if ((p.inputKeys.includes('domain') || p.inputKeys.includes('companyId')) && p.level !== 'member' && p.level !== 'admin') {
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
