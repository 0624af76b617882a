import { TRPCError } from '@trpc/server';
import { conversationForCall } from '../chat/service';
import { listRecordings } from './recording';
import { assertCanSee, isConversationParticipant, loadState, type CallsDeps } from './service';

/**
 * The call as its screen and the meeting page show it: the state, its recordings, and the join
 * link for the company's own members in the call (who may share it with customers and visitors).
 */
export async function describeCall(deps: CallsDeps, userId: string, callId: string) {
  const { call, participant } = await assertCanSee(deps, userId, callId);
  const member = await deps.db.member.findUnique({ where: { companyId_userId: { companyId: call.companyId, userId } } });
  const mayShare = !!participant && !!member && member.inviteAccepted && !member.removed && !member.blocked;
  return {
    state: (await loadState(deps.db, callId))!,
    link: mayShare ? `/${call.company.domain}/call/${call.id}/${call.linkKey}` : null,
    hostInstance: call.hostInstance,
    recordings: await listRecordings(deps, userId, call),
  };
}

/** A conversation's calls, newest first, with their recordings: the meeting page's history. */
export async function conversationCalls(deps: CallsDeps, actor: { userId: string; companyId: string }, conversationId: string) {
  const found = await conversationForCall(deps.db, actor.companyId, conversationId);
  const conversation = found && { id: found.id, title: found.title, type: found.type };
  if (!conversation) throw new TRPCError({ code: 'NOT_FOUND', message: 'Conversation not found' });
  if (!(await isConversationParticipant(deps.db, conversationId, actor.userId))) throw new TRPCError({ code: 'FORBIDDEN', message: 'You are not in this conversation' });
  const calls = await deps.db.call.findMany({ where: { conversationId }, orderBy: { createdAt: 'desc' }, take: 20, select: { id: true, conversationId: true } });
  return {
    conversation,
    calls: await Promise.all(
      calls.map(async (call) => ({ state: (await loadState(deps.db, call.id))!, recordings: await listRecordings(deps, actor.userId, call) })),
    ),
  };
}
