/**
 * Saved replies (canned responses), every procedure takes `domain`:
 *   replies.list q {} -> [{id, shortcut, title, text, updatedAt}]: any active member (the composer)
 *   replies.save m {replyId?, shortcut, title, text}: admins;  replies.remove m {replyId}: admins
 */
import { replyIdInput, replySaveInput } from '../../../shared/schemas/replies';
import { adminProcedure, memberProcedure, router } from '../../trpc';
import * as replies from './service';

export const repliesRouter = router({
  list: memberProcedure.query(({ ctx }) => replies.listReplies(ctx)),
  save: adminProcedure.input(replySaveInput).mutation(({ ctx, input }) => replies.saveReply(ctx, input)),
  remove: adminProcedure.input(replyIdInput).mutation(({ ctx, input }) => replies.removeReply(ctx, input.replyId)),
});
