import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from '../constants';
import { SAVED_REPLY_SHORTCUT } from '../domain/saved-replies';
import { domainSchema } from './company';

import { REPLY_MESSAGES } from '../messages/replies';
export { REPLY_MESSAGES } from '../messages/replies';

export const SAVED_REPLIES_MAX = 500;

const inCompany = { domain: domainSchema };

export const replyShortcutSchema = z
  .string()
  .trim()
  .transform((s) => s.replace(/^\//, '').toLowerCase())
  .pipe(z.string().regex(SAVED_REPLY_SHORTCUT, REPLY_MESSAGES.badShortcut));

export const replySaveInput = z.object({
  ...inCompany,
  /** Absent: a new reply. */
  replyId: z.uuid().optional(),
  shortcut: replyShortcutSchema,
  title: z.string().trim().max(120).default(''),
  text: z.string().trim().min(1, REPLY_MESSAGES.textRequired).max(MESSAGE_MAX_LENGTH),
});

export const replyIdInput = z.object({ ...inCompany, replyId: z.uuid() });
