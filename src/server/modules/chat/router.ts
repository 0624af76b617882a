/**
 * Chat procedures. Contract for the client (names are stable; inputs in shared/schemas/chat.ts,
 * every one takes `domain` except setPresence):
 *
 * Conversations
 *   chat.recents            q  {q?, timeZone?, limit?, cursor?} -> {items: RecentItem[], nextCursor, totalUnread}
 *   chat.conversation       q  {conversationId} -> conversation, participants, me {draft, watermarks, mentioned}, lastSeq, lastChangeSeq
 *   chat.startDirect        m  {userId, force?} -> {conversationId, existing}  (existing: offer 'continuar' / 'criar outro')
 *   chat.startTeam          m  {title, userIds} -> {conversationId}
 *   chat.setFixed           m  {conversationId, fixed} -> {fixed}  (pin on top of my recents)
 *   chat.saveDraft          m  {conversationId, text} -> {draft}  (empty text deletes it)
 *   chat.deleteConversation m  {conversationId, confirmation: 'REMOVER'} -> {removed}  (creator or admin)
 *   chat.addParticipants    m  {conversationId, userIds} -> {added}
 *   chat.removeParticipant  m  {conversationId, userId} -> {removed}
 *   chat.leave              m  {conversationId} -> {left}
 * Messages
 *   chat.messages           q  {conversationId, afterSeq? | beforeSeq?, limit?} -> ChatMessageEvent[] (ascending seq)
 *   chat.changes            q  {conversationId, afterChangeSeq, limit?} -> {messages, upto, complete}
 *   chat.send               m  {conversationId, clientId, text, replyToId?, isComment?, mentions?} -> ChatMessageEvent
 *   chat.edit               m  {conversationId, messageId, text} -> ChatMessageEvent  (author only)
 *   chat.deleteMessage      m  {conversationId, messageId} -> ChatMessageEvent  (author or admin)
 *   chat.forward            m  {conversationId, messageId, toConversationIds, clientId} -> ChatMessageEvent[]
 *   chat.markDelivered      m  {conversationId, uptoSeq} -> {uptoSeq, moved}
 *   chat.markRead           m  {conversationId, uptoSeq} -> {uptoSeq, moved}
 *   chat.messageDetails     q  {conversationId, messageId} -> {message, participants: [{deliveredAt, readAt}]}
 *   chat.fileLinks          q  {conversationId, messageIds, variant: file|thumb, download?} -> {links: [{messageId, url}], expiresAt}
 *   PUT /uploads/chat/:domain/:conversationId?clientId&name[&thumbBytes][&recording=1&durationMs][&text][&replyToId][&isComment=1]
 *       body = [thumbnail bytes] + file bytes (e.g. new Blob([thumb, file])); Content-Type = the file's type
 *       -> 200 ChatMessageEvent | {error, code} (413 fileTooLarge, 507 quotaExceeded, 415 badThumb/notAudio, ...)
 * Notes (anotações, members only)
 *   chat.notes q {conversationId}; chat.addNote m {conversationId, text}; chat.editNote / chat.deleteNote m {conversationId, noteId[, text]}
 * Presence
 *   chat.presence           q  {userIds} -> [{userId, status, choice? (mine only)}]
 *   chat.setPresence        m  {status: online|occupied|beRightBack|invisible}  (no domain: it is the user's)
 *
 * Socket events (server -> client, every tab of each person concerned):
 *   message:new           a new message (order and de-duplicate by seq)
 *   message:updated       an edit or removal; changeSeq is gapless per conversation: on a gap, call chat.changes
 *   receipt:update        someone's delivered/read watermark moved (also to the reader's own tabs)
 *   conversation:updated  participants changed, or I pinned it: refetch it and the recents
 *   conversation:removed  the conversation was deleted
 *   conversation:notes    notes changed: refetch chat.notes
 *   presence:update       {userId, status} (and `choice` in my own tabs)
 *   typing                {conversationId, userId}  (client -> server: typing {conversationId})
 * Catch-up after a reconnect: chat.messages({afterSeq: last seq seen}) and
 * chat.changes({afterChangeSeq: last change seen}) per open conversation; chat.recents for the list.
 */
import {
  addNoteInput,
  addParticipantsInput,
  changesInput,
  chatCompanyInput,
  contactsInput,
  conversationInput,
  deleteConversationInput,
  draftInput,
  editInput,
  editNoteInput,
  fileLinksInput,
  forwardInput,
  messageInput,
  messagesInput,
  noteInput,
  presenceInput,
  recentsInput,
  removeParticipantInput,
  sendInput,
  setFixedInput,
  setPresenceInput,
  startDirectInput,
  startTeamInput,
  watermarkInput,
} from '../../../shared/schemas/chat';
import { authedProcedure, memberProcedure, router } from '../../trpc';
import type { ChatContext } from './context';
import { fileLinks, uploadLimits } from './files';
import * as messages from './messages';
import * as notes from './notes';
import { presenceOf, setPresence } from './presence';
import { listRecents } from './recents';
import * as chat from './service';

type Ctx = Parameters<Parameters<typeof memberProcedure.query>[0]>[0]['ctx'];
const chatContext = (ctx: Ctx): ChatContext => ({ ...ctx, userId: ctx.user.id });

export const chatRouter = router({
  // Conversations
  recents: memberProcedure.input(recentsInput).query(({ ctx, input }) => listRecents(chatContext(ctx), input)),
  conversation: memberProcedure.input(conversationInput).query(({ ctx, input }) => chat.getConversation(chatContext(ctx), input.conversationId)),
  contacts: memberProcedure.input(contactsInput).query(({ ctx, input }) => chat.listContacts(chatContext(ctx), input)),
  startDirect: memberProcedure.meta({ rate: 'conversations' }).input(startDirectInput).mutation(({ ctx, input }) => chat.startDirect(chatContext(ctx), input.userId, input.force)),
  startTeam: memberProcedure.meta({ rate: 'conversations' }).input(startTeamInput).mutation(({ ctx, input }) => chat.startTeam(chatContext(ctx), input)),
  setFixed: memberProcedure.input(setFixedInput).mutation(({ ctx, input }) => chat.setFixed(chatContext(ctx), input.conversationId, input.fixed)),
  saveDraft: memberProcedure.input(draftInput).mutation(({ ctx, input }) => chat.saveDraft(chatContext(ctx), input.conversationId, input.text)),
  deleteConversation: memberProcedure.input(deleteConversationInput).mutation(({ ctx, input }) => chat.deleteConversation(chatContext(ctx), input.conversationId)),
  addParticipants: memberProcedure.input(addParticipantsInput).mutation(({ ctx, input }) => chat.addParticipants(chatContext(ctx), input.conversationId, input.userIds)),
  removeParticipant: memberProcedure.input(removeParticipantInput).mutation(({ ctx, input }) => chat.removeParticipant(chatContext(ctx), input.conversationId, input.userId)),
  leave: memberProcedure.input(conversationInput).mutation(({ ctx, input }) => chat.leaveConversation(chatContext(ctx), input.conversationId)),
  // Messages
  messages: memberProcedure.input(messagesInput).query(({ ctx, input }) => messages.listMessages(chatContext(ctx), input)),
  changes: memberProcedure.input(changesInput).query(({ ctx, input }) => messages.listChanges(chatContext(ctx), input)),
  send: memberProcedure.input(sendInput).mutation(({ ctx, input }) => messages.sendMessage(chatContext(ctx), input)),
  edit: memberProcedure.input(editInput).mutation(({ ctx, input }) => messages.editMessage(chatContext(ctx), input)),
  deleteMessage: memberProcedure.input(messageInput).mutation(({ ctx, input }) => messages.deleteMessage(chatContext(ctx), input)),
  forward: memberProcedure.input(forwardInput).mutation(({ ctx, input }) => messages.forwardMessage(chatContext(ctx), input)),
  markDelivered: memberProcedure.input(watermarkInput).mutation(({ ctx, input }) => messages.advanceWatermark(chatContext(ctx), input.conversationId, 'delivered', input.uptoSeq)),
  markRead: memberProcedure.input(watermarkInput).mutation(({ ctx, input }) => messages.advanceWatermark(chatContext(ctx), input.conversationId, 'read', input.uptoSeq)),
  messageDetails: memberProcedure.input(messageInput).query(({ ctx, input }) => messages.messageDetails(chatContext(ctx), input)),
  uploadLimits: memberProcedure.input(chatCompanyInput).query(({ ctx }) => uploadLimits(chatContext(ctx))),
  fileLinks: memberProcedure.input(fileLinksInput).query(({ ctx, input }) => fileLinks(chatContext(ctx), input)),
  // Notes
  notes: memberProcedure.input(conversationInput).query(({ ctx, input }) => notes.listNotes(chatContext(ctx), input.conversationId)),
  addNote: memberProcedure.input(addNoteInput).mutation(({ ctx, input }) => notes.addNote(chatContext(ctx), input.conversationId, input.text)),
  editNote: memberProcedure.input(editNoteInput).mutation(({ ctx, input }) => notes.editNote(chatContext(ctx), input.conversationId, input.noteId, input.text)),
  deleteNote: memberProcedure.input(noteInput).mutation(({ ctx, input }) => notes.deleteNote(chatContext(ctx), input.conversationId, input.noteId)),
  // Presence
  presence: memberProcedure.input(presenceInput).query(({ ctx, input }) => presenceOf(chatContext(ctx), input.userIds)),
  setPresence: authedProcedure.meta({ rate: 'presence' }).input(setPresenceInput).mutation(({ ctx, input }) => setPresence(ctx, ctx.user.id, input.status)),
});
