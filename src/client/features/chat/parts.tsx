/** Small pieces the recent list and the conversation share: avatars, ticks, presence dots. */
import { useLingui } from '@lingui/react/macro';
import type { Ticks as TickState } from '../../../shared/domain/messages';
import { Avatar as KitAvatar } from '../../ui/Avatar';
import { Icon } from './icons';

/** A person's photo when they have one, else their initials on their colour (the kit's Avatar). */
export function Avatar({ userId, name, hasAvatar, size = 40 }: { userId: string; name: string; hasAvatar?: boolean; size?: number }) {
  return <KitAvatar name={name} seed={userId} src={hasAvatar ? `/avatars/${userId}` : null} size={size} />;
}

/** Up to two faces of a conversation: one person, or the first two of a group. */
export function ConversationAvatar({ people, size = 44 }: { people: { userId: string; name: string; hasAvatar?: boolean }[]; size?: number }) {
  if (people.length <= 1) {
    const p = people[0];
    return p ? <Avatar userId={p.userId} name={p.name} hasAvatar={p.hasAvatar} size={size} /> : <span className="avatar" style={{ width: size, height: size }} />;
  }
  return (
    <span className="avatar-pair" style={{ width: size, height: size }} aria-hidden="true">
      <Avatar userId={people[0]!.userId} name={people[0]!.name} hasAvatar={people[0]!.hasAvatar} size={size * 0.7} />
      <Avatar userId={people[1]!.userId} name={people[1]!.name} hasAvatar={people[1]!.hasAvatar} size={size * 0.7} />
    </span>
  );
}

/** ✓ sent, ✓✓ received by everyone, blue ✓✓ read by everyone; a clock while it is on its way. */
export function Ticks({ state }: { state: TickState | 'sending' | 'failed' }) {
  const { t } = useLingui();
  const label = { sending: t`Sending`, failed: t`Not sent`, sent: t`Sent`, delivered: t`Delivered`, read: t`Read` }[state];
  const icon = state === 'sending' ? 'clock' : state === 'failed' ? 'alert' : state === 'sent' ? 'check' : 'checks';
  return (
    <span className={`ticks ticks-${state}`} role="img" aria-label={label} title={label}>
      <Icon name={icon} size={16} />
    </span>
  );
}

export type { Presence } from '../../ui/Avatar';
export { PresenceDot } from '../../ui/Avatar';
