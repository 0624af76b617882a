/**
 * chat.contacts: the colleague list any member (not only an administrator) starts chats and adds
 * participants from — accepted, active members of the same company, never another company's;
 * its search ignores case and accents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallError, team, type ClientSocket } from '../helpers/chat';
import { addMember, createUser } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

type Page = { items: { userId: string; name: string; hasAvatar: boolean }[]; nextCursor: string | null };

describe('chat.contacts', () => {
  it('gives a plain member the accepted, active colleagues of this company, by name, without me', async () => {
    const { company, people } = await team(server, sockets, 3, ['Owner Zeta', 'Mara Membro', 'Bruno Lima']);
    const mara = people[1];
    for (const [name, state] of [
      ['Pedro Pendente', { inviteAccepted: false }],
      ['Beatriz Bloqueada', { blocked: true }],
      ['Rita Removida', { removed: true }],
    ] as const) {
      const u = await createUser(server.db, { name });
      await addMember(server.db, company.id, u.id, state);
    }
    // Someone of another company, with a matching name: never listed here.
    const other = await team(server, sockets, 2, ['Other Owner', 'Bruno Outro']);

    const page = await mara.query<Page>('chat.contacts');
    expect(page.items.map((c) => c.name)).toEqual(['Bruno Lima', 'Owner Zeta']);
    expect(page.items[0]).toEqual({ userId: people[2]!.userId, name: 'Bruno Lima', hasAvatar: false });
    expect(page.nextCursor).toBeNull();

    expect((await mara.query<Page>('chat.contacts', { q: 'bru' })).items.map((c) => c.name)).toEqual(['Bruno Lima']);
    expect((await other.people[1].query<Page>('chat.contacts', { q: 'bru' })).items).toEqual([]);
  });

  it('finds names ignoring accents and case both ways, and treats % and _ as plain text', async () => {
    const { company, people } = await team(server, sockets, 1, ['Me']);
    for (const name of ['João Ângelo', 'Joana Silva', 'Conceição Araújo', 'Ana_Maria 100%']) await addMember(server.db, company.id, (await createUser(server.db, { name })).id, { inviteAccepted: true });
    const names = async (q: string) => (await people[0].query<Page>('chat.contacts', { q })).items.map((c) => c.name);
    expect(await names('Joao')).toEqual(['João Ângelo']);
    expect(await names('JOÃO')).toEqual(['João Ângelo']);
    expect(await names('angelo')).toEqual(['João Ângelo']);
    expect(await names('conceicao araujo')).toEqual(['Conceição Araújo']);
    expect((await names('joa')).sort()).toEqual(['Joana Silva', 'João Ângelo']);
    expect(await names('%')).toEqual(['Ana_Maria 100%']);
    expect(await names('a_m')).toEqual(['Ana_Maria 100%']);
    expect(await names('zzz')).toEqual([]);
  });

  it('pages through a long list with a cursor, each colleague once', async () => {
    const { company, people } = await team(server, sockets, 1, ['Me']);
    const names = Array.from({ length: 7 }, (_, i) => `Colega ${String.fromCharCode(65 + i)}`);
    for (const name of names) await addMember(server.db, company.id, (await createUser(server.db, { name })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page: Page = await people[0].query<Page>('chat.contacts', { limit: 3, ...(cursor && { cursor }) });
      seen.push(...page.items.map((c) => c.name));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(names);
  });

  it("refuses another company's member, and a limit past the page size", async () => {
    const a = await team(server, sockets, 1, ['A']);
    const b = await team(server, sockets, 1, ['B']);
    await expect(b.people[0].query('chat.contacts', { domain: a.company.domain })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(a.people[0].query('chat.contacts', { limit: 1000 })).rejects.toBeInstanceOf(CallError);
  });
});
