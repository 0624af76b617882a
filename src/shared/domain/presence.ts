/**
 * Presence (spec 4): what each person chose (online = Disponível, occupied = Ocupado,
 * beRightBack = Volto logo, invisible) combined with whether any tab of theirs is connected.
 */
export const PRESENCE_CHOICES = ['online', 'occupied', 'beRightBack', 'invisible'] as const;
export type PresenceChoice = (typeof PRESENCE_CHOICES)[number];
/** What others see: invisible people look offline. */
export type PresenceStatus = 'online' | 'occupied' | 'beRightBack' | 'offline';

export function visiblePresence(choice: string, connected: boolean): PresenceStatus {
  if (!connected || choice === 'invisible') return 'offline';
  return choice === 'occupied' || choice === 'beRightBack' ? choice : 'online';
}
