/**
 * Feed rules (spec 3, Feed: userId, dominio, publicar, timestamp). A post goes to the company
 * (`_empresa_`: its members) or to its network (`_rede_`: also the members of its accepted
 * client companies, spec 3 Company network); either may also be public on the company's site.
 */
export const FEED_AUDIENCES = ['_empresa_', '_rede_'] as const;
export type FeedAudience = (typeof FEED_AUDIENCES)[number];

export const FEED_TEXT_MAX = 5000;
export const FEED_COMMENT_MAX = 1500;
/** Images and files one post may carry. */
export const FEED_ATTACHMENTS_MAX = 10;
/** The reactions offered (one of each per person, toggled). */
export const FEED_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '😢'] as const;
export type FeedReactionEmoji = (typeof FEED_REACTIONS)[number];
/** How long the links to a post's images and files stay valid (the list is refetched long before). */
export const FEED_LINK_SECONDS = 3600;

/** Who may change or remove a post or a comment: its author, or an admin of the post's company. */
export function mayChangeFeedItem(item: { authorId: string | null; companyId: string }, me: { userId: string; adminOf: string | null }): boolean {
  return item.authorId === me.userId || (me.adminOf !== null && me.adminOf === item.companyId);
}

/** The shell's badge: 1..99, then "99+" (spec 9: unread badge cap). */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
