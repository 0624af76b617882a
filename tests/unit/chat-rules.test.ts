import { describe, expect, it } from 'vitest';
import { estimateMessageBytes, ticksFor } from '../../src/shared/domain/messages';
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
