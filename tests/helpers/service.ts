import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { addMember, createUser, signIn } from './fixtures';
import type { TestServer } from './server';
import { callProcedure } from './trpc';
import { budget } from './time';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A signed-in person with the calls and the socket a browser tab would have. */
export interface Person {
  userId: string;
  cookie: string;
  /** Calls a procedure; throws the server's error (message, code) when it fails. */
  call<T = any>(path: string, input?: Record<string, unknown>, type?: 'query' | 'mutation'): Promise<T>;
  /** Same, answering the error instead of throwing. */
  attempt(path: string, input?: Record<string, unknown>, type?: 'query' | 'mutation'): Promise<{ data?: any; error?: { message: string; code: string; data: Record<string, unknown> } }>;
  open(): Promise<ClientSocket>;
}

let seq = 0;
const uniq = () => `${Date.now().toString(36).slice(-5)}${(++seq).toString(36)}`;

export function personFor(server: TestServer, userId: string, cookie: string, sockets: ClientSocket[]): Person {
  const attempt: Person['attempt'] = async (path, input = {}, type = 'mutation') => {
    const res = await callProcedure(server.url, path, input, { cookie, type });
    return { data: res.data, error: res.error };
  };
  return {
    userId,
    cookie,
    attempt,
    call: async (path, input = {}, type = 'mutation') => {
      const res = await attempt(path, input, type);
      if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code, data: res.error.data });
      return res.data;
    },
    open: async () => {
      const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
      sockets.push(socket);
      await new Promise((resolve) => socket.once('session:ready', resolve));
      return socket;
    },
  };
}

/**
 * A company registered through the real procedure (default groups 'member' and 'admin', queue
 * 'faleconosco' served by both, Contact Us), its admin, and a way to add attendants.
 */
export async function serviceCompany(server: TestServer, sockets: ClientSocket[], opts: { plan?: Record<string, number> } = {}) {
  const owner = await createUser(server.db, { name: 'Ana Admin' });
  const admin = personFor(server, owner.id, await signIn(server.db, owner.id), sockets);
  const domain = `sv${uniq()}`;
  // A Brazilian company: its starting texts are the spec's Portuguese ones (queue 'Fale Conosco', greeting).
  await admin.call('company.register', { domain, name: `Service ${domain}`, language: 'pt' });
  let company = await server.db.company.findUniqueOrThrow({ where: { domain } });
  if (opts.plan) company = await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), ...opts.plan } } });
  const groups = await server.db.group.findMany({ where: { companyId: company.id } });
  const queue = await server.db.queue.findFirstOrThrow({ where: { companyId: company.id, key: 'faleconosco' } });
  const group = (key: string) => groups.find((g) => g.key === key)!.id;
  return {
    domain,
    company,
    admin,
    queue,
    group,
    /** An accepted attendant, in the given groups (by id); none by default. */
    async attendant(name: string, opts: { groupIds?: string[]; isAdmin?: boolean } = {}): Promise<Person> {
      const user = await createUser(server.db, { name });
      const member = await addMember(server.db, company.id, user.id, { isAdmin: opts.isAdmin });
      if (opts.groupIds?.length) await server.db.groupMember.createMany({ data: opts.groupIds.map((groupId) => ({ groupId, memberId: member.id })) });
      return personFor(server, user.id, await signIn(server.db, user.id), sockets);
    },
  };
}

/** An anonymous visitor, signed in the way the browser's route guard does it. */
export async function anonymousVisitor(server: TestServer, sockets: ClientSocket[]): Promise<Person> {
  const res = await callProcedure(server.url, 'auth.anonymous', {}, { type: 'mutation' });
  const cookie = res.cookies[0]!;
  const me = res.data as { user: { id: string } };
  return personFor(server, me.user.id, cookie, sockets);
}

/** A signed-in customer with an e-mail (not a member of anything). */
export async function customer(server: TestServer, sockets: ClientSocket[], name = 'Carlos Cliente', email?: string): Promise<Person> {
  const user = await createUser(server.db, { name, email });
  return personFor(server, user.id, await signIn(server.db, user.id), sockets);
}

export const until = async (check: () => boolean | Promise<boolean>, ms = budget(10_000)) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

export function record<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  const got: Parameters<ServerToClientEvents[E]>[0][] = [];
  socket.on(event as any, (payload: any) => got.push(payload));
  return got;
}
