import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from '../constants';
import { isDeleteConfirmation } from '../domain/conversations';
import { PRESENCE_CHOICES } from '../domain/presence';
import { domainSchema } from './company';

import { CHAT_MESSAGES } from '../messages/chat';
export { CHAT_MESSAGES } from '../messages/chat';

/** Replaces {code} in the removal texts above. */
export const withCode = (text: string, code: string) => text.replace('{code}', code);

const id = z.uuid();
const inCompany = { domain: domainSchema };
const inConversation = { ...inCompany, conversationId: id };
const messageText = z.string().trim().min(1, CHAT_MESSAGES.empty).max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong);
const clientId = z.string().min(1).max(64);

export const startDirectInput = z.object({ ...inCompany, userId: id, force: z.boolean().optional() });
export const startTeamInput = z.object({ ...inCompany, title: z.string().trim().min(1).max(120), userIds: z.array(id).min(1).max(200) });
export const conversationInput = z.object(inConversation);
export const chatCompanyInput = z.object(inCompany);

/** Recents: one page, fixed first then most recent activity; `q` searches on the server. */
export const recentsInput = z.object({
  ...inCompany,
  /** Title or participant name, company name, last message, protocol (dashes ignored) or a date DD/MM/YYYY. */
  q: z.string().trim().max(100).optional(),
  /** The reader's time zone, for the DD/MM/YYYY search (IANA name, e.g. America/Sao_Paulo). */
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone')
    .optional(),
  limit: z.number().int().min(1).max(500).default(100),
  /** `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  /** The desk's filters (RECENTS_FILTERS); `queueId` keeps the service requests of one queue. */
  filter: z.enum(['all', 'unread', 'mine', 'open', 'team']).default('all'),
  queueId: id.optional(),
});
export type RecentsFilter = z.output<typeof recentsInput>['filter'];
export const setFixedInput = z.object({ ...inConversation, fixed: z.boolean() });

/** Colleagues to chat with or add: one page by name; `q` searches the name (case ignored). */
export const contactsInput = z.object({
  ...inCompany,
  q: z.string().trim().max(100).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  /** `nextCursor` of the previous page. */
  cursor: id.optional(),
});

export const messagesInput = z.object({
  ...inConversation,
  afterSeq: z.number().int().min(0).optional(),
  beforeSeq: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
/** Edits and removals after `afterChangeSeq` (catch-up of changes to messages already loaded). */
export const changesInput = z.object({
  ...inConversation,
  afterChangeSeq: z.number().int().min(0),
  limit: z.number().int().min(1).max(500).default(200),
});
export const sendInput = z.object({
  ...inConversation,
  /** The sender's own id for this send: a retry with the same id lands once. */
  clientId,
  text: messageText,
  replyToId: id.optional(),
  isComment: z.boolean().optional(),
  mentions: z.array(id).max(50).optional(),
});
export const messageInput = z.object({ ...inConversation, messageId: id });
export const editInput = z.object({ ...inConversation, messageId: id, text: messageText });
export const forwardInput = z.object({
  ...inConversation,
  messageId: id,
  /** Where to: conversations of this company the caller takes part in. */
  toConversationIds: z.array(id).min(1).max(20),
  clientId,
});
export const watermarkInput = z.object({ ...inConversation, uptoSeq: z.number().int().min(1) });
export const addParticipantsInput = z.object({ ...inConversation, userIds: z.array(id).min(1).max(200) });
export const removeParticipantInput = z.object({ ...inConversation, userId: id });
export const draftInput = z.object({ ...inConversation, text: z.string().max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong) });
export const deleteConversationInput = z.object({
  ...inConversation,
  /** What the person typed in the prompt: REMOVER, any case, spaces around ignored. */
  confirmation: z.string().max(50).refine(isDeleteConfirmation, CHAT_MESSAGES.typeRemover),
});
export const fileLinksInput = z.object({
  ...inConversation,
  messageIds: z.array(id).min(1).max(100),
  /** `thumb`: an image's small preview; `file`: the file itself. */
  variant: z.enum(['file', 'thumb']).default('file'),
  /** Ask the browser to save the file (Content-Disposition: attachment) rather than show it. */
  download: z.boolean().default(false),
});
export const presenceInput = z.object({ ...inCompany, userIds: z.array(id).min(1).max(500) });
export const setPresenceInput = z.object({ status: z.enum(PRESENCE_CHOICES) });
export const NOTE_MAX_LENGTH = 5000;
const noteText = z.string().trim().min(1, 'Write the note first').max(NOTE_MAX_LENGTH, `Notes have at most ${NOTE_MAX_LENGTH} characters`);
export const addNoteInput = z.object({ ...inConversation, text: noteText });
export const editNoteInput = z.object({ ...inConversation, noteId: id, text: noteText });
export const noteInput = z.object({ ...inConversation, noteId: id });

/**
 * The query string of `PUT /uploads/chat/:domain/:conversationId` (a file, image or voice message;
 * the body is the raw bytes, optionally preceded by a thumbnail of `thumbBytes` bytes).
 */
export const uploadQuery = z.object({
  clientId,
  name: z.string().min(1).max(255),
  thumbBytes: z.coerce.number().int().min(1).optional(),
  /** A voice message recorded in the browser (MediaRecorder). */
  recording: z.enum(['0', '1']).optional(),
  durationMs: z.coerce.number().int().min(0).max(24 * 3_600_000).optional(),
  text: z.string().trim().max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong).optional(),
  replyToId: id.optional(),
  isComment: z.enum(['0', '1']).optional(),
});
