import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from '../constants';
import { RATING_MAX, RATING_MIN } from '../domain/rating';
import { CHAT_MESSAGES } from './chat';
import { domainSchema } from './company';

import { SERVICE_MESSAGES } from '../messages/service';
export { SERVICE_MESSAGES } from '../messages/service';

const id = z.uuid();
const inCompany = { domain: domainSchema };
const inConversation = { ...inCompany, conversationId: id };
const text = z.string().trim().max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong);
const queueKey = z.string().trim().min(1).max(60);
const customerName = z.string().trim().min(1, SERVICE_MESSAGES.nameRequired).max(80);

// ---- the customer's side (no company membership: checked by participation) --------------------

export const companyPageInput = z.object(inCompany);
export const requestServiceInput = z.object({ ...inCompany, queueKey, name: customerName.optional(), text: text.optional() });
export const contactUsSubmitInput = z.object({ ...inCompany, values: z.record(z.string().max(60), z.string().max(5000)) });
export const customerConversationInput = z.object({ conversationId: id });
export const customerMessagesInput = z.object({
  conversationId: id,
  afterSeq: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(200).default(100),
});
export const customerSendInput = z.object({
  conversationId: id,
  clientId: z.string().min(1).max(64),
  text: z.string().trim().min(1, CHAT_MESSAGES.empty).max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong),
});
/** Links to the files of a request's messages (the customer has no member's chat.fileLinks). */
export const customerFileLinksInput = z.object({
  conversationId: id,
  messageIds: z.array(id).min(1).max(100),
  variant: z.enum(['file', 'thumb']).default('file'),
  download: z.boolean().default(false),
});
export const customerReadInput = z.object({ conversationId: id, uptoSeq: z.number().int().min(1) });
export const rateInput = z.object({ conversationId: id, stars: z.number().int().min(RATING_MIN).max(RATING_MAX) });
export const answerSlaInput = z.object({ conversationId: id, accept: z.boolean() });

// ---- the attendant's side (members of the company) ---------------------------------------------

export const queueViewInput = z.object({ ...inCompany, queueId: id.optional() });
export const serviceConversationInput = z.object(inConversation);
export const setWaitingInput = z.object({ ...inConversation, waiting: z.boolean() });
export const transferInput = z.object({
  ...inConversation,
  target: z.discriminatedUnion('kind', [z.object({ kind: z.literal('queue'), queueId: id }), z.object({ kind: z.literal('attendant'), userId: id })]),
  /** Added to the conversation as a comment (members only) when not empty after trimming. */
  comment: z.string().max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong).optional(),
});
export const proposeSlaInput = z.object({ ...inConversation, offerDate: z.coerce.date() });
const tag = z.string().trim().min(1).max(40);
export const setTagsInput = z.object({ ...inConversation, tags: z.array(tag).max(20) });
export const createTaskInput = z.object({ ...inConversation, title: z.string().trim().min(1, 'Fill in all fields').max(120), userIds: z.array(id).max(50).default([]) });
export const linkedTicketInput = z.object({ ...inConversation, targetDomain: domainSchema, queueKey, text: text.optional() });
export const addTimeInput = z.object({
  ...inConversation,
  startedAt: z.coerce.date(),
  minutes: z.number().int().min(1).max(24 * 60),
  description: z.string().trim().max(500).default(''),
});
export const timeEntryInput = z.object({ ...inCompany, entryId: id });
