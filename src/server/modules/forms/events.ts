/**
 * What the forms module pushes, after its transaction committed. Templates go to the company's
 * active members (each refetches the listing and sees only what it may); losing a template goes
 * to everyone who could have it open, the creator of a now-private template excepted.
 */
import type { TemplateLoss } from '../../../shared/domain/forms-access';
import type { Db } from '../../db/client';
import type { Realtime } from '../../realtime';
import { conversationForCall } from '../chat/service';

export interface PushDeps {
  db: Db;
  realtime: Realtime;
}

async function activeMemberIds(db: Db, companyId: string): Promise<string[]> {
  const rows = await db.member.findMany({ where: { companyId, inviteAccepted: true, blocked: false, removed: false }, select: { userId: true } });
  return rows.map((r) => r.userId);
}

/** A template was added, changed or removed: the listings of the company refetch. */
export async function pushTemplateChanged(deps: PushDeps, company: { id: string; domain: string }, templateId: string) {
  deps.realtime.toUsers(await activeMemberIds(deps.db, company.id), 'forms:changed', { domain: company.domain, templateId });
}

/**
 * A template was made private or deleted: the members, and the customers of conversations where a
 * form of it waits to be filled, are told; whoever has it open shows the spec's sentence.
 */
export async function pushTemplateLost(deps: PushDeps, company: { id: string; domain: string }, template: { id: string; creatorId: string | null }, reason: TemplateLoss) {
  const members = await activeMemberIds(deps.db, company.id);
  const waiting = await deps.db.filledForm.findMany({
    where: { templateId: template.id, status: 'draft', filler: 'customer', conversationId: { not: null } },
    distinct: ['conversationId'],
    select: { conversationId: true },
  });
  const told = new Set(members);
  for (const f of waiting) for (const userId of await peopleIn(deps, company.id, f.conversationId!)) told.add(userId);
  if (reason === 'private' && template.creatorId) told.delete(template.creatorId);
  deps.realtime.toUsers(told, 'forms:lost', { domain: company.domain, templateId: template.id, reason });
  deps.realtime.toUsers(members, 'forms:changed', { domain: company.domain, templateId: template.id });
}

/** Who is in a conversation now, asked of the chat. */
async function peopleIn(deps: PushDeps, companyId: string, conversationId: string): Promise<string[]> {
  return (await conversationForCall(deps.db, companyId, conversationId))?.participants.map((p) => p.userId) ?? [];
}

/** A filled form changed: everyone in its conversation refetches an open copy. */
export async function pushFormChanged(deps: PushDeps, form: { id: string; companyId: string; conversationId: string | null }, status: 'draft' | 'submitted' | 'discarded') {
  if (!form.conversationId) return;
  deps.realtime.toUsers(
    await peopleIn(deps, form.companyId, form.conversationId),
    'forms:form',
    { formId: form.id, conversationId: form.conversationId, status },
  );
}
