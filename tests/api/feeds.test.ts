/**
 * Feeds: who sees a post (the company, its network of accepted client companies, the public),
 * newest first and live over the socket, the unread count from User.lastFeedTimestamp, comments
 * and reactions, who may change or remove, images uploaded and attached, and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { startTestServer, type TestServer } from '../helpers/server';
import { record, serviceCompany, until, type ClientSocket, type Person } from '../helpers/service';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
const sockets: ClientSocket[] = [];
const clock = offsetClock();
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const company = () => serviceCompany(server, sockets);
const png = (size: number) => {
  const b = Buffer.alloc(size, 7);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(b);
  return b;
};

async function upload(p: Person, domain: string, name: string, body: Buffer, type = 'application/octet-stream') {
  const res = await fetch(`${server.url}/uploads/feed/${domain}?name=${encodeURIComponent(name)}`, { method: 'PUT', headers: { cookie: p.cookie, 'content-type': type }, body: new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** Company A with client B (accepted) and C (invited, not accepted). */
async function network() {
  const a = await company();
  const b = await company();
  const c = await company();
  await a.admin.call('clients.invite', { domain: a.domain, clientDomain: b.domain, email: 'b@example.test' });
  await b.admin.call('clients.accept', { domain: b.domain, originDomain: a.domain });
  await a.admin.call('clients.invite', { domain: a.domain, clientDomain: c.domain, email: 'c@example.test' });
  return { a, b, c };
}

const texts = (list: { items: { text: string }[] }) => list.items.map((p) => p.text);

describe('who sees a post', () => {
  it('company posts stay in the company; network posts reach accepted clients; other posts are not found', async () => {
    const { a, b, c } = await network();
    const ana = await a.attendant('Ana');
    await ana.call('feeds.create', { domain: a.domain, text: 'só a empresa', audience: '_empresa_' });
    clock.advance(1000);
    const net = await ana.call('feeds.create', { domain: a.domain, text: 'para a rede', audience: '_rede_' });
    clock.advance(1000);
    await b.admin.call('feeds.create', { domain: b.domain, text: 'post de B', audience: '_rede_' });

    // A sees its own two, newest first; not B's (A is not B's client).
    expect(texts(await ana.call('feeds.list', { domain: a.domain }, 'query'))).toEqual(['para a rede', 'só a empresa']);
    // B sees its own and A's network post, marked as from the network.
    const bFeed = await b.admin.call('feeds.list', { domain: b.domain }, 'query');
    expect(texts(bFeed)).toEqual(['post de B', 'para a rede']);
    expect(bFeed.items[1]).toMatchObject({ fromNetwork: true, company: { domain: a.domain }, canChange: false });
    // Filters by audience: the route /i/recent/feeds/_empresa_ shows only the company's own.
    expect(texts(await b.admin.call('feeds.list', { domain: b.domain, audience: '_empresa_' }, 'query'))).toEqual([]);
    expect(texts(await b.admin.call('feeds.list', { domain: b.domain, audience: '_rede_' }, 'query'))).toEqual(['post de B', 'para a rede']);
    // C never accepted: nothing of A.
    expect(texts(await c.admin.call('feeds.list', { domain: c.domain }, 'query'))).toEqual([]);
    expect((await c.admin.attempt('feeds.post', { domain: c.domain, postId: net.id }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Post not found' });
    // B's admin cannot change A's post, even though B sees it.
    expect((await b.admin.attempt('feeds.remove', { domain: b.domain, postId: net.id })).error).toMatchObject({ code: 'FORBIDDEN' });
    // Naming A while being a member of B only: refused by membership.
    expect((await b.admin.attempt('feeds.list', { domain: a.domain }, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it('a public post is on the company site for anyone; a private one is "not found" there', async () => {
    const a = await company();
    const pub = await a.admin.call('feeds.create', { domain: a.domain, text: 'Abrimos sábado! https://example.com/horario', audience: '_empresa_', isPublic: true });
    const priv = await a.admin.call('feeds.create', { domain: a.domain, text: 'interno', audience: '_rede_' });
    const anon = await callProcedure(server.url, 'feeds.publicPost', { domain: a.domain, postId: pub.id });
    expect(anon.data).toMatchObject({ id: pub.id, text: 'Abrimos sábado! https://example.com/horario', company: { domain: a.domain }, authorName: 'Ana Admin' });
    expect((anon.data as any).comments).toBeUndefined();
    const hidden = await callProcedure(server.url, 'feeds.publicPost', { domain: a.domain, postId: priv.id });
    expect(hidden.error).toMatchObject({ code: 'NOT_FOUND', message: 'Post not found' });
    // The right post under another company's domain does not exist either.
    const other = await company();
    expect((await callProcedure(server.url, 'feeds.publicPost', { domain: other.domain, postId: pub.id })).error?.code).toBe('NOT_FOUND');
    // Unpublishing takes it off the site.
    await a.admin.call('feeds.edit', { domain: a.domain, postId: pub.id, text: 'Abrimos sábado!', isPublic: false });
    expect((await callProcedure(server.url, 'feeds.publicPost', { domain: a.domain, postId: pub.id })).error?.code).toBe('NOT_FOUND');
  });
});

describe('live and unread', () => {
  it('a new post reaches colleagues and network clients live, and counts as unread until they look', async () => {
    const { a, b } = await network();
    const bia = await a.attendant('Bia');
    const carlos = await a.attendant('Carlos');
    const biaEvents = record(await bia.open(), 'feed:changed');
    const bEvents = record(await b.admin.open(), 'feed:changed');
    const carlosSeen = record(await carlos.open(), 'feed:seen');
    await bia.call('feeds.markSeen', { domain: a.domain });
    await carlos.call('feeds.markSeen', { domain: a.domain });
    await b.admin.call('feeds.markSeen', { domain: b.domain });
    clock.advance(1000);

    const post = await carlos.call('feeds.create', { domain: a.domain, text: 'Reunião às 10h', audience: '_empresa_' });
    await until(() => biaEvents.some((e) => e.postId === post.id));
    expect(biaEvents.find((e) => e.postId === post.id)).toEqual({ postId: post.id, change: 'new', authorId: carlos.userId });
    expect((await bia.call('feeds.unread', { domain: a.domain }, 'query')).count).toBe(1);
    // One's own post is never unread.
    expect((await carlos.call('feeds.unread', { domain: a.domain }, 'query')).count).toBe(0);
    // A company post does not reach the client company.
    expect(bEvents).toEqual([]);
    expect((await b.admin.call('feeds.unread', { domain: b.domain }, 'query')).count).toBe(0);

    clock.advance(1000);
    const net = await carlos.call('feeds.create', { domain: a.domain, text: 'Para todos os clientes', audience: '_rede_' });
    await until(() => bEvents.some((e) => e.postId === net.id));
    expect((await b.admin.call('feeds.unread', { domain: b.domain }, 'query')).count).toBe(1);
    expect((await bia.call('feeds.unread', { domain: a.domain }, 'query')).count).toBe(2);

    clock.advance(1000);
    await bia.call('feeds.markSeen', { domain: a.domain });
    expect((await bia.call('feeds.unread', { domain: a.domain }, 'query')).count).toBe(0);
    const row = await server.db.user.findUniqueOrThrow({ where: { id: bia.userId } });
    // The app's clock (moved ahead by the test), not the machine's.
    expect(Math.abs(row.lastFeedTimestamp!.getTime() - clock.now().getTime())).toBeLessThan(5_000);
    expect(row.lastFeedTimestamp!.getTime() - Date.now()).toBeGreaterThan(2_000);
    // Carlos's other tabs hear about his own "seen".
    await carlos.call('feeds.markSeen', { domain: a.domain });
    await until(() => carlosSeen.length >= 2);
  });
});

describe('comments, reactions, changes', () => {
  it('anyone who sees a post comments and reacts; the author or an admin of the company changes or removes; others cannot', async () => {
    const a = await company();
    const author = await a.attendant('Autor');
    const other = await a.attendant('Outro');
    const post = await author.call('feeds.create', { domain: a.domain, text: 'Olá', audience: '_empresa_' });
    const { id: commentId } = await other.call('feeds.comment', { domain: a.domain, postId: post.id, text: 'Bem-vindo!' });
    expect(await other.call('feeds.react', { domain: a.domain, postId: post.id, emoji: '👍' })).toEqual({ reacted: true });
    await author.call('feeds.react', { domain: a.domain, postId: post.id, emoji: '👍' });
    await author.call('feeds.react', { domain: a.domain, postId: post.id, emoji: '🎉' });
    expect(await author.call('feeds.react', { domain: a.domain, postId: post.id, emoji: '🎉' })).toEqual({ reacted: false });
    const seen = await other.call('feeds.post', { domain: a.domain, postId: post.id }, 'query');
    expect(seen.reactions).toEqual([{ emoji: '👍', count: 2, mine: true }]);
    expect(seen.comments).toMatchObject([{ id: commentId, text: 'Bem-vindo!', authorName: 'Outro', canChange: true }]);
    expect(seen.canChange).toBe(false);
    expect((await other.attempt('feeds.react', { domain: a.domain, postId: post.id, emoji: '<script>' })).error?.code).toBe('BAD_REQUEST');

    expect((await other.attempt('feeds.edit', { domain: a.domain, postId: post.id, text: 'hack' })).error).toMatchObject({ code: 'FORBIDDEN', message: 'Only the author or an administrator can change this' });
    expect((await author.attempt('feeds.removeComment', { domain: a.domain, commentId })).error?.code).toBe('FORBIDDEN');
    await author.call('feeds.edit', { domain: a.domain, postId: post.id, text: 'Olá a todos' });
    expect((await other.call('feeds.post', { domain: a.domain, postId: post.id }, 'query')).editedAt).not.toBeNull();
    // The admin moderates: removes the comment and the post (with its comments and reactions).
    await a.admin.call('feeds.removeComment', { domain: a.domain, commentId });
    await a.admin.call('feeds.remove', { domain: a.domain, postId: post.id });
    expect(await server.db.feedReaction.count({ where: { postId: post.id } })).toBe(0);
    expect((await author.attempt('feeds.post', { domain: a.domain, postId: post.id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await author.attempt('feeds.create', { domain: a.domain, text: '   ', audience: '_empresa_' })).error?.message).toBe('Write something or add an image or a file');
  });
});

describe('images and files', () => {
  it('uploads an image and a file, attaches them to a post, serves them, and removes them with the post', async () => {
    const a = await company();
    const ana = await a.attendant('Ana');
    const image = await upload(ana, a.domain, 'foto.png', png(20_000), 'text/html');
    expect(image).toMatchObject({ status: 200, body: { name: 'foto.png', size: 20_000, mime: 'image/png', isImage: true } });
    const file = await upload(ana, a.domain, '../relatório.pdf', Buffer.from('%PDF-1.4 fake'), 'application/pdf');
    expect(file.body).toMatchObject({ name: 'relatório.pdf', isImage: false, mime: 'application/pdf' });
    // Someone else cannot attach Ana's uploads.
    const bia = await a.attendant('Bia');
    expect((await bia.attempt('feeds.create', { domain: a.domain, text: 'x', audience: '_empresa_', attachmentIds: [image.body.id] })).error?.message).toBe(
      'An attached file is missing: add it again',
    );
    expect(await server.db.feedPost.count({ where: { companyId: a.company.id } })).toBe(0);

    const post = await ana.call('feeds.create', { domain: a.domain, text: '', audience: '_empresa_', attachmentIds: [image.body.id, file.body.id] });
    const seen = await bia.call('feeds.post', { domain: a.domain, postId: post.id }, 'query');
    expect(seen.attachments.map((f: any) => [f.name, f.isImage])).toEqual([
      ['foto.png', true],
      ['relatório.pdf', false],
    ]);
    const got = Buffer.from(await (await fetch(seen.attachments[0].url)).arrayBuffer());
    expect(got.equals(png(20_000))).toBe(true);
    const keys = (await server.db.feedAttachment.findMany({ where: { postId: post.id } })).map((f) => f.key);
    expect(keys[0]).toBe(`${a.domain}/feeds/${image.body.id}/foto.png`);
    await ana.call('feeds.remove', { domain: a.domain, postId: post.id });
    for (const key of keys) await expect(server.server.deps.storage.stat(key)).rejects.toThrow();

    // Outsiders cannot upload into the company; an empty body is refused.
    const other = await company();
    expect((await upload(other.admin, a.domain, 'x.png', png(100))).status).toBe(403);
    expect((await upload(ana, a.domain, 'x.txt', Buffer.alloc(0))).status).toBe(400);
  });
});
