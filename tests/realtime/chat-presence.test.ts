import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresenceEvent } from '../../src/shared/chat-events';
import { collect, settle, team, until, type ClientSocket } from '../helpers/chat';
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

const about = (events: PresenceEvent[], userId: string) => events.filter((e) => e.userId === userId).map((e) => e.status);

describe('presence', () => {
  it("announces the first tab online and the last one offline to the person's company, once each", async () => {
    const { people } = await team(server, sockets, 2, ['Ana', 'Bruno']);
    const [a, b] = people;
    const sb = await b.open();
    const seen = collect(sb, 'presence:update');

    const tabs = await Promise.all(Array.from({ length: 4 }, () => a.open()));
    await until(() => about(seen, a.userId).length === 1);
    await settle();
    expect(about(seen, a.userId)).toEqual(['online']);
    expect(await b.query('chat.presence', { userIds: [a.userId] })).toEqual([{ userId: a.userId, status: 'online' }]);

    tabs[0]!.disconnect();
    await settle();
    expect(about(seen, a.userId)).toEqual(['online']);
    for (const t of tabs.slice(1)) t.disconnect();
    await until(() => about(seen, a.userId).length === 2);
    await settle();
    expect(about(seen, a.userId)).toEqual(['online', 'offline']);
    expect(await b.query('chat.presence', { userIds: [a.userId] })).toEqual([{ userId: a.userId, status: 'offline' }]);
  });

  it('shows the chosen status; invisible looks offline to others, while my own tabs know the choice', async () => {
    const { people } = await team(server, sockets, 2, ['Ana', 'Bruno']);
    const [a, b] = people;
    const sa = await a.open();
    const sb = await b.open();
    const [mine, theirs] = [collect(sa, 'presence:update'), collect(sb, 'presence:update')];

    expect(await a.call('chat.setPresence', { status: 'occupied' })).toEqual({ choice: 'occupied', status: 'occupied' });
    await until(() => about(theirs, a.userId).includes('occupied'));
    await a.call('chat.setPresence', { status: 'invisible' });
    await until(() => about(theirs, a.userId).at(-1) === 'offline');
    await until(() => mine.some((e) => e.userId === a.userId && e.choice === 'invisible'));
    expect(mine.filter((e) => e.userId === a.userId).at(-1)).toEqual({ userId: a.userId, status: 'online', choice: 'invisible' });
    expect(await b.query('chat.presence', { userIds: [a.userId, b.userId] })).toEqual(
      expect.arrayContaining([
        { userId: a.userId, status: 'offline' },
        { userId: b.userId, status: 'online', choice: 'online' },
      ]),
    );
    await a.call('chat.setPresence', { status: 'beRightBack' });
    await until(() => about(theirs, a.userId).at(-1) === 'beRightBack');
    await expect(a.call('chat.setPresence', { status: 'away' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("tells nobody outside the person's companies and conversations, and answers nothing about them", async () => {
    const { people } = await team(server, sockets, 1, ['Ana']);
    const a = people[0];
    const other = await team(server, sockets, 1, ['Zed']);
    const z = other.people[0];
    const sz = await z.open();
    const seen = collect(sz, 'presence:update');
    await a.open();
    await a.call('chat.setPresence', { status: 'occupied' });
    await settle();
    expect(about(seen, a.userId)).toEqual([]);
    expect(await z.query('chat.presence', { userIds: [a.userId] })).toEqual([]);
    await expect(z.query('chat.presence', { domain: a.domain, userIds: [a.userId] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
