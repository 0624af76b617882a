import {
  addParticipantsInput,
  conversationInput,
  messagesInput,
  removeParticipantInput,
  sendInput,
  startDirectInput,
  startTeamInput,
  watermarkInput,
} from '../../../shared/schemas/chat';
import { memberProcedure, router } from '../../trpc';
import * as chat from './service';

type Ctx = Parameters<Parameters<typeof memberProcedure.query>[0]>[0]['ctx'];
const chatContext = (ctx: Ctx): chat.ChatContext => ({ ...ctx, userId: ctx.user.id });

export const chatRouter = router({
  recents: memberProcedure.query(({ ctx }) => chat.listRecents(chatContext(ctx))),
  startDirect: memberProcedure.input(startDirectInput).mutation(({ ctx, input }) => chat.startDirect(chatContext(ctx), input.userId, input.force)),
  startTeam: memberProcedure.input(startTeamInput).mutation(({ ctx, input }) => chat.startTeam(chatContext(ctx), input)),
  messages: memberProcedure.input(messagesInput).query(({ ctx, input }) => chat.listMessages(chatContext(ctx), input)),
  send: memberProcedure.input(sendInput).mutation(({ ctx, input }) => chat.sendMessage(chatContext(ctx), input)),
  markDelivered: memberProcedure.input(watermarkInput).mutation(({ ctx, input }) => chat.advanceWatermark(chatContext(ctx), input.conversationId, 'delivered', input.uptoSeq)),
  markRead: memberProcedure.input(watermarkInput).mutation(({ ctx, input }) => chat.advanceWatermark(chatContext(ctx), input.conversationId, 'read', input.uptoSeq)),
  addParticipants: memberProcedure.input(addParticipantsInput).mutation(({ ctx, input }) => chat.addParticipants(chatContext(ctx), input.conversationId, input.userIds)),
  removeParticipant: memberProcedure.input(removeParticipantInput).mutation(({ ctx, input }) => chat.removeParticipant(chatContext(ctx), input.conversationId, input.userId)),
  leave: memberProcedure.input(conversationInput).mutation(({ ctx, input }) => chat.leaveConversation(chatContext(ctx), input.conversationId)),
});

