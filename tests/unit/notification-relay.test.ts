import { describe, expect, it } from 'vitest';
import { readSoundSettings, relaysOutsideApp } from '../../src/shared/domain/notification-relay';

describe('relaysOutsideApp (Web Push and Telegram follow the sound/push settings)', () => {
  it('a queue notification goes out unless "notify me when a customer joins the queue" is off', () => {
    expect(relaysOutsideApp({ type: 'queueRequest' }, {})).toBe(true);
    expect(relaysOutsideApp({ type: 'queueRequest' }, { playNotificationFila: true })).toBe(true);
    expect(relaysOutsideApp({ type: 'queueRequest' }, { playNotificationFila: false })).toBe(false);
    // The other flags are about sounds in the app, not this notification.
    expect(relaysOutsideApp({ type: 'queueRequest' }, { playFila: false, playMessagensReceive: false })).toBe(true);
  });

  it('forcePush goes out whatever the settings say', () => {
    expect(relaysOutsideApp({ type: 'queueRequest', forcePush: true }, { playNotificationFila: false })).toBe(true);
  });

  it('kinds no setting governs always go out', () => {
    for (const type of ['transfer', 'slaAnswered', 'memberApproved', 'calendarReminder']) {
      expect(relaysOutsideApp({ type }, { playNotificationFila: false, playFila: false, playMessagensReceive: false })).toBe(true);
    }
  });

  it('reads stored settings: only booleans count, anything else is unset (allowed)', () => {
    expect(readSoundSettings({ playNotificationFila: false, playFila: 'no', other: 1 })).toEqual({ playNotificationFila: false });
    expect(readSoundSettings(null)).toEqual({});
    expect(readSoundSettings(['x'])).toEqual({});
    expect(relaysOutsideApp({ type: 'queueRequest' }, readSoundSettings({ playNotificationFila: 'false' }))).toBe(true);
  });
});
