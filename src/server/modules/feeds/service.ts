/**
 * Feeds: members post to their company (_empresa_) or to its network (_rede_: the company and its
 * accepted client companies, clients module); a post may also be public on the company's site.
 * Newest first, live (feed:changed to everyone who sees the post), with comments, reactions,
 * images and files. The author or an administrator of the post's company may change or remove
 * it. Text is stored as typed and shown as text with links (shared/domain/links.ts), never HTML.
 */
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type { Company, Member, Prisma, User } from '../../../generated/prisma/client';
import { FEED_LINK_SECONDS, mayChangeFeedItem, type FeedAudience } from '../../../shared/domain/feeds';
import { FEED_MESSAGES as M, type feedCreateInput, type feedListInput } from '../../../shared/schemas/feeds';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { assertFitsQuota, declaredSize, storeBody } from '../../uploads/module-files';
import { fail } from './errors';

export interface FeedsContext extends Pick<AppDeps, 'db' | 'storage' | 'realtime' | 'clock' | 'config'> {
  company: Company;
  member: Member;
  user: User;
}

// ---- who sees what ------------------------------------------------------------------------------

/** Companies whose network this company belongs to: they invited it as a client and it accepted. */
async function networkOrigins(db: Db, company: Pick<Company, 'domain'>): Promise<string[]> {
  const links = await db.clientCompanyLink.findMany({ where: { clientDomain: company.domain, accepted: true }, select: { companyId: true } });
  return links.map((l) => l.companyId);
}

/** The posts a member of `company` sees: all of its own, and the network posts of the companies it is a client of. */
async function visibleWhere(db: Db, company: Company, audience?: FeedAudience): Promise<Prisma.FeedPostWhereInput> {
  const origins = await networkOrigins(db, company);
  const own: Prisma.FeedPostWhereInput = { companyId: company.id, ...(audience && { audience }) };
  if (audience === '_empresa_' || origins.length === 0) return own;
  return { OR: [own, { companyId: { in: origins }, audience: '_rede_' }] };
}

/** Who is told about a change of a post: active members of its company, and of its clients when it went to the network. */
async function audienceUserIds(db: Db, post: { companyId: string; audience: string }): Promise<string[]> {
  const companyIds = [post.companyId];
  if (post.audience === '_rede_') {
    const clients = await db.clientCompanyLink.findMany({ where: { companyId: post.companyId, accepted: true }, select: { clientDomain: true } });
    const rows = await db.company.findMany({ where: { domain: { in: clients.map((c) => c.clientDomain) } }, select: { id: true } });
    companyIds.push(...rows.map((r) => r.id));
  }
  const members = await db.member.findMany({ where: { companyId: { in: companyIds }, inviteAccepted: true, blocked: false, removed: false }, select: { userId: true } });
  return [...new Set(members.map((m) => m.userId))];
}

async function tell(ctx: FeedsContext, post: { id: string; companyId: string; audience: string }, change: 'new' | 'updated' | 'removed' | 'comments' | 'reactions') {
  const userIds = await audienceUserIds(ctx.db, post);
  ctx.realtime.toUsers(userIds, 'feed:changed', { postId: post.id, change, authorId: change === 'new' ? ctx.user.id : undefined });
}

/** A post this member can see, or NOT_FOUND (another company's post does not exist for them). */
async function visiblePost(ctx: FeedsContext, postId: string) {
  const post = await ctx.db.feedPost.findFirst({ where: { AND: [{ id: postId }, await visibleWhere(ctx.db, ctx.company)] } });
  if (!post) throw fail('NOT_FOUND', M.notFound);
  return post;
}

const me = (ctx: FeedsContext) => ({ userId: ctx.user.id, adminOf: ctx.member.isAdmin ? ctx.company.id : null });

// ---- reading --------------------------------------------------------------------------------------

const POST_INCLUDE = {
  attachments: { orderBy: { createdAt: 'asc' } },
  reactions: { select: { userId: true, emoji: true } },
  _count: { select: { comments: true } },
} satisfies Prisma.FeedPostInclude;
type PostRow = Prisma.FeedPostGetPayload<{ include: typeof POST_INCLUDE }>;

async function people(db: Db, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const rows = wanted.length ? await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true, avatarKey: true } }) : [];
  return new Map(rows.map((u) => [u.id, { name: u.name, hasAvatar: u.avatarKey !== null }]));
}

async function companiesById(db: Db, ids: string[]) {
  const rows = await db.company.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, domain: true, name: true } });
  return new Map(rows.map((c) => [c.id, c]));
}

async function attachmentLinks(storage: FeedsContext['storage'], rows: PostRow['attachments']) {
  return Promise.all(
    rows.map(async (a) => ({
      id: a.id,
      name: a.name,
      size: Number(a.size),
      mime: a.mime,
      isImage: a.isImage,
      url: await storage.presignGet(a.key, FEED_LINK_SECONDS, a.isImage ? undefined : { downloadName: a.name }),
    })),
  );
}

function reactionSummary(rows: PostRow['reactions'], userId: string | null) {
  const byEmoji = new Map<string, { emoji: string; count: number; mine: boolean }>();
  for (const r of rows) {
    const entry = byEmoji.get(r.emoji) ?? { emoji: r.emoji, count: 0, mine: false };
    entry.count++;
    if (r.userId === userId) entry.mine = true;
    byEmoji.set(r.emoji, entry);
  }
  return [...byEmoji.values()];
}

async function presentPosts(ctx: FeedsContext, rows: PostRow[]) {
  const [authors, companies] = await Promise.all([people(ctx.db, rows.map((r) => r.authorId)), companiesById(ctx.db, rows.map((r) => r.companyId))]);
  return Promise.all(
    rows.map(async (p) => ({
      id: p.id,
      company: { domain: companies.get(p.companyId)?.domain ?? '', name: companies.get(p.companyId)?.name ?? '' },
      /** From this company, or from one whose network it belongs to. */
      fromNetwork: p.companyId !== ctx.company.id,
      authorId: p.authorId,
      authorName: (p.authorId && authors.get(p.authorId)?.name) || null,
      authorHasAvatar: !!(p.authorId && authors.get(p.authorId)?.hasAvatar),
      audience: p.audience as FeedAudience,
      isPublic: p.isPublic,
      text: p.text,
      createdAt: p.createdAt,
      editedAt: p.editedAt,
      attachments: await attachmentLinks(ctx.storage, p.attachments),
      reactions: reactionSummary(p.reactions, ctx.user.id),
      commentCount: p._count.comments,
      canChange: mayChangeFeedItem(p, me(ctx)),
    })),
  );
}
export type FeedPostView = Awaited<ReturnType<typeof presentPosts>>[number];

/** The feed, newest first, a page at a time. */
export async function listFeed(ctx: FeedsContext, input: z.output<typeof feedListInput>) {
  const where = await visibleWhere(ctx.db, ctx.company, input.audience);
  const rows = await ctx.db.feedPost.findMany({
    where,
    include: POST_INCLUDE,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor && { cursor: { id: input.cursor }, skip: 1 }),
  });
  const page = rows.slice(0, input.limit);
  return { items: await presentPosts(ctx, page), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/** One post with its comments (/i/recent/feed/{id}). */
export async function getPost(ctx: FeedsContext, postId: string) {
  const found = await visiblePost(ctx, postId);
  const row = await ctx.db.feedPost.findUniqueOrThrow({ where: { id: found.id }, include: POST_INCLUDE });
  const [post] = await presentPosts(ctx, [row]);
  const comments = await ctx.db.feedComment.findMany({ where: { postId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 500 });
  const authors = await people(ctx.db, comments.map((c) => c.authorId));
  return {
    ...post!,
    comments: comments.map((c) => ({
      id: c.id,
      authorId: c.authorId,
      authorName: (c.authorId && authors.get(c.authorId)?.name) || null,
      text: c.text,
      createdAt: c.createdAt,
      editedAt: c.editedAt,
      canChange: mayChangeFeedItem({ authorId: c.authorId, companyId: row.companyId }, me(ctx)),
    })),
  };
}

/**
 * Posts the member has not seen: visible ones newer than their lastFeedTimestamp (spec 3, User),
 * not their own. The timestamp is the person's, as in the spec: seeing the feed in one company
 * also settles the older posts of the others.
 */
export async function unreadCount(ctx: FeedsContext) {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.user.id }, select: { lastFeedTimestamp: true } });
  const since = user?.lastFeedTimestamp;
  const count = await ctx.db.feedPost.count({
    where: { AND: [await visibleWhere(ctx.db, ctx.company), { authorId: { not: ctx.user.id } }, ...(since ? [{ createdAt: { gt: since } }] : [])] },
  });
  return { count, lastSeenAt: since ?? null };
}

/** The member looked at the feed: everything up to now is seen, in every tab. */
export async function markSeen(ctx: FeedsContext) {
  const now = ctx.clock.now();
  await ctx.db.user.update({ where: { id: ctx.user.id }, data: { lastFeedTimestamp: now } });
  ctx.realtime.toUser(ctx.user.id, 'feed:seen', { at: now.toISOString() });
  return { lastSeenAt: now };
}

// ---- writing --------------------------------------------------------------------------------------

/** A new post; the files uploaded for it (this member's, not yet attached) become its attachments. */
export async function createPost(ctx: FeedsContext, input: z.output<typeof feedCreateInput>) {
  if (!input.text && input.attachmentIds.length === 0) throw fail('BAD_REQUEST', M.empty);
  const post = await ctx.db.$transaction(async (tx) => {
    const created = await tx.feedPost.create({
      data: { companyId: ctx.company.id, authorId: ctx.user.id, audience: input.audience, isPublic: input.isPublic, text: input.text, createdAt: ctx.clock.now() },
    });
    if (input.attachmentIds.length) {
      const { count } = await tx.feedAttachment.updateMany({
        where: { id: { in: input.attachmentIds }, companyId: ctx.company.id, uploaderId: ctx.user.id, postId: null },
        data: { postId: created.id },
      });
      if (count !== new Set(input.attachmentIds).size) throw fail('BAD_REQUEST', M.attachmentMissing);
    }
    return created;
  });
  await tell(ctx, post, 'new');
  return { id: post.id };
}

/** The post, if this member may change it (author, or an administrator of its company). */
async function changeablePost(ctx: FeedsContext, postId: string) {
  const post = await visiblePost(ctx, postId);
  if (!mayChangeFeedItem(post, me(ctx))) throw fail('FORBIDDEN', M.onlyAuthorOrAdmin);
  return post;
}

export async function editPost(ctx: FeedsContext, input: { postId: string; text: string; isPublic?: boolean }) {
  const post = await changeablePost(ctx, input.postId);
  const hasFiles = (await ctx.db.feedAttachment.count({ where: { postId: post.id } })) > 0;
  if (!input.text && !hasFiles) throw fail('BAD_REQUEST', M.empty);
  await ctx.db.feedPost.update({ where: { id: post.id }, data: { text: input.text, isPublic: input.isPublic ?? post.isPublic, editedAt: ctx.clock.now() } });
  await tell(ctx, post, 'updated');
  return { id: post.id };
}

/** Removes the post, its comments and reactions, then its stored files. */
export async function removePost(ctx: FeedsContext, postId: string) {
  const post = await changeablePost(ctx, postId);
  const files = await ctx.db.feedAttachment.findMany({ where: { postId: post.id }, select: { key: true } });
  await ctx.db.feedPost.delete({ where: { id: post.id } });
  // Rows first: a file whose removal fails is only wasted space, never a post pointing at nothing.
  await Promise.all(files.map((f) => ctx.storage.delete(f.key).catch(() => undefined)));
  await tell(ctx, post, 'removed');
  return { removed: true };
}

export async function addComment(ctx: FeedsContext, postId: string, text: string) {
  const post = await visiblePost(ctx, postId);
  const comment = await ctx.db.feedComment.create({ data: { postId: post.id, authorId: ctx.user.id, text, createdAt: ctx.clock.now() } });
  await tell(ctx, post, 'comments');
  return { id: comment.id };
}

async function changeableComment(ctx: FeedsContext, commentId: string) {
  const comment = await ctx.db.feedComment.findUnique({ where: { id: commentId } });
  if (!comment) throw fail('NOT_FOUND', M.commentNotFound);
  const post = await ctx.db.feedPost.findFirst({ where: { AND: [{ id: comment.postId }, await visibleWhere(ctx.db, ctx.company)] } });
  if (!post) throw fail('NOT_FOUND', M.commentNotFound);
  if (!mayChangeFeedItem({ authorId: comment.authorId, companyId: post.companyId }, me(ctx))) throw fail('FORBIDDEN', M.onlyAuthorOrAdmin);
  return { comment, post };
}

export async function editComment(ctx: FeedsContext, commentId: string, text: string) {
  const { comment, post } = await changeableComment(ctx, commentId);
  await ctx.db.feedComment.update({ where: { id: comment.id }, data: { text, editedAt: ctx.clock.now() } });
  await tell(ctx, post, 'comments');
  return { id: comment.id };
}

export async function removeComment(ctx: FeedsContext, commentId: string) {
  const { comment, post } = await changeableComment(ctx, commentId);
  await ctx.db.feedComment.delete({ where: { id: comment.id } });
  await tell(ctx, post, 'comments');
  return { removed: true };
}

/** Toggles the member's reaction with this emoji. */
export async function react(ctx: FeedsContext, postId: string, emoji: string) {
  const post = await visiblePost(ctx, postId);
  const key = { postId_userId_emoji: { postId: post.id, userId: ctx.user.id, emoji } };
  const { count } = await ctx.db.feedReaction.deleteMany({ where: { postId: post.id, userId: ctx.user.id, emoji } });
  if (count === 0) await ctx.db.feedReaction.upsert({ where: key, create: { postId: post.id, userId: ctx.user.id, emoji, createdAt: ctx.clock.now() }, update: {} });
  await tell(ctx, post, 'reactions');
  return { reacted: count === 0 };
}

// ---- the public page --------------------------------------------------------------------------------

/** /{emp}/feeds/{feedId}: a post published publicly, for anyone; other posts do not exist here. */
export async function publicPost(deps: Pick<AppDeps, 'db' | 'storage'>, domain: string, postId: string) {
  const company = await deps.db.company.findUnique({ where: { domain }, select: { id: true, domain: true, name: true, imageKey: true } });
  const post = company ? await deps.db.feedPost.findFirst({ where: { id: postId, companyId: company.id, isPublic: true }, include: POST_INCLUDE }) : null;
  if (!company || !post) throw fail('NOT_FOUND', M.notFound);
  const authors = await people(deps.db, [post.authorId]);
  return {
    id: post.id,
    company: { domain: company.domain, name: company.name, hasImage: company.imageKey !== null },
    authorName: (post.authorId && authors.get(post.authorId)?.name) || null,
    text: post.text,
    createdAt: post.createdAt,
    editedAt: post.editedAt,
    attachments: await attachmentLinks(deps.storage, post.attachments),
    reactions: reactionSummary(post.reactions, null),
    commentCount: post._count.comments,
  };
}

// ---- files ------------------------------------------------------------------------------------------

/** PUT /uploads/feed/:domain?name= — a file for a post being written; attached when the post is sent. */
export async function uploadFeedFile(ctx: FeedsContext, req: Request, rawName: string) {
  const size = declaredSize(req, ctx.config.maxUploadBytes);
  await assertFitsQuota(ctx.db, ctx.company.id, size);
  const id = randomUUID();
  const stored = await storeBody(ctx, req, size, rawName, (name) => `${ctx.company.domain}/feeds/${id}/${name}`);
  try {
    await ctx.db.$transaction(async (tx) => {
      await assertFitsQuota(tx, ctx.company.id, size, true);
      await tx.feedAttachment.create({
        data: { id, companyId: ctx.company.id, uploaderId: ctx.user.id, key: stored.key, name: stored.name, size: stored.size, mime: stored.mime, isImage: stored.isImage, createdAt: ctx.clock.now() },
      });
    });
  } catch (err) {
    await ctx.storage.delete(stored.key).catch(() => undefined);
    throw err;
  }
  return { id, name: stored.name, size: stored.size, mime: stored.mime, isImage: stored.isImage };
}

/** Files uploaded for a post that was never sent, a day later: gone with their stored objects. */
export async function purgeStrayFeedFiles(deps: Pick<AppDeps, 'db' | 'storage' | 'clock'>): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - 24 * 3_600_000);
  const stray = await deps.db.feedAttachment.findMany({ where: { postId: null, createdAt: { lt: before } }, select: { id: true, key: true }, take: 500 });
  let removed = 0;
  for (const f of stray) {
    // The row goes only if still unattached (a post may take it meanwhile); then its object.
    const { count } = await deps.db.feedAttachment.deleteMany({ where: { id: f.id, postId: null } });
    if (count) await deps.storage.delete(f.key).catch(() => undefined);
    removed += count;
  }
  return removed;
}
