import { describe, expect, it } from 'vitest';
import { checkContact, csvCell, mapColumns, mergeContactData, rowToInput, type ContactData } from '../../src/shared/domain/contacts';
import { mayChangeFeedItem, unreadBadge } from '../../src/shared/domain/feeds';
import { linkify } from '../../src/shared/domain/links';
import { parseNoteDoc } from '../../src/shared/domain/note-doc';

describe('text with links', () => {
  it('makes http(s) and www addresses links, leaves the rest (and script schemes) as text', () => {
    expect(linkify('veja https://a.com/x?y=1, e www.b.org. ok')).toEqual([
      { kind: 'text', text: 'veja ' },
      { kind: 'link', text: 'https://a.com/x?y=1', href: 'https://a.com/x?y=1' },
      { kind: 'text', text: ', e ' },
      { kind: 'link', text: 'www.b.org', href: 'https://www.b.org/' },
      { kind: 'text', text: '. ok' },
    ]);
    expect(linkify('javascript:alert(1) <b>x</b>')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <b>x</b>' }]);
    expect(linkify('(https://en.wikipedia.org/wiki/A_(b))')[1]).toMatchObject({ href: 'https://en.wikipedia.org/wiki/A_(b)' });
  });

  it('caps the badge at 99+ and lets the author or an admin of the post company change it', () => {
    expect([0, 5, 99, 100].map(unreadBadge)).toEqual([null, '5', '99', '99+']);
    const post = { authorId: 'u1', companyId: 'c1' };
    expect(mayChangeFeedItem(post, { userId: 'u1', adminOf: null })).toBe(true);
    expect(mayChangeFeedItem(post, { userId: 'u2', adminOf: 'c1' })).toBe(true);
    expect(mayChangeFeedItem(post, { userId: 'u2', adminOf: 'c2' })).toBe(false);
  });
});

describe('note documents', () => {
  it('keeps known nodes and marks, drops unknown attributes, refuses anything else', () => {
    const r = parseNoteDoc({ type: 'doc', content: [{ type: 'paragraph', attrs: { style: 'x' }, content: [{ type: 'text', text: 'a', marks: [{ type: 'italic', attrs: { x: 1 } }] }] }] });
    expect(r).toEqual({ ok: true, doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a', marks: [{ type: 'italic' }] }] }] }, text: 'a' });
    expect(parseNoteDoc({ type: 'doc', content: [{ type: 'image', attrs: { src: 'x' } }] }).ok).toBe(false);
    expect(parseNoteDoc({ type: 'doc', content: [{ type: 'text', text: 'loose' }] }).ok).toBe(false);
    let deep: unknown = { type: 'paragraph' };
    for (let i = 0; i < 40; i++) deep = { type: 'blockquote', content: [deep] };
    expect(parseNoteDoc({ type: 'doc', content: [deep] }).ok).toBe(false);
  });
});

describe('contacts', () => {
  const extras = [{ tag: 'PLANO', name: 'Plano', multipleChoice: true, options: ['Ouro'] }];
  it('maps CSV headers in any language and by additional field, and checks each row', () => {
    const columns = mapColumns(['Nome', 'E-mail', 'Telefone', 'Empresa', 'plano', 'Outra'], extras);
    expect(columns.map((c) => (c.kind === 'base' ? c.key : c.kind === 'field' ? c.tag : '-'))).toEqual(['name', 'email', 'phone', 'organization', 'PLANO', '-']);
    const ok = checkContact(rowToInput(['Ana', 'ANA@x.com', '(11) 3333-4444', 'Loja', 'Ouro', 'ignored'], columns), extras);
    expect(ok).toEqual({ ok: true, contact: { name: 'Ana', email: 'ana@x.com', phone: '551133334444', organization: 'Loja', fields: { PLANO: 'Ouro' }, tags: [], notes: '' } });
    expect(checkContact({ name: 'B', fields: { PLANO: 'Prata' } }, extras)).toEqual({ ok: false, errors: { 'fields.PLANO': 'Choose one of the options' } });
  });

  it('merges with the kept record winning, and writes CSV cells spreadsheets will not run', () => {
    const a: ContactData & { userIds: string[] } = { name: 'A', email: null, phone: '1', organization: '', fields: { X: 'a' }, tags: ['t'], notes: 'n1', userIds: ['u1'] };
    const b: ContactData & { userIds: string[] } = { name: 'B', email: 'b@x.com', phone: '2', organization: 'Org', fields: { X: 'b', Y: 'y' }, tags: ['t', 's'], notes: 'n2', userIds: ['u2'] };
    expect(mergeContactData(a, b)).toEqual({ name: 'A', email: 'b@x.com', phone: '1', organization: 'Org', fields: { X: 'a', Y: 'y' }, tags: ['t', 's'], notes: 'n1\n\nn2', userIds: ['u1', 'u2'] });
    expect(['=1+1', '@SUM(A1)', 'a,b', 'plain'].map(csvCell)).toEqual(["'=1+1", "'@SUM(A1)", '"a,b"', 'plain']);
  });
});
