import { io as connect, type Socket } from 'socket.io-client';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { addMember, createCompany, createUser, signIn } from './fixtures';
import { budget } from './time';
import type { TestServer } from './server';
import { callProcedure } from './trpc';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** An answer the server refused: its message, tRPC code and HTTP status. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

/** A signed-in person of a company, with the calls, uploads and sockets a browser tab would have. */
export async function person(server: TestServer, sockets: ClientSocket[], companyId: string, userId: string, domain: string) {
  const cookie = await signIn(server.db, userId);
  const call = async <T = any>(path: string, input: Record<string, unknown> = {}, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, { domain, ...input }, { cookie, type });
    if (res.error) throw new CallError(res.error.message, res.error.code, res.error.httpStatus);
    return res.data as T;
  };
  const query = <T = any>(path: string, input: Record<string, unknown> = {}) => call<T>(path, input, 'query');
  const open = async () => {
    const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
    sockets.push(socket);
    await new Promise((resolve) => socket.once('session:ready', resolve));
    return socket;
  };
  /** PUT /uploads/chat/...: the raw body, optional thumbnail first; answers status and JSON. */
  const upload = async (conversationId: string, params: Record<string, string>, file: Buffer, opts: { thumb?: Buffer; type?: string; domain?: string } = {}) => {
    const qs = new URLSearchParams({ ...params, ...(opts.thumb && { thumbBytes: String(opts.thumb.length) }) });
    const body = opts.thumb ? Buffer.concat([opts.thumb, file]) : file;
    const res = await fetch(`${server.url}/uploads/chat/${opts.domain ?? domain}/${conversationId}?${qs}`, {
      method: 'PUT',
      headers: { cookie, ...(opts.type && { 'content-type': opts.type }) },
      body: new Blob([new Uint8Array(body)]),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { userId, companyId, domain, cookie, call, query, open, upload };
}
export type Person = Awaited<ReturnType<typeof person>>;

/** A company whose owner (an admin) and `size - 1` members are signed in. */
export async function team(server: TestServer, sockets: ClientSocket[], size = 2, names: string[] = []) {
  const owner = await createUser(server.db, { name: names[0] ?? 'Owner' });
  const company = await createCompany(server.db, owner.id);
  const people = [await person(server, sockets, company.id, owner.id, company.domain)];
  for (let i = 1; i < size; i++) {
    const u = await createUser(server.db, { name: names[i] ?? `Member ${i}` });
    await addMember(server.db, company.id, u.id);
    people.push(await person(server, sockets, company.id, u.id, company.domain));
  }
  return { company, people: people as [Person, Person, ...Person[]] };
}

export const collect = <E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) => {
  const got: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => got.push(payload)) as never);
  return got;
};

export const messagesOf = (socket: ClientSocket) => collect(socket, 'message:new') as ChatMessageEvent[];

export const until = async (check: () => boolean, ms = budget(10_000)) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * A negative window, not a wait: proving that a push does NOT arrive needs some time for it to
 * show up. Waiting for something that should happen uses `until` / `expect.poll`; a window that is
 * too short under load can only let a bug through, never fail a correct build.
 */
export const settle = () => new Promise((r) => setTimeout(r, 250));
