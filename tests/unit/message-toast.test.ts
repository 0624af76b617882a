import { describe, expect, it } from 'vitest';
import { messageToast, TOAST_TEXT_MAX } from '../../src/client/features/chat/messageToast';

const message = { conversationId: 'c1', type: 'texto', text: 'Are you there?', file: null };
const elsewhere = { visible: true, reading: false, path: '/i/notes' };

describe('a toast for a message that arrives', () => {
  it('shows while the app is in view, elsewhere than that conversation', () => {
    expect(messageToast(message, elsewhere)).toEqual({ text: 'Are you there?' });
    expect(messageToast(message, { ...elsewhere, path: '/i/recent/chat/c2' })).toEqual({ text: 'Are you there?' });
  });

  it('not when the tab is hidden (the browser notification is for that), nor for the conversation on screen', () => {
    expect(messageToast(message, { ...elsewhere, visible: false })).toBeNull();
    expect(messageToast(message, { ...elsewhere, reading: true })).toBeNull();
    expect(messageToast(message, { ...elsewhere, path: '/i/recent/chat/c1' })).toBeNull();
    expect(messageToast(message, { ...elsewhere, path: '/i/recent/chat/c1/details' })).toBeNull();
  });

  it('not for info lines; a file by its name; a long text cut', () => {
    expect(messageToast({ ...message, type: 'info' }, elsewhere)).toBeNull();
    const file = { name: 'invoice.pdf', size: 1, mime: null, hasThumb: false, isRecording: false, durationMs: null };
    expect(messageToast({ ...message, text: '', file }, elsewhere)).toEqual({ text: 'invoice.pdf' });
    expect(messageToast({ ...message, text: '' }, elsewhere)).toEqual({ text: null });
    expect(messageToast({ ...message, text: 'x'.repeat(500) }, elsewhere)!.text).toHaveLength(TOAST_TEXT_MAX + 1);
  });
});
