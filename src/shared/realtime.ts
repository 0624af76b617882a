/**
 * The typed Socket.IO contract between server and browser. Rooms: `user:<id>`, `company:<id>`,
 * `queue:<companyId>`, `conversation:<id>`, `call:<id>` (ARCHITECTURE.md, Realtime).
 * Each module adds its events here; payloads are plain JSON.
 */
import type { ChatMessageEvent, ReceiptEvent } from './chat-events';

export interface ServerToClientEvents {
  /** A committed message, to every participant's tabs. Clients order and de-duplicate by seq. */
  'message:new': (message: ChatMessageEvent) => void;
  /** Who is in the conversation changed (added, removed, left): refetch it and the recents. */
  'conversation:updated': (payload: { conversationId: string }) => void;
  /** Someone is typing in a conversation (shown for TYPING_DELAY_MS after the last one). */
  typing: (payload: { conversationId: string; userId: string }) => void;
  /** A participant's delivered/read watermark moved: the author's ticks change. */
  'receipt:update': (receipt: ReceiptEvent) => void;
  /** Sent once after the handshake, so the client knows who the server thinks it is. */
  'session:ready': (payload: { userId: string; socketId: string }) => void;
  /** Something changed that the user should look at (the notifications module fills this in). */
  'notification:new': (payload: { id: string; title: string; subtitle?: string }) => void;
  /** Progress of the company the user is registering (spec 4, Company registration steps). */
  'company:registration': (payload: { domain: string; step: RegistrationStep }) => void;
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
  /** Round-trip check; the server acknowledges with its clock. */
  ping: (ack: (payload: { serverTime: number }) => void) => void;
}

export interface InterServerEvents {}

export interface SocketData {
  userId: string;
  sessionId: string;
}

export const rooms = {
  user: (id: string) => `user:${id}`,
  company: (id: string) => `company:${id}`,
  queue: (companyId: string) => `queue:${companyId}`,
  conversation: (id: string) => `conversation:${id}`,
  call: (id: string) => `call:${id}`,
} as const;

/** The message the handshake fails with when no valid session cookie comes along. */
export const SOCKET_UNAUTHENTICATED = 'Not signed in: the connection needs a valid session';
