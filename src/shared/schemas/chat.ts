import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from '../constants';
import { domainSchema } from './company';

export const CHAT_MESSAGES = {
  self: 'Você não pode iniciar um evento com você mesmo',
  tooLong: `Messages have at most ${MESSAGE_MAX_LENGTH} characters`,
  empty: 'Write a message first',
  notParticipant: 'You are not in this conversation',
  removed: 'You have been removed from Attendance',
  notFound: 'Conversation not found',
  responsibleCannotLeave: 'Transfer the service to someone else before leaving',
  useLeave: 'To leave the conversation, use Leave',
  notAParticipant: 'This person is not in the conversation',
  blocked: 'No momento a conta da empresa está desativada, você não poderá atender a fila, ou interagir com atendimentos.',
} as const;

const id = z.uuid();
const inCompany = { domain: domainSchema };
const inConversation = { ...inCompany, conversationId: id };

export const startDirectInput = z.object({ ...inCompany, userId: id, force: z.boolean().optional() });
export const startTeamInput = z.object({ ...inCompany, title: z.string().trim().min(1).max(120), userIds: z.array(id).min(1).max(200) });
export const conversationInput = z.object(inConversation);
export const messagesInput = z.object({
  ...inConversation,
  afterSeq: z.number().int().min(0).optional(),
  beforeSeq: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const sendInput = z.object({
  ...inConversation,
  /** The sender's own id for this send: a retry with the same id lands once. */
  clientId: z.string().min(1).max(64),
  text: z.string().trim().min(1, CHAT_MESSAGES.empty).max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong),
  replyToId: id.optional(),
  isComment: z.boolean().optional(),
  mentions: z.array(id).max(50).optional(),
});
export const watermarkInput = z.object({ ...inConversation, uptoSeq: z.number().int().min(1) });
export const addParticipantsInput = z.object({ ...inConversation, userIds: z.array(id).min(1).max(200) });
export const removeParticipantInput = z.object({ ...inConversation, userId: id });
