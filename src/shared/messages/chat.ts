import { MESSAGE_MAX_LENGTH } from '../constants';

/** Texts the chat answers with (the spec's where it has one); the client translates them. */
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
  onlyMembers: 'Only active members of this company can take part',
  blocked: 'No momento a conta da empresa está desativada, você não poderá atender a fila, ou interagir com atendimentos.',
  // Messages
  commentsMembersOnly: 'Only members of the company can write comments',
  messageNotFound: 'Message not found',
  onlyAuthorEdits: 'Only the author can edit a message',
  notEditable: 'Only text messages can be edited',
  removedMessage: 'This message was removed',
  replyElsewhere: 'You can only reply to a message of the same conversation',
  mentionsParticipants: 'Only participants of the conversation can be mentioned',
  notForwardable: 'This message cannot be forwarded',
  forwardTargets: 'You can only forward to conversations you take part in',
  /** 'Não foi possível remover a mensagem [{code}]'; codes: MESSAGE_REMOVAL_CODES. */
  messageRemoval: 'Não foi possível remover a mensagem [{code}]',
  // Conversation removal (error catalogue)
  conversationMissing: 'Não foi possível remover o atendimento [404x1B]',
  /** 'Não foi possível remover o Atendimento [{code}]' when the storage fails; codes: CONVERSATION_REMOVAL_CODES. */
  conversationStorage: 'Não foi possível remover o Atendimento [{code}]',
  conversationProblem: 'Ocorreu um problema ao excluir o atendimento!',
  conversationHasTasks: 'Este atendimento está vinculado a uma ou mais tarefas. Para removê-lo as tarefas precisam ser desvinculadas a ele.',
  typeRemover: 'Type REMOVER to confirm',
  onlyCreatorOrAdminDeletes: 'Only the person who opened the conversation or an administrator can remove it',
  // Files
  fileNotFound: 'File not found',
  // Notes (anotações)
  noteNotFound: 'Note not found',
  onlyAuthorNote: 'Only the author can change a note',
  notesMembersOnly: 'Notes are for members of the company only',
} as const;
