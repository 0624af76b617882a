import { describe, expect, it } from 'vitest';
import { groupTitle, isDeleteConfirmation, parseRecentsSearch } from '../../src/shared/domain/conversations';
import { cleanMime, detectAudioType, detectChatImage, fileKey, sanitizeFileName } from '../../src/shared/domain/files';
import { estimateMessageBytes, quoteExcerpt, ticksFor } from '../../src/shared/domain/messages';
import { visiblePresence } from '../../src/shared/domain/presence';
import { formatProtocol, newProtocol, normalizeProtocolQuery } from '../../src/shared/domain/protocol';

describe('protocol numbers', () => {
  it('have 15 digits, never start with 0, and show as 5-5-5', () => {
    const p = newProtocol(() => 0);
    expect(p).toMatch(/^[1-9]\d{14}$/);
    expect(formatProtocol('123451234512345')).toBe('12345-12345-12345');
    expect(normalizeProtocolQuery('12345-12345-12345')).toBe('123451234512345');
  });
});

describe('messages', () => {
  it('estimate their stored size as the spec says, text in UTF-8', () => {
    expect(estimateMessageBytes({ text: '', path: 'acme/c/m', participants: 2 })).toBe(8 + 8 + 34 + 6);
    expect(estimateMessageBytes({ text: 'olá', path: '', participants: 0 })).toBe(8 + 34 + 2 + 4);
  });

  it('tick: sent, then delivered to all, then read by all', () => {
    expect(ticksFor(3, [{ deliveredSeq: 3, readSeq: 1 }, { deliveredSeq: 2, readSeq: 2 }])).toBe('sent');
    expect(ticksFor(3, [{ deliveredSeq: 3, readSeq: 1 }, { deliveredSeq: 4, readSeq: 2 }])).toBe('delivered');
    expect(ticksFor(3, [{ deliveredSeq: 3, readSeq: 3 }, { deliveredSeq: 4, readSeq: 9 }])).toBe('read');
    expect(ticksFor(1, [])).toBe('sent');
  });

});

describe('group titles', () => {
  it('show as many names as fit in about 30 characters, then ", +N"', () => {
    expect(groupTitle(['Ana', 'Bruno'])).toBe('Ana, Bruno');
    expect(groupTitle(['Alexandra Nogueira', 'Bartolomeu Dias', 'Cecília', 'Dora'])).toBe('Alexandra Nogueira, +3');
    expect(groupTitle(['Ana', 'Bia', 'Caio', 'Duda', 'Edu', 'Fábio', 'Gil'])).toBe('Ana, Bia, Caio, Duda, Edu, +2');
    expect(groupTitle(['A very long name that alone is too long', 'Bia'])).toBe('A very long name that alone i…, +1');
    expect(groupTitle([])).toBe('');
    expect(groupTitle(['', '  Ana '])).toBe('Ana');
  });
});

describe('deleting a conversation', () => {
  it('needs REMOVER typed, in any case, spaces around ignored', () => {
    for (const ok of ['REMOVER', 'remover', '  Remover  ']) expect(isDeleteConfirmation(ok)).toBe(true);
    for (const no of ['REMOVE', 'RE MOVER', '', 'REMOVERR']) expect(isDeleteConfirmation(no)).toBe(false);
  });
});

describe('recents search', () => {
  it('reads protocols without dashes and dates as DD/MM/YYYY', () => {
    expect(parseRecentsSearch('12345-67890-12345')).toEqual({ text: '12345-67890-12345', protocolDigits: '123456789012345', date: null });
    expect(parseRecentsSearch('boleto')).toMatchObject({ protocolDigits: null, date: null });
    expect(parseRecentsSearch('05/03/2026')).toMatchObject({ date: '2026-03-05' });
    expect(parseRecentsSearch('5/3/2026')).toMatchObject({ date: '2026-03-05' });
    expect(parseRecentsSearch('31/02/2026').date).toBeNull();
    expect(parseRecentsSearch('12').protocolDigits).toBeNull();
  });
});

describe('file names', () => {
  it('are one safe segment: no path, no reserved or control characters, no leading dots, at most 150 bytes', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\me\\re:port?.pdf')).toBe('report.pdf');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('.thumb')).toBe('thumb');
    expect(sanitizeFileName('a\u0000b\nc  d.txt')).toBe('abc d.txt');
    const long = sanitizeFileName(`${'ç'.repeat(200)}.jpeg`);
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(150);
    expect(long.endsWith('ç.jpeg')).toBe(true);
    expect(fileKey('acme', 'c1', 'm1', 'a b.png')).toBe('acme/c1/m1/a b.png');
  });

  it('are recognised by their bytes: recorder audio, images; declared types are cleaned', () => {
    expect(detectAudioType(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 1]))).toBe('audio/webm');
    expect(detectAudioType(new TextEncoder().encode('OggS....'))).toBe('audio/ogg');
    expect(detectAudioType(Uint8Array.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70]))).toBe('audio/mp4');
    expect(detectAudioType(new TextEncoder().encode('<html>'))).toBeNull();
    expect(detectChatImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(cleanMime('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(cleanMime('evil\r\nheader: x')).toBe('application/octet-stream');
    expect(cleanMime(undefined)).toBe('application/octet-stream');
  });
});

describe('presence', () => {
  it('shows the choice while connected; invisible and disconnected people look offline', () => {
    expect(visiblePresence('online', true)).toBe('online');
    expect(visiblePresence('occupied', true)).toBe('occupied');
    expect(visiblePresence('beRightBack', true)).toBe('beRightBack');
    expect(visiblePresence('invisible', true)).toBe('offline');
    expect(visiblePresence('occupied', false)).toBe('offline');
    expect(visiblePresence('whatever', true)).toBe('online');
  });
});

describe('reply quotes', () => {
  it('flatten whitespace and cut long texts with an ellipsis', () => {
    expect(quoteExcerpt('  a\n\nb  ')).toBe('a b');
    const q = quoteExcerpt('x'.repeat(500));
    expect(q).toHaveLength(120);
    expect(q.endsWith('…')).toBe(true);
  });
});
