/** Payloads of customer service's realtime events (plain JSON: dates arrive as ISO strings). */

/** A request waiting in the queue, as the attendant's queue screen lists it. */
export interface QueueRequestEvent {
  conversationId: string;
  protocol: string;
  type: number;
  /** The customer's name (the conversation's title). */
  customerName: string;
  queueId: string | null;
  queueName: string | null;
  queuedAt: Date | string;
  /** Aimed at one attendant (userFila): a transfer to them. */
  forMe: boolean;
  /** The customer's first words, when they wrote any. */
  preview: string | null;
}
