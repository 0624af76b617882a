/**
 * The typed Socket.IO contract between server and browser. Rooms: `user:<id>`, `session:<id>`, `company:<id>`,
 * `queue:<companyId>`, `conversation:<id>`, `call:<id>` (ARCHITECTURE.md, Realtime).
 * Each module adds its events here; payloads are plain JSON.
 */
import type { ChatMessageEvent, PresenceEvent, ReceiptEvent } from './chat-events';
import type { TemplateLoss } from './domain/forms-access';
import type { QueueRequestEvent } from './service-events';
import type { CallAck, CallChatLine, CallCommandEvent, CallEnded, CallRequest, CallSignal, CallState, CallSubtitle, CallSubtitlesToggled, CallTranscriptAck, CallTranscriptInput, DataProducerInfo, ProducerInfo } from './call-events';

export interface ServerToClientEvents {
  /** A committed message, to every participant's tabs. Clients order and de-duplicate by seq. */
  'message:new': (message: ChatMessageEvent) => void;
  /**
   * A message was edited or removed (the whole message, as it is now). Its `changeSeq` is gapless
   * per conversation: a client that sees a gap asks `chat.changes` for what it missed.
   */
  'message:updated': (message: ChatMessageEvent) => void;
  /** Who is in the conversation changed (added, removed, left) or the caller pinned it: refetch it and the recents. */
  'conversation:updated': (payload: { conversationId: string }) => void;
  /** The conversation was deleted: drop it from the recents and close it. */
  'conversation:removed': (payload: { conversationId: string }) => void;
  /** The conversation's notes (anotações) changed: refetch them. Members only. */
  'conversation:notes': (payload: { conversationId: string }) => void;
  /** Someone's presence as the receiver may see it (invisible shows as offline). */
  'presence:update': (payload: PresenceEvent) => void;
  /** Someone is typing in a conversation (shown for TYPING_DELAY_MS after the last one). */
  typing: (payload: { conversationId: string; userId: string }) => void;
  /**
   * A participant's delivered/read watermark moved: the author's ticks change. Also sent to the
   * reader's own tabs, so reading in one tab clears the unread count in the others.
   */
  'receipt:update': (receipt: ReceiptEvent) => void;
  /**
   * This socket sent events faster than the server takes them (SOCKET_EVENTS_PER_SECOND): the
   * excess was dropped, the socket stays connected. Sent at most once a second.
   */
  'limit:warning': (payload: { reason: typeof SOCKET_TOO_FAST; dropped: number }) => void;
  /**
   * This person may no longer act for the company (blocked or removed by an admin): their sockets
   * have left its rooms; the client routes to /{emp}/block.
   */
  'access:revoked': (payload: { domain: string; reason: 'blocked' | 'removed' }) => void;
  /** An admin changed this member's profile (permissions): the open app asks to reload. */
  'member:profileChanged': (payload: { domain: string }) => void;
  /** Sent once after the handshake, so the client knows who the server thinks it is. */
  'session:ready': (payload: { userId: string; socketId: string }) => void;
  /** Something changed that the user should look at (the notifications module fills this in). */
  'notification:new': (payload: { id: string; title: string; type?: string; subtitle?: string; action?: string }) => void;
  /** Notifications were marked read in another tab: the badge and list follow. */
  'notification:read': (payload: { ids: string[] | 'all' }) => void;
  /** Someone joined, asked to join, or a member's state, role or profile changed: to the company's admins (their members list refetches). */
  'members:changed': (payload: { domain: string }) => void;
  /** Progress of the company the user is registering (spec 4, Company registration steps). */
  'company:registration': (payload: { domain: string; step: RegistrationStep }) => void;
  // Customer service (service module)
  /** A request entered the queue: to the attendants who can see it (spec 5, queue visibility). */
  'queue:added': (payload: { domain: string; request: QueueRequestEvent }) => void;
  /**
   * Requests left the queue (taken, left, concluded): to every attendant, so they disappear at once.
   * A burst of them comes as one push per 100 ms (server/modules/service/queue-removals.ts).
   */
  'queue:removed': (payload: { domain: string; conversationIds: string[] }) => void;
  /** Every 60 s while people wait: the client plays the queue sound (honouring playFila). */
  'queue:alarm': (payload: { domain: string; waiting: number }) => void;
  /** The customer's place in line changed (1 = next). */
  'service:position': (payload: { conversationId: string; position: number; estimatedWaitMinutes: number | null }) => void;
  // Telemedicine (telemedicine module)
  /** A waiting patient's place in the doctors' queue and the estimated wait (null: no doctor online). */
  'telemedicine:position': (payload: { consultationId: string; position: number; estimatedWaitMs: number | null }) => void;
  /** The doctors' queue or one of my consultations changed: doctors and the patient refetch. */
  'telemedicine:changed': (payload: { consultationId: string | null }) => void;
  /** A doctor went online or offline: to the admins of the doctor's company and to the doctor's tabs. */
  'telemedicine:presence': (payload: { userId: string; online: boolean }) => void;

  // Calls (calls module) -------------------------------------------------------------------------
  /** A ring to every tab of the callee, or its end; 'accepted'/'otherReject' tell the caller. */
  'call:signal': (signal: CallSignal) => void;
  /** The call's whole state after a change, to its call room. */
  'call:state': (state: CallState) => void;
  /** The call is over for everyone (or, with reason kicked/insufficientBalance, for this user). */
  'call:ended': (payload: CallEnded) => void;
  /** The owner's remote command to this participant; unmute and unmuteVideo ask first. */
  'call:command': (payload: CallCommandEvent) => void;
  /** Someone started sending a track: consume it. */
  'call:newProducer': (producer: ProducerInfo) => void;
  'call:producerClosed': (payload: { producerId: string }) => void;
  'call:newDataProducer': (info: DataProducerInfo) => void;
  'call:producerPaused': (payload: { producerId: string; paused: boolean }) => void;
  /** The in-call chat (live rooms and calls); not stored. */
  'call:chat': (line: CallChatLine) => void;
  /** A subtitle line, to the call socket of each listener with subtitles on. */
  'call:subtitle': (line: CallSubtitle) => void;
  /** The call's subtitles (legenda) were turned on or off, to the call room. */
  'call:subtitles': (payload: CallSubtitlesToggled) => void;

  // Feeds, notes and contacts ------------------------------------------------------------------
  /** A post someone can see was written, changed, removed, commented or reacted to: refetch (authorId on 'new'). */
  'feed:changed': (payload: { postId: string; change: 'new' | 'updated' | 'removed' | 'comments' | 'reactions'; authorId?: string }) => void;
  /** The user saw the feed in another tab: the unread badge clears. */
  'feed:seen': (payload: { at: string }) => void;
  /** A note the user owns or that is shared with them changed (or was unshared or removed): refetch. */
  'note:changed': (payload: { noteId: string; change: 'updated' | 'removed' | 'shared' }) => void;
  /** An event of the user's calendar was created, changed or removed: refetch the range on screen. */
  'calendar:changed': (payload: { eventId: string }) => void;
  /** One of the attendant's appointments was booked, moved or cancelled: refetch /i/schedule. */
  'appointments:changed': (payload: { appointmentId: string }) => void;
  /** Progress of the user's CSV import of contacts. */
  'contacts:import': (payload: { importId: string; status: 'running' | 'done' | 'failed'; total: number; processed: number; created: number; updated: number; failed: number }) => void;

  // Forms (forms module) -------------------------------------------------------------------------
  /** A template was added, changed, made private or public, or deleted: form listings refetch. */
  'forms:changed': (payload: { domain: string; templateId: string }) => void;
  /** A template this person could open is gone for them (made private by its creator, or deleted). */
  'forms:lost': (payload: { domain: string; templateId: string; reason: TemplateLoss }) => void;
  /** A filled form changed (draft saved, submitted, discarded): its open copies refetch it. */
  'forms:form': (payload: { formId: string; conversationId: string; status: 'draft' | 'submitted' | 'discarded' }) => void;
}

export const REGISTRATION_STEPS = [
  'creatingCompany',
  'registeringInDatabase',
  'registeringQueues',
  'creatingProfiles',
  'buildingContactUs',
  'allReady',
] as const;
export type RegistrationStep = (typeof REGISTRATION_STEPS)[number];

export interface ClientToServerEvents {
  /** "I am typing here"; clients send it at most once per TYPING_DELAY_MS. */
  typing: (payload: { conversationId: string }) => void;
  /**
   * Sends a chat message over this socket (chat.send's input plus `domain`), acknowledged with the
   * message or the refusal chat.send would give; the same clientId lands once whichever path sent it.
   */
  'chat:send': (input: ChatSendInput, ack: (response: ChatSendAck) => void) => void;
  /**
   * Takes a waiting request over this socket (service.take's input), acknowledged with the taken
   * request or the refusal service.take would give, in its words and HTTP status.
   */
  'service:take': (input: ServiceTakeInput, ack: (response: ServiceTakeAck) => void) => void;
  /** Round-trip check; the server acknowledges with its clock. */
  ping: (ack: (payload: { serverTime: number }) => void) => void;
  /** Calls: join, media negotiation, chat and leave on a call's own socket (see CallRequest). */
  'call:request': (request: CallRequest, ack: (response: CallAck) => void) => void;
  /** A final speech-recognition result of the speaker, on their call socket (rate-limited like every event). */
  'call:transcript': (input: CallTranscriptInput, ack: (response: CallTranscriptAck) => void) => void;
}

/** A request from one instance to another (media piped between hosts: modules/calls/cascade.ts). */
export interface InstanceRequest {
  /** The instance that must answer (INSTANCE_ID); the others answer null. */
  to: string;
  kind: string;
  body: unknown;
}

export interface ChatSendInput {
  domain: string;
  conversationId: string;
  clientId: string;
  text: string;
  replyToId?: string;
  isComment?: boolean;
  mentions?: string[];
}

/** chat:send's answer: the saved message, or chat.send's refusal text with its HTTP status (and the access reason). */
export type ChatSendAck = { ok: true; message: ChatMessageEvent } | { ok: false; error: string; httpStatus?: number; access?: string };

/** What an acknowledged socket event answers when refused: the procedure's text, HTTP status and access reason. */
export type SocketRefusal = { ok: false; error: string; httpStatus?: number; access?: string };

export interface ServiceTakeInput {
  domain: string;
  conversationId: string;
}

/** service:take's answer: the request is now this attendant's, or service.take's refusal. */
export type ServiceTakeAck = { ok: true; conversationId: string } | SocketRefusal;

export interface InterServerEvents {
  /** Typing tokens people spent on the sending instance since its last report (userId → count). */
  'typing:spent': (spent: Record<string, number>) => void;
  'instance:request': (request: InstanceRequest, answer: (response: unknown) => void) => void;
}

export interface SocketData {
  userId: string;
  sessionId: string;
  /** The companies whose room this socket joined at connect (those it could act for then). */
  companyIds: string[];
}

export const rooms = {
  user: (id: string) => `user:${id}`,
  /** Every socket opened with one session: signing out or revoking it closes them all. */
  session: (id: string) => `session:${id}`,
  company: (id: string) => `company:${id}`,
  queue: (companyId: string) => `queue:${companyId}`,
  conversation: (id: string) => `conversation:${id}`,
  call: (id: string) => `call:${id}`,
} as const;

/** The message the handshake fails with when no valid session cookie comes along. */
export const SOCKET_UNAUTHENTICATED = 'Not signed in: the connection needs a valid session';
/** The handshake of one connection more than MAX_SOCKETS_PER_USER fails with this. */
export const SOCKET_TOO_MANY = 'Too many open connections for this user: close another tab or window and try again';
/** What the warning says (and what an acknowledged event is answered) when a socket sends too fast. */
/** The page that opened the connection is not this app's (PUBLIC_URL) nor one of ALLOWED_ORIGINS. */
export const SOCKET_ORIGIN_REFUSED = 'This page may not connect to the server: its address is not an allowed origin';
export const SOCKET_TOO_FAST = 'Too many events too fast: some were dropped; slow down';
