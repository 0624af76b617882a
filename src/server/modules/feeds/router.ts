/**
 * Feeds (/i/recent/feeds/{audience}, /i/recent/feed/{id}, /{emp}/feeds/{id}). Every procedure
 * takes `domain`, the company the member is working in; publicPost is for anyone.
 *   feeds.list q {audience?, cursor?, limit?} -> {items, nextCursor}     newest first
 *   feeds.post q {postId} -> post with comments
 *   feeds.unread q -> {count, lastSeenAt};  feeds.markSeen m -> {lastSeenAt}
 *   feeds.create m {text, audience, isPublic, attachmentIds} -> {id}
 *   feeds.edit / feeds.remove / feeds.comment / feeds.editComment / feeds.removeComment / feeds.react m
 *   feeds.publicPost q {domain, postId}    (public: a post published publicly)
 *   PUT /uploads/feed/:domain?name=  raw file body -> {id, name, size, mime, isImage}
 * Socket: feed:changed {postId, change, authorId?} to everyone who sees the post; feed:seen to my tabs.
 */
import { z } from 'zod';
import {
  feedCommentEditInput,
  feedCommentIdInput,
  feedCommentInput,
  feedCreateInput,
  feedEditInput,
  feedListInput,
  feedPostInput,
  feedReactInput,
  publicPostInput,
} from '../../../shared/schemas/feeds';
import { domainSchema } from '../../../shared/schemas/company';
import { memberProcedure, publicProcedure, router } from '../../trpc';
import * as feeds from './service';

const inCompany = z.object({ domain: domainSchema });

export const feedsRouter = router({
  list: memberProcedure.input(feedListInput).query(({ ctx, input }) => feeds.listFeed(ctx, input)),
  post: memberProcedure.input(feedPostInput).query(({ ctx, input }) => feeds.getPost(ctx, input.postId)),
  unread: memberProcedure.input(inCompany).query(({ ctx }) => feeds.unreadCount(ctx)),
  markSeen: memberProcedure.input(inCompany).mutation(({ ctx }) => feeds.markSeen(ctx)),
  create: memberProcedure.input(feedCreateInput).mutation(({ ctx, input }) => feeds.createPost(ctx, input)),
  edit: memberProcedure.input(feedEditInput).mutation(({ ctx, input }) => feeds.editPost(ctx, input)),
  remove: memberProcedure.input(feedPostInput).mutation(({ ctx, input }) => feeds.removePost(ctx, input.postId)),
  comment: memberProcedure.input(feedCommentInput).mutation(({ ctx, input }) => feeds.addComment(ctx, input.postId, input.text)),
  editComment: memberProcedure.input(feedCommentEditInput).mutation(({ ctx, input }) => feeds.editComment(ctx, input.commentId, input.text)),
  removeComment: memberProcedure.input(feedCommentIdInput).mutation(({ ctx, input }) => feeds.removeComment(ctx, input.commentId)),
  react: memberProcedure.input(feedReactInput).mutation(({ ctx, input }) => feeds.react(ctx, input.postId, input.emoji)),
  publicPost: publicProcedure.input(publicPostInput).query(({ ctx, input }) => feeds.publicPost(ctx, input.domain, input.postId)),
});
