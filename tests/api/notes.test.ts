/**
 * Notes: private by default, shared with colleagues to read or to edit, searchable (accents and
 * case ignored), stored as a checked TipTap/ProseMirror document (never HTML), with files; the
 * conversation annotations are listed beside them. Tenancy: another company's note does not exist.
 */
import { describe, expect, it } from 'vitest';
import type { NoteDoc } from '../../src/shared/domain/note-doc';
import type { TestServer } from '../helpers/server';
import { serverSuite } from '../helpers/suite';
import { record, serviceCompany, until, type Person } from '../helpers/service';

let server: TestServer;
const sockets = serverSuite((s) => (server = s));

const company = () => serviceCompany(server, sockets);
const doc = (...paragraphs: string[]): NoteDoc => ({ type: 'doc', content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) });

describe('privacy and sharing', () => {
  it('is private to its owner until shared; a reader cannot edit; an editor can; unsharing takes it away', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const { id } = await ana.call('notes.create', { domain: c.domain, title: 'Plano do trimestre', doc: doc('Ligar para os clientes antigos') });
    expect((await bia.attempt('notes.get', { domain: c.domain, noteId: id }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Note not found' });
    // Not even the admin reads someone's private note.
    expect((await c.admin.attempt('notes.get', { domain: c.domain, noteId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect(await bia.call('notes.list', { domain: c.domain }, 'query')).toEqual([]);

    const biaChanges = record(await bia.open(), 'note:changed');
    await ana.call('notes.share', { domain: c.domain, noteId: id, shares: [{ userId: bia.userId, canEdit: false }] });
    await until(() => biaChanges.some((e) => e.noteId === id && e.change === 'shared'));
    const shared = await bia.call('notes.list', { domain: c.domain, scope: 'shared' }, 'query');
    expect(shared).toMatchObject([{ id, title: 'Plano do trimestre', mine: false, ownerName: 'Ana', excerpt: 'Ligar para os clientes antigos' }]);
    expect(await bia.call('notes.list', { domain: c.domain, scope: 'mine' }, 'query')).toEqual([]);
    const read = await bia.call('notes.get', { domain: c.domain, noteId: id }, 'query');
    expect(read).toMatchObject({ mine: false, canEdit: false, doc: doc('Ligar para os clientes antigos') });
    expect((await bia.attempt('notes.update', { domain: c.domain, noteId: id, title: 'x', doc: doc('x') })).error).toMatchObject({ code: 'FORBIDDEN', message: 'This note was shared with you to read only' });
    expect((await bia.attempt('notes.share', { domain: c.domain, noteId: id, shares: [] })).error?.code).toBe('FORBIDDEN');
    expect((await bia.attempt('notes.remove', { domain: c.domain, noteId: id })).error?.code).toBe('FORBIDDEN');

    await ana.call('notes.share', { domain: c.domain, noteId: id, shares: [{ userId: bia.userId, canEdit: true }] });
    await bia.call('notes.update', { domain: c.domain, noteId: id, title: 'Plano do trimestre', doc: doc('Ligar para os clientes antigos', 'Bia: feito!') });
    await until(() => biaChanges.some((e) => e.change === 'updated'));
    expect((await ana.call('notes.get', { domain: c.domain, noteId: id }, 'query')).doc.content).toHaveLength(2);

    await ana.call('notes.share', { domain: c.domain, noteId: id, shares: [] });
    expect((await bia.attempt('notes.get', { domain: c.domain, noteId: id }, 'query')).error?.code).toBe('NOT_FOUND');

    // Only active colleagues of this company: not someone of another company.
    const other = await company();
    expect((await ana.attempt('notes.share', { domain: c.domain, noteId: id, shares: [{ userId: other.admin.userId, canEdit: false }] })).error?.message).toBe(
      'You can only share with active members of this company',
    );
    expect((await other.admin.attempt('notes.get', { domain: other.domain, noteId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('notes.get', { domain: c.domain, noteId: id }, 'query')).error?.code).toBe('FORBIDDEN');
  });
});

describe('search and document', () => {
  it('finds notes by words in the title or the text, ignoring accents and case', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    await ana.call('notes.create', { domain: c.domain, title: 'Reunião com fornecedor', doc: doc('Preço do café') });
    await ana.call('notes.create', { domain: c.domain, title: 'Lista', doc: doc('Comprar AÇÚCAR') });
    const find = async (q: string) => (await ana.call('notes.list', { domain: c.domain, q }, 'query')).map((n: { title: string }) => n.title);
    expect(await find('reuniao')).toEqual(['Reunião com fornecedor']);
    expect(await find('acucar')).toEqual(['Lista']);
    expect(await find('CAFE')).toEqual(['Reunião com fornecedor']);
    expect(await find('100%')).toEqual([]);
  });

  it('keeps rich text as a checked document: marks and links survive, HTML and script links are refused', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const rich: NoteDoc = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Título' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'negrito', marks: [{ type: 'bold' }] },
            { type: 'text', text: ' site', marks: [{ type: 'link', attrs: { href: 'https://example.com', target: '_blank', onclick: 'x' } as never }] },
          ],
        },
        { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }] }] },
      ],
    };
    const { id } = await ana.call('notes.create', { domain: c.domain, title: 'Rico', doc: rich });
    const saved = await ana.call('notes.get', { domain: c.domain, noteId: id }, 'query');
    // Unknown attributes are dropped, known ones kept.
    expect(saved.doc.content[1].content[1].marks).toEqual([{ type: 'link', attrs: { href: 'https://example.com' } }]);
    expect((await server.db.note.findUniqueOrThrow({ where: { id } })).text).toBe('Título\nnegrito site\nitem');

    const bad = [
      { type: 'doc', content: [{ type: 'html', text: '<img src=x onerror=alert(1)>' }] },
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }] }] },
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'paragraph' }] }] },
      '<p>hello</p>',
    ];
    for (const d of bad) {
      const res = await ana.attempt('notes.update', { domain: c.domain, noteId: id, title: 'Rico', doc: d });
      expect(res.error, JSON.stringify(d)).toMatchObject({ code: 'BAD_REQUEST' });
      expect(res.error?.message).toContain('The note could not be read');
    }
  });
});

describe('files and annotations', () => {
  it('keeps files with a note for who may edit it, and lists the conversation annotations of my conversations', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const { id } = await ana.call('notes.create', { domain: c.domain, title: 'Com anexo' });
    const put = (p: Person, body: Buffer) =>
      fetch(`${server.url}/uploads/note/${c.domain}/${id}?name=ata.txt`, { method: 'PUT', headers: { cookie: p.cookie, 'content-type': 'text/plain' }, body: new Uint8Array(body) });
    expect((await put(bia, Buffer.from('nope'))).status).toBe(404);
    const res = await put(ana, Buffer.from('ata da reunião'));
    expect(res.status).toBe(200);
    const file = (await res.json()) as { id: string };
    const note = await ana.call('notes.get', { domain: c.domain, noteId: id }, 'query');
    expect(note.attachments).toMatchObject([{ id: file.id, name: 'ata.txt', isImage: false }]);
    expect(await (await fetch(note.attachments[0].url)).text()).toBe('ata da reunião');
    await ana.call('notes.removeAttachment', { domain: c.domain, noteId: id, attachmentId: file.id });
    expect(await server.db.noteAttachment.count({ where: { noteId: id } })).toBe(0);

    // Annotations: of conversations Ana takes part in, not of others'.
    const { conversationId } = await ana.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    await bia.call('chat.addNote', { domain: c.domain, conversationId, text: 'Cliente prefere ligação à tarde' });
    const carla = await c.attendant('Carla');
    const other = await carla.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    await carla.call('chat.addNote', { domain: c.domain, conversationId: other.conversationId, text: 'Segredo da Carla' });
    const list = await ana.call('notes.annotations', { domain: c.domain }, 'query');
    expect(list).toMatchObject([{ conversationId, text: 'Cliente prefere ligação à tarde', authorName: 'Bia', mine: false }]);
    expect(await ana.call('notes.annotations', { domain: c.domain, q: 'TARDE' }, 'query')).toHaveLength(1);
    expect(await ana.call('notes.annotations', { domain: c.domain, q: 'segredo' }, 'query')).toHaveLength(0);
  });
});
