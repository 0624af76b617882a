import { useLingui } from '@lingui/react/macro';

/**
 * Avatar colours: every one carries white initials at >= 4.5:1 (WCAG AA), in light and dark.
 * A person's colour comes from a hash of their id, so it is the same on every screen.
 */
export const AVATAR_COLOURS = ['#1d4ed8', '#6d28d9', '#be123c', '#b45309', '#047857', '#0e7490', '#4338ca', '#a21caf', '#c2410c', '#15803d', '#475569', '#9f1239'] as const;

export function avatarColour(seed: string): string {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return AVATAR_COLOURS[h % AVATAR_COLOURS.length]!;
}

export function initialsOf(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => [...w][0]!.toUpperCase())
      .join('') || '?'
  );
}

/** spec 4: Disponível, Ocupado, Volto logo, invisible, offline. */
export type Presence = 'online' | 'occupied' | 'beRightBack' | 'invisible' | 'offline';

/** A coloured dot with its meaning for screen readers. */
export function PresenceDot({ status }: { status: Presence }) {
  const { t } = useLingui();
  const label = { online: t`Available`, occupied: t`Busy`, beRightBack: t`Be right back`, invisible: t`Offline`, offline: t`Offline` }[status];
  return <span className={`presence presence-${status}`} role="img" aria-label={label} title={label} />;
}

/**
 * A person's photo when there is one, else their initials on their colour; with `presence`, their
 * presence dot in the corner. Decorative (the name is written next to it), except the dot.
 */
export function Avatar({
  name,
  seed,
  src,
  size = 40,
  presence,
  className,
}: {
  name: string;
  /** What the colour is derived from: the person's id (names change, ids do not). */
  seed?: string;
  src?: string | null;
  size?: number;
  presence?: Presence | null;
  className?: string;
}) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4), background: src ? undefined : avatarColour(seed ?? name) };
  return (
    <span className={className ? `avatar ${className}` : 'avatar'} style={style}>
      {src ? (
        <img className="avatar-img" src={src} alt="" loading="lazy" />
      ) : (
        <span className="avatar-initials" aria-hidden="true">
          {initialsOf(name)}
        </span>
      )}
      {presence && <PresenceDot status={presence} />}
    </span>
  );
}
