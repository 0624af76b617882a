/**
 * A client process of chat-fanout (child_process.fork): holds the Socket.IO connections of whole
 * conversations (all five participants), so a message's send time and every recipient's arrival
 * are read from the same clock. Sends are open-loop at the rate the parent asks for: a slow server
 * shows up as latency, not as a politely slower sender.
 */
import { io as connect, type Socket } from 'socket.io-client';

export interface Conv {
  id: string;
  members: { userId: string; cookie: string }[];
}
export type ToClient =
  | { type: 'init'; mode: 'app' | 'relay'; via: 'socket' | 'http'; url: string; domain: string; conversations: Conv[] }
  | { type: 'step'; rate: number; durationMs: number; drainMs: number }
  | { type: 'close' };
export type FromClient =
  | { type: 'ready'; sockets: number }
  | { type: 'stepDone'; latencies: number[]; httpLatencies: number[]; sent: number; completed: number; failed: number; shed: number; lost: number; firstError?: string };

const send = (m: FromClient) => process.send!(m);
let mode: 'app' | 'relay' = 'app';
/** How a message is sent: an acknowledged event on the author's own socket, or an HTTP request. */
let via: 'socket' | 'http' = 'socket';
/** The open socket of each member of each conversation (conversation id -> member index -> socket). */
const socketOf = new Map<string, Socket[]>();
let url = '';
let domain = '';
let conversations: Conv[] = [];
const sockets: Socket[] = [];
/** clientId -> send time and how many sockets still have to receive it. */
const pending = new Map<string, { t0: number; left: number }>();
let latencies: number[] = [];
/** Send call -> its answer (HTTP response or socket acknowledgement: the server's own processing plus the trip). */
let httpLatencies: number[] = [];
let completed = 0;
let seq = 0;
const TEXT = 'Bom dia! Segue a atualização do pedido: a entrega sai amanhã de manhã, confirmo por aqui.';
/** More in flight than this per process means the server has fallen behind: stop adding load. */
const MAX_IN_FLIGHT = 3000;

function onMessage(payload: { clientId?: string | null }) {
  const p = payload.clientId ? pending.get(payload.clientId) : undefined;
  if (!p) return;
  if (--p.left === 0) {
    latencies.push(performance.now() - p.t0);
    completed++;
    pending.delete(payload.clientId!);
  }
}

async function open(member: Conv['members'][number], conv: Conv): Promise<Socket> {
  const socket =
    mode === 'app'
      ? connect(url, { transports: ['websocket'], extraHeaders: { cookie: member.cookie }, reconnection: false })
      : connect(url, { transports: ['websocket'], auth: { room: conv.id }, reconnection: false });
  socket.on('message:new', onMessage);
  await new Promise<void>((resolve, reject) => {
    socket.once(mode === 'app' ? 'session:ready' : 'relay:ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

let failed = 0;
let firstError: string | undefined;

async function sendOne(conv: Conv, authorIdx: number) {
  const clientId = `b${process.pid}-${++seq}`;
  const author = conv.members[authorIdx % conv.members.length]!;
  const t0 = performance.now();
  pending.set(clientId, { t0, left: conv.members.length });
  try {
    if (via === 'socket') {
      const socket = socketOf.get(conv.id)![authorIdx % conv.members.length]!;
      const payload = mode === 'app' ? { domain, conversationId: conv.id, clientId, text: TEXT } : { conversationId: conv.id, clientId, authorId: author.userId, text: TEXT };
      const ack = (await socket.timeout(10_000).emitWithAck(mode === 'app' ? 'chat:send' : 'send', payload)) as { ok: boolean; error?: string };
      httpLatencies.push(performance.now() - t0);
      if (!ack.ok) throw new Error(ack.error);
      return;
    }
    const res =
      mode === 'app'
        ? await fetch(`${url}/trpc/chat.send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: author.cookie },
            body: JSON.stringify({ json: { domain, conversationId: conv.id, clientId, text: TEXT } }),
          })
        : await fetch(`${url}/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ conversationId: conv.id, clientId, authorId: author.userId, text: TEXT }),
          });
    const body = await res.text();
    httpLatencies.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${res.status} ${body.slice(0, 200)}`);
  } catch (err) {
    failed++;
    firstError ??= String(err);
    pending.delete(clientId);
  }
}

async function step(rate: number, durationMs: number, drainMs: number) {
  latencies = [];
  httpLatencies = [];
  completed = 0;
  failed = 0;
  firstError = undefined;
  let sent = 0;
  let shed = 0;
  let next = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - t0;
      const due = Math.floor((Math.min(elapsed, durationMs) * rate) / 1000) - sent - shed;
      for (let i = 0; i < due; i++) {
        if (pending.size >= MAX_IN_FLIGHT) {
          shed++;
          continue;
        }
        const conv = conversations[next % conversations.length]!;
        void sendOne(conv, Math.floor(next / conversations.length));
        next++;
        sent++;
      }
      if (elapsed >= durationMs) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const drainEnd = performance.now() + drainMs;
  while (pending.size > 0 && performance.now() < drainEnd) await new Promise((r) => setTimeout(r, 20));
  // What never arrived within the drain counts as lost for this step (and as over-the-limit latency).
  const lost = pending.size;
  pending.clear();
  send({ type: 'stepDone', latencies, httpLatencies, sent, completed, failed, shed, lost, firstError });
}

process.on('message', async (m: ToClient) => {
  if (m.type === 'init') {
    ({ mode, via, url, domain, conversations } = m);
    // A few at a time: a thousand simultaneous handshakes would measure the connect storm instead.
    const all = conversations.flatMap((c) => c.members.map((member, idx) => ({ member, c, idx })));
    for (let i = 0; i < all.length; i += 25) {
      const batch = all.slice(i, i + 25);
      const opened = await Promise.all(batch.map(({ member, c }) => open(member, c)));
      opened.forEach((socket, j) => {
        const { c, idx } = batch[j]!;
        const list = socketOf.get(c.id) ?? [];
        list[idx] = socket;
        socketOf.set(c.id, list);
      });
      sockets.push(...opened);
    }
    send({ type: 'ready', sockets: sockets.length });
  } else if (m.type === 'step') {
    await step(m.rate, m.durationMs, m.drainMs);
  } else if (m.type === 'close') {
    for (const s of sockets) s.close();
    process.exit(0);
  }
});

// The benchmark process went away (finished or crashed): nothing left to measure for.
process.on('disconnect', () => process.exit(0));
