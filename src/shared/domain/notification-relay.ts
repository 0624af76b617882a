/**
 * Whether a notification leaves the app for Web Push and Telegram (spec 6, per-user settings:
 * playMessagensReceive, playFila and playNotificationFila "control sounds and push", allowed by
 * default if unset; spec 3, Notification.forcePush). The in-app list always keeps the row: the
 * flags govern what interrupts the person, not what is recorded for them.
 */

export interface NotificationSoundSettings {
  playMessagensReceive?: boolean;
  playFila?: boolean;
  playNotificationFila?: boolean;
}

/** The setting that governs each kind of notification; kinds not listed are governed by none. */
export const GOVERNING_SETTING: Readonly<Record<string, keyof NotificationSoundSettings>> = {
  // "Notify me when a customer joins the queue".
  queueRequest: 'playNotificationFila',
};

/** The person's settings as stored (a JSON object; anything else counts as "nothing set"). */
export function readSoundSettings(raw: unknown): NotificationSoundSettings {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const s = raw as Record<string, unknown>;
  const flag = (k: keyof NotificationSoundSettings) => (typeof s[k] === 'boolean' ? { [k]: s[k] as boolean } : {});
  return { ...flag('playMessagensReceive'), ...flag('playFila'), ...flag('playNotificationFila') };
}

/** True when this notification goes out by Web Push and Telegram to this person. */
export function relaysOutsideApp(n: { type: string; forcePush?: boolean }, settings: NotificationSoundSettings): boolean {
  if (n.forcePush) return true;
  const setting = GOVERNING_SETTING[n.type];
  return !setting || settings[setting] !== false;
}
