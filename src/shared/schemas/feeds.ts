import { z } from 'zod';
import { FEED_ATTACHMENTS_MAX, FEED_AUDIENCES, FEED_COMMENT_MAX, FEED_REACTIONS, FEED_TEXT_MAX } from '../domain/feeds';
import { domainSchema } from './company';

import { FEED_MESSAGES } from '../messages/feeds';
export { FEED_MESSAGES } from '../messages/feeds';

const id = z.uuid();
const inCompany = { domain: domainSchema };
const postText = z.string().trim().max(FEED_TEXT_MAX, FEED_MESSAGES.tooLong);
const commentText = z.string().trim().min(1, FEED_MESSAGES.commentEmpty).max(FEED_COMMENT_MAX, FEED_MESSAGES.commentTooLong);

export const feedListInput = z.object({
  ...inCompany,
  /** Only this audience (the route's /i/recent/feeds/_empresa_ or _rede_); both when absent. */
  audience: z.enum(FEED_AUDIENCES).optional(),
  /** The last post of the previous page: older ones follow. */
  cursor: id.optional(),
  limit: z.number().int().min(1).max(50).default(20),
});
export const feedPostInput = z.object({ ...inCompany, postId: id });
export const feedCreateInput = z.object({
  ...inCompany,
  text: postText,
  audience: z.enum(FEED_AUDIENCES),
  isPublic: z.boolean().default(false),
  attachmentIds: z.array(id).max(FEED_ATTACHMENTS_MAX, FEED_MESSAGES.tooManyAttachments).default([]),
});
export const feedEditInput = z.object({ ...inCompany, postId: id, text: postText, isPublic: z.boolean().optional() });
export const feedCommentInput = z.object({ ...inCompany, postId: id, text: commentText });
export const feedCommentEditInput = z.object({ ...inCompany, commentId: id, text: commentText });
export const feedCommentIdInput = z.object({ ...inCompany, commentId: id });
export const feedReactInput = z.object({ ...inCompany, postId: id, emoji: z.enum(FEED_REACTIONS) });
/** The public page of one post (/{emp}/feeds/{feedId}): anyone. */
export const publicPostInput = z.object({ domain: domainSchema, postId: id });
/** PUT /uploads/feed/:domain?name= — a file for a post still being written. */
export const feedUploadQuery = z.object({ name: z.string().min(1).max(255) });
