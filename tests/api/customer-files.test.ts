/**
 * The visitor's messenger shows the files and images of their request: customer.fileLinks gives
 * links to the files they see (never a comment's), in a request they take part in only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousVisitor, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
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

const png = (size: number) => {
  const b = Buffer.alloc(size, 7);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(b);
  return b;
};
const jpegThumb = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(300, 1)]);

async function upload(p: Person, domain: string, conversationId: string, params: Record<string, string>, file: Buffer, opts: { thumb?: Buffer; type?: string } = {}) {
  const qs = new URLSearchParams({ ...params, ...(opts.thumb && { thumbBytes: String(opts.thumb.length) }) });
  const body = opts.thumb ? Buffer.concat([opts.thumb, file]) : file;
  const res = await fetch(`${server.url}/uploads/chat/${domain}/${conversationId}?${qs}`, {
    method: 'PUT',
    headers: { cookie: p.cookie, ...(opts.type && { 'content-type': opts.type }) },
    body: new Blob([new Uint8Array(body)]),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}
const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

describe('customer.fileLinks', () => {
  it("gives the visitor their request's files and thumbnails, never a comment's file, and nobody else's request", async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const visitor = await anonymousVisitor(server, sockets);
    const { conversationId } = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    await bia.call('service.take', { domain: c.domain, conversationId });

    const image = png(20_000);
    const shared = await upload(bia, c.domain, conversationId, { clientId: 'img1', name: 'print.png' }, image, { thumb: jpegThumb, type: 'image/png' });
    const internal = await upload(bia, c.domain, conversationId, { clientId: 'cm1', name: 'notes.txt', isComment: '1' }, Buffer.from('internal'), { type: 'text/plain' });

    const file = await visitor.call('customer.fileLinks', { conversationId, messageIds: [shared.id, internal.id] }, 'query');
    expect(file.links.map((l: { messageId: string }) => l.messageId)).toEqual([shared.id]);
    expect((await bytes(file.links[0].url)).equals(image)).toBe(true);
    const thumb = await visitor.call('customer.fileLinks', { conversationId, messageIds: [shared.id], variant: 'thumb' }, 'query');
    expect((await bytes(thumb.links[0].url)).equals(jpegThumb)).toBe(true);
    const saved = await fetch((await visitor.call('customer.fileLinks', { conversationId, messageIds: [shared.id], download: true }, 'query')).links[0].url);
    expect(saved.headers.get('content-disposition')).toContain('print.png');

    // Another visitor, not in this request, gets nothing.
    const stranger = await anonymousVisitor(server, sockets);
    const refused = await stranger.attempt('customer.fileLinks', { conversationId, messageIds: [shared.id] }, 'query');
    expect(refused.error?.code).toBe('FORBIDDEN');
    expect(refused.data).toBeUndefined();
    // Bad input is a clear refusal, never a 500.
    const bad = await visitor.attempt('customer.fileLinks', { conversationId, messageIds: [] }, 'query');
    expect(bad.error?.code).toBe('BAD_REQUEST');
  });
});
