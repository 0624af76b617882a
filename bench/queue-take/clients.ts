/**
 * A client process of queue-take (child_process.fork): its share of the attendants, their desks'
 * Socket.IO connections (which receive every take's queue:removed push, as the browsers would) and
 * their takes, so decoding those pushes and making the requests costs this process, not the server's.
 */
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { trpc } from '../lib/http';
import { race, type RaceOutcome } from './race';

export interface Attendant {
  id: string;
  cookie: string;
}
export type ToClient =
  | { type: 'open'; url: string; attendants: Attendant[] }
  | { type: 'race'; via: 'socket' | 'http'; url: string; domain: string; ids: string[]; attendants: Attendant[] }
  /** A request another process's attendants learned is taken. */
  | { type: 'known'; id: string }
  | { type: 'closeDesks' }
  | { type: 'close' };
export type FromClient = { type: 'ready'; sockets: number } | { type: 'known'; id: string } | ({ type: 'raced'; cpuMs: number } & RaceOutcome) | { type: 'closed' };

type DeskSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const send = (m: FromClient) => process.send!(m);
const deskOf = new Map<string, DeskSocket>();
let known = new Set<string>();

async function openDesk(url: string, cookie: string): Promise<DeskSocket> {
  const socket: DeskSocket = connect(url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('session:ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function runRace(m: Extract<ToClient, { type: 'race' }>) {
  known = new Set();
  const cookies = new Map(m.attendants.map((a) => [a.id, a.cookie]));
  const take =
    m.via === 'socket'
      ? async (attendant: string, id: string) => {
          const ack = await deskOf.get(attendant)!.timeout(30_000).emitWithAck('service:take', { domain: m.domain, conversationId: id });
          return ack.ok ? 'won' : ack.httpStatus === 409 ? 'conflict' : `${ack.httpStatus} ${ack.error}`;
        }
      : async (attendant: string, id: string) => {
          const r = await trpc(m.url, 'service.take', { domain: m.domain, conversationId: id }, { cookie: cookies.get(attendant) });
          return r.ok ? 'won' : r.code === 'CONFLICT' ? 'conflict' : `${r.status} ${r.code}: ${r.message}`;
        };
  const cpu0 = process.cpuUsage();
  const outcome = await race(m.ids, [...cookies.keys()], take, known, (id) => send({ type: 'known', id }));
  const cpu = process.cpuUsage(cpu0);
  send({ type: 'raced', cpuMs: (cpu.user + cpu.system) / 1000, ...outcome });
}

process.on('message', async (m: ToClient) => {
  if (m.type === 'open') {
    for (const a of m.attendants) deskOf.set(a.id, await openDesk(m.url, a.cookie));
    send({ type: 'ready', sockets: deskOf.size });
  } else if (m.type === 'race') await runRace(m);
  else if (m.type === 'known') known.add(m.id);
  else if (m.type === 'closeDesks') {
    for (const d of deskOf.values()) d.disconnect();
    deskOf.clear();
    send({ type: 'closed' });
  } else if (m.type === 'close') {
    for (const d of deskOf.values()) d.disconnect();
    process.exit(0);
  }
});

// The benchmark process went away (finished or crashed): nothing left to race for.
process.on('disconnect', () => process.exit(0));
