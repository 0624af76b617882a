import { describe, expect, it } from 'vitest';
import { fillReply, matchReplies, replyQueryAt, SAVED_REPLY_SHORTCUT } from '../../src/shared/domain/saved-replies';
import { replySaveInput } from '../../src/shared/schemas/replies';

const replies = [
  { shortcut: 'greeting', title: 'Hello', text: 'Hello {customer}, how can I help?' },
  { shortcut: 'bye', title: 'Goodbye', text: 'Thank you for contacting {company}!' },
  { shortcut: 'refund-policy', title: 'Devolução', text: 'Refunds take up to 7 days.' },
  { shortcut: 'pix', title: 'Pagamento', text: 'Nossa chave é...' },
];

describe('saved replies', () => {
  it('finds the "/query" before the caret only at the start or after a space', () => {
    expect(replyQueryAt('/gre', 4)).toEqual({ start: 0, query: 'gre' });
    expect(replyQueryAt('ok /by', 6)).toEqual({ start: 3, query: 'by' });
    expect(replyQueryAt('/', 1)).toEqual({ start: 0, query: '' });
    expect(replyQueryAt('and/or', 6)).toBeNull();
    expect(replyQueryAt('/gre tail', 9)).toBeNull();
    expect(replyQueryAt('http://x', 8)).toBeNull();
  });

  it('ranks shortcut prefix, then shortcut, then title or text; accents and case ignored', () => {
    expect(matchReplies(replies, '').map((r) => r.shortcut)).toEqual(['bye', 'greeting', 'pix', 'refund-policy']);
    expect(matchReplies(replies, 'p').map((r) => r.shortcut)).toEqual(['pix', 'refund-policy', 'bye', 'greeting']);
    expect(matchReplies(replies, 'DEVOLUCAO').map((r) => r.shortcut)).toEqual(['refund-policy']);
    expect(matchReplies(replies, 'policy').map((r) => r.shortcut)).toEqual(['refund-policy']);
    expect(matchReplies(replies, 'zzz')).toEqual([]);
    expect(matchReplies(replies, '', 2)).toHaveLength(2);
  });

  it('fills {customer} with the first name, {me} and {company}; a missing value leaves no gap', () => {
    expect(fillReply('Hello {customer}, how can I help?', { customer: 'Ana Souza' })).toBe('Hello Ana, how can I help?');
    expect(fillReply('Hello {customer}, how can I help?', {})).toBe('Hello, how can I help?');
    expect(fillReply('{me} from {company} here.', { me: 'Bia', company: 'Acme' })).toBe('Bia from Acme here.');
    expect(fillReply('Price: {price}', { customer: 'Ana' })).toBe('Price: {price}');
  });

  it('takes shortcuts as typed, without the slash, in lowercase; refuses spaces and symbols', () => {
    expect(replySaveInput.parse({ domain: 'acme', shortcut: '/Greeting', text: ' Hi ' })).toMatchObject({ shortcut: 'greeting', text: 'Hi', title: '' });
    for (const bad of ['', 'two words', 'ação', '-x', 'a'.repeat(31)]) {
      expect(replySaveInput.safeParse({ domain: 'acme', shortcut: bad, text: 'x' }).success, bad).toBe(false);
    }
    expect(SAVED_REPLY_SHORTCUT.test('a_1-b')).toBe(true);
    expect(replySaveInput.safeParse({ domain: 'acme', shortcut: 'x', text: '   ' }).success).toBe(false);
  });
});
