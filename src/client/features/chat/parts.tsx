/** Small pieces the recent list and the conversation share: avatars, ticks, presence dots. */
import { useLingui } from '@lingui/react/macro';
import type { Ticks as TickState } from '../../../shared/domain/messages';
import { Icon } from './icons';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('') || '?';

/** A stable colour per person, so the same face keeps its colour everywhere. */
function hue(seed: string): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) % 360;
  return h;
}

/** A person's photo when they have one, else their initials on their colour. */
export function Avatar({ userId, name, hasAvatar, size = 40 }: { userId: string; name: string; hasAvatar?: boolean; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.4, ['--avatar-hue' as string]: hue(userId) };
  if (hasAvatar) return <img className="avatar" src={`/avatars/${userId}`} alt="" style={style} loading="lazy" />;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initials(name)}
    </span>
  );
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

export type Presence = 'online' | 'occupied' | 'beRightBack' | 'offline';

/** A coloured dot with its meaning for screen readers (spec 4: Disponível, Ocupado, Volto logo). */
export function PresenceDot({ status }: { status: Presence }) {
  const { t } = useLingui();
  const label = { online: t`Available`, occupied: t`Busy`, beRightBack: t`Be right back`, offline: t`Offline` }[status];
  return <span className={`presence presence-${status}`} role="img" aria-label={label} title={label} />;
}
