/**
 * The one interface every outside messaging channel sits behind. An adapter speaks its provider's
 * protocol (send, verify a webhook, read its events); the rest of the module (outbox, inbound,
 * settings) never knows which provider it talks to.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const CHANNELS = ['whatsapp', 'telegram'] as const;
export type ChannelKind = (typeof CHANNELS)[number];

/** A connection as the adapter needs it: decrypted credentials and what may be shown. */
export interface Connection {
  credentials: Record<string, string>;
  info: Record<string, string>;
  webhookUrl: string;
  /** Telegram: updates are read by long polling (no webhook). */
  polling?: boolean;
}

export interface OutboundMessage {
  to: string;
  text: string;
  /** A file the provider fetches by URL (a short-lived signed link to our storage). */
  file?: { url: string; name: string; mime: string | null; kind: 'image' | 'audio' | 'document' };
}

/** What a webhook delivery said, in the module's words. */
export type InboundEvent =
  | { type: 'message'; externalId: string; from: string; name: string; text: string; media?: InboundMedia }
  | { type: 'status'; externalId: string; status: 'sent' | 'delivered' | 'read' | 'failed'; reason?: string };

/** A file the customer sent: the provider's reference, fetched with `Channel.download`. */
export interface InboundMedia {
  ref: string;
  mime?: string;
  name: string;
  audio?: boolean;
}

/** A refused or failed send: `retry` false when trying again cannot help (a 4xx that is not a rate limit). */
export class ChannelSendError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

export interface WebhookRequest {
  method: string;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

export type WebhookAnswer = { status: number; body?: string } | { status: 200; events: InboundEvent[] };

export interface Channel {
  readonly kind: ChannelKind;
  send(conn: Connection, message: OutboundMessage): Promise<{ externalId: string; delivered?: boolean }>;
  /** Checks the credentials with the provider and tells it where to deliver (where the protocol allows). */
  connect(conn: Connection): Promise<Record<string, string>>;
  /** Fetches a file a customer sent (the provider keeps it; we store our own copy). */
  download(conn: Connection, media: InboundMedia, maxBytes: number): Promise<Buffer>;
  /** Verifies (signature, secret, handshake) and reads one webhook delivery. */
  webhook(conn: Connection, req: WebhookRequest): WebhookAnswer;
  /** Long polling (Telegram's getUpdates): the updates from `offset` on, each with its events. */
  poll?(conn: Connection, offset: number, timeoutS: number, signal: AbortSignal): Promise<{ id: number; events: InboundEvent[] }[]>;
}
