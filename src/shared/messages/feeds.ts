import { FEED_ATTACHMENTS_MAX, FEED_COMMENT_MAX, FEED_TEXT_MAX } from '../domain/feeds';

/** Texts the feeds answer with; the client translates them. */
export const FEED_MESSAGES = {
  empty: 'Write something or add an image or a file',
  tooLong: `A post has at most ${FEED_TEXT_MAX} characters`,
  commentEmpty: 'Write a comment first',
  commentTooLong: `A comment has at most ${FEED_COMMENT_MAX} characters`,
  notFound: 'Post not found',
  commentNotFound: 'Comment not found',
  onlyAuthorOrAdmin: 'Only the author or an administrator can change this',
  attachmentMissing: 'An attached file is missing: add it again',
  tooManyAttachments: `A post has at most ${FEED_ATTACHMENTS_MAX} images or files`,
} as const;
