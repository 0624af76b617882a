/** The e-mail integration's pure rules: thread tags, Message-ID lists, routing by Integration, quoted text. */
import { describe, expect, it } from 'vitest';
import { cleanTags, protocolInSubject, replySubject, routeMail, stripQuoted, threadIds } from '../../src/shared/domain/email';

const P = '202611270000001';

describe('e-mail rules', () => {
  it('tags the subject once and answers with one "Re:"', () => {
    expect(replySubject('Orçamento', P)).toBe(`Re: Orçamento [#${P}]`);
    expect(replySubject(`RE: Fwd: re: Orçamento [#${P}]`, P)).toBe(`Re: Orçamento [#${P}]`);
    expect(replySubject('  ', P)).toBe(`Re: (no subject) [#${P}]`);
    expect(protocolInSubject(`Re: Orçamento [#${P}]`)).toBe(P);
    expect(protocolInSubject('Re: Orçamento [#123]')).toBeNull();
  });

  it('reads In-Reply-To and References, the one replied to first, without brackets or repeats', () => {
    expect(threadIds('<b@x>', '<a@x> <b@x>')).toEqual(['b@x', 'a@x']);
    expect(threadIds(undefined, ['<a@x>', '<c@x>'])).toEqual(['c@x', 'a@x']);
    expect(threadIds(undefined, undefined)).toEqual([]);
  });

  it('routes by the most specific Integration: tag and address, tag, address, catch-all', () => {
    const rules = [
      { id: 'any', email: '', tags: [], queueId: 'q0' },
      { id: 'addr', email: 'vendas@acme.test', tags: [], queueId: 'q1' },
      { id: 'tag', email: '', tags: ['[URGENTE]'], queueId: 'q2' },
      { id: 'both', email: 'vendas@acme.test', tags: ['[urgente]'], queueId: 'q3' },
    ];
    expect(routeMail(rules, ['Vendas@Acme.test'], '[URGENTE] pedido')?.id).toBe('both');
    expect(routeMail(rules, ['suporte@acme.test'], '[urgente] pedido')?.id).toBe('tag');
    expect(routeMail(rules, ['vendas@acme.test'], 'pedido')?.id).toBe('addr');
    expect(routeMail(rules, ['suporte@acme.test'], 'pedido')?.id).toBe('any');
    expect(routeMail(rules.slice(1), ['suporte@acme.test'], 'pedido')).toBeNull();
  });

  it('keeps a reply\'s own words, not the quoted history', () => {
    expect(stripQuoted('Sim.\n\nOn Mon, 1 Dec 2026 at 10:00, Acme wrote:\n> Pode?\n> ok')).toBe('Sim.');
    expect(stripQuoted('Sim.\n\nEm seg., 1 de dez. de 2026 às 10:00, Acme escreveu:\n> Pode?')).toBe('Sim.');
    expect(stripQuoted('Veja:\n> citado no meio\ncontinua')).toBe('Veja:\n> citado no meio\ncontinua');
    expect(stripQuoted('Sim.\n> Pode?\n>\n> ok\n')).toBe('Sim.');
  });

  it('cleans tags: trimmed, no blanks, no repeats regardless of case', () => {
    expect(cleanTags([' [A] ', '', '[a]', 'B'])).toEqual(['[A]', 'B']);
  });
});
