import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Company, Member, Prisma, User } from '../../../generated/prisma/client';
import { DEFAULT_GROUPS, DEFAULT_PLAN, DEFAULT_QUEUE, NEW_COMPANY_STORAGE_BYTES } from '../../../shared/constants';
import { companyBlocksWork, isReservedDomain, memberMayWork, planFeatures, storagePlanGb } from '../../../shared/domain/company';
import { defaultContactUs } from '../../../shared/domain/contact-us';
import { companyDefaults, isContentLanguage } from '../../../shared/domain/company-defaults';
import { ACCESS_MESSAGES } from '../../../shared/domain/membership';
import { askToJoin, memberState, type MemberFlags } from '../../../shared/domain/member-lifecycle';
import { ADMIN_PROFILE_DEFAULTS, MEMBER_PROFILE_DEFAULTS } from '../../../shared/domain/profiles';
import type { RegistrationStep } from '../../../shared/realtime';
import { COMPANY_MESSAGES as M, type registerCompanyInput } from '../../../shared/schemas/company';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail';
import type { Realtime } from '../../realtime';
import { AccessError } from '../../trpc';
import { activeAdminUserIds, announceMembersChanged, createNotifications, pushNotifications } from '../notifications/service';
import { hit, LIMITS, RateLimitedError } from '../identity/rate-limit';
import { sendVerificationEmail } from '../identity/service';
import { memberPermissions } from '../profiles/permissions';
import { followQueuePeople, tellFollowed, type Followed } from '../appointments/queues';

/** The company-scoped service context: the member procedure has already resolved both. */
export interface CompanyContext {
  db: Db;
  company: Company;
  member: Member;
}

type Tx = Prisma.TransactionClient;

/**
 * Serializes changes to one company's membership (approvals, admin changes, profile deletion)
 * for the rest of the transaction, so two admins acting at once cannot both pass a check such as
 * "not the last admin" and together break it.
 */
export async function lockCompany(tx: Tx, companyId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Company" WHERE id = ${companyId}::uuid FOR UPDATE`;
}

/**
 * Serializes everything that claims a company name or domain. Names are unique regardless of
 * case, which the unique index alone does not enforce; registrations are rare, so one lock is cheap.
 */
export async function lockCompanyNames(tx: Tx): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('atende:company-names'))::text`;
}

export async function nameTaken(tx: Tx, name: string, exceptCompanyId?: string): Promise<boolean> {
  const found = await tx.company.findFirst({
    where: { name: { equals: name.trim(), mode: 'insensitive' }, ...(exceptCompanyId ? { id: { not: exceptCompanyId } } : {}) },
    select: { id: true },
  });
  return found !== null;
}

export const memberFlags = (m: Member): MemberFlags => ({
  isAdmin: m.isAdmin,
  profile: m.profile,
  inviteAccepted: m.inviteAccepted,
  blocked: m.blocked,
  removed: m.removed,
});

// ---- the company as its member sees it --------------------------------------------------------

export async function describeCompany({ db, company, member }: CompanyContext) {
  const blocked = companyBlocksWork(company);
  return {
    domain: company.domain,
    name: company.name,
    bio: company.bio,
    website: company.website,
    socialNetworks: company.socialNetworks as Record<string, string>,
    hasImage: company.imageKey !== null,
    active: company.active && !company.deactivated,
    planBlocked: company.planBlocked && !company.billingExempt,
    /** Why work (sending messages, starting chats) is blocked, or null. */
    blocked,
    /** While blocked, the company runs in admins-only mode ('somenteAdmins'): the client shows the dialog. */
    onlyAdmins: blocked !== null,
    /** Whether this member may work now (admins continue while blocked). */
    canWork: memberMayWork(company, member),
    rating: { total: company.ratingTotal, count: company.ratingCount },
    /** Plan flags that switch screens on (sla, kanban, timesheet): the client hides what is off. */
    features: planFeatures(company.plan),
    storage: { bytes: Number(company.storageBytes), planGb: storagePlanGb(company.storageBytes) },
    me: {
      memberId: member.id,
      isAdmin: member.isAdmin,
      profile: member.profile,
      permissions: await memberPermissions(db, company.id, member),
    },
  };
}

// ---- domain check and registration ------------------------------------------------------------

export async function checkDomain(db: Db, domain: string): Promise<{ available: true }> {
  if (isReservedDomain(domain) || (await db.company.findUnique({ where: { domain }, select: { id: true } }))) {
    throw new TRPCError({ code: 'CONFLICT', message: M.domainUnavailable });
  }
  return { available: true };
}

export interface RegisterDeps {
  db: Db;
  realtime: Realtime;
  clock: Clock;
  newCompanyBonus: number;
}

/**
 * Creates the company and everything it starts with in ONE transaction: the creator as accepted
 * admin, the default groups and queue, the A01/M01 profiles, Contact Us, the creator's default
 * company. A failure anywhere leaves nothing behind. Progress goes to the creator's sockets;
 * 'allReady' only after the commit.
 */
export async function registerCompany(deps: RegisterDeps, user: User, input: z.infer<typeof registerCompanyInput>) {
  // A guest account is deleted after 24 hours; the company would lose its only admin with it.
  if (user.anonymous || user.guestExpiresAt) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  if (isReservedDomain(input.domain)) throw new TRPCError({ code: 'CONFLICT', message: M.domainUnavailable });
  const step = (s: RegistrationStep) => deps.realtime.toUser(user.id, 'company:registration', { domain: input.domain, step: s });
  const now = deps.clock.now();
  // The starting texts in the admin's language: the one the app is shown in, else their account's.
  const language = input.language ?? (isContentLanguage(user.language) ? user.language : 'en');
  const defaults = companyDefaults(language);

  step('creatingCompany');
  let company: Company;
  try {
    company = await deps.db.$transaction(
      async (tx) => {
        await lockCompanyNames(tx);
        if (await tx.company.findUnique({ where: { domain: input.domain }, select: { id: true } })) {
          throw new TRPCError({ code: 'CONFLICT', message: M.domainUnavailable });
        }
        if (await nameTaken(tx, input.name)) throw new TRPCError({ code: 'CONFLICT', message: M.nameUnavailable });

        step('registeringInDatabase');
        const created = await tx.company.create({
          data: {
            domain: input.domain,
            name: input.name,
            bio: input.bio ?? '',
            creatorId: user.id,
            credits: deps.newCompanyBonus,
            plan: { ...DEFAULT_PLAN },
            storageBytes: BigInt(NEW_COMPANY_STORAGE_BYTES),
            settings: { greeting: defaults.greeting, language },
          },
        });
        const creator = await tx.member.create({
          data: {
            companyId: created.id,
            userId: user.id,
            email: user.email,
            isAdmin: true,
            profile: ADMIN_PROFILE_DEFAULTS.code,
            inviteAccepted: true,
            invitedAt: now,
            joinedAt: now,
          },
        });

        step('registeringQueues');
        const groups = await tx.group.createManyAndReturn({
          data: DEFAULT_GROUPS.map((key) => ({ companyId: created.id, key, name: key })),
        });
        await tx.queue.create({
          data: { companyId: created.id, key: DEFAULT_QUEUE.id, name: defaults.queueName, groups: { create: groups.map((g) => ({ groupId: g.id })) } },
        });
        // The creator serves the default queue through both groups.
        await tx.groupMember.createMany({ data: groups.map((g) => ({ groupId: g.id, memberId: creator.id })) });

        step('creatingProfiles');
        await tx.profile.createMany({
          data: [ADMIN_PROFILE_DEFAULTS, MEMBER_PROFILE_DEFAULTS].map((p) => ({
            companyId: created.id,
            code: p.code,
            name: p.code === ADMIN_PROFILE_DEFAULTS.code ? defaults.profileNames.admin : defaults.profileNames.member,
            type: p.type,
            permissions: p.permissions,
            // No queues = every queue: a list would restrict its members to the queues in it
            // (Profile.queues), and queues added later would be hidden from everyone.
            queueIds: [],
          })),
        });

        step('buildingContactUs');
        const withContactUs = await tx.company.update({
          where: { id: created.id },
          data: { contactUs: { ...defaultContactUs(created.name, defaults) } },
        });
        await tx.user.update({ where: { id: user.id }, data: { defaultCompanyId: created.id } });
        return withContactUs;
      },
      { timeout: 15_000 },
    );
  } catch (err) {
    throw uniqueViolationAsConflict(err);
  }
  step('allReady');
  return { domain: company.domain, name: company.name };
}

export const REGISTRATION_FAILED = 'The company could not be created. Please try again.';

/**
 * A unique index that still fires (a writer that skipped the lock) answers as the check would;
 * any other failure answers one plain sentence, never the database's own text.
 */
function uniqueViolationAsConflict(err: unknown): TRPCError {
  if (err instanceof TRPCError) return err;
  const e = err as { code?: string; meta?: { target?: unknown }; message?: string };
  if (e?.code === 'P2002') {
    const where = `${JSON.stringify(e.meta ?? {})} ${e.message ?? ''}`;
    if (where.includes('domain')) return new TRPCError({ code: 'CONFLICT', message: M.domainUnavailable, cause: err });
    if (where.includes('name')) return new TRPCError({ code: 'CONFLICT', message: M.nameUnavailable, cause: err });
  }
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: REGISTRATION_FAILED, cause: err });
}

// ---- the user's companies ---------------------------------------------------------------------

/** For /i/selectCompany: every company the user belongs to or asked to join, with the state. */
export async function listMyCompanies(db: Db, user: User) {
  const memberships = await db.member.findMany({
    where: { userId: user.id },
    include: { company: { select: { id: true, domain: true, name: true, imageKey: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return memberships.map((m) => ({
    domain: m.company.domain,
    name: m.company.name,
    hasImage: m.company.imageKey !== null,
    state: memberState(m),
    isAdmin: m.isAdmin,
    isDefault: user.defaultCompanyId === m.company.id,
  }));
}

/** Sets the default company (empresaPadrao); the member procedure already proved access. */
export async function selectCompany({ db, company, member }: CompanyContext) {
  await db.user.update({ where: { id: member.userId }, data: { defaultCompanyId: company.id } });
  return { domain: company.domain };
}

// ---- asking to join ---------------------------------------------------------------------------

export interface JoinDeps {
  db: Db;
  realtime: Realtime;
  clock: Clock;
  mailer: Mailer;
  publicUrl: string;
}

/**
 * An e-mail invitation belongs to whoever owns the address: an account that only typed that
 * address (not verified) is sent the verification link now and refused until it follows it,
 * whatever AppConfig.verifyEmail says for the rest of the app.
 */
async function requireVerifiedForMailInvite(deps: JoinDeps, user: User, company: Company, email: string | null): Promise<void> {
  if (!email || user.emailVerifiedAt) return;
  const [member, mailInvite] = await Promise.all([
    deps.db.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: user.id } } }),
    deps.db.invite.findFirst({
      where: { companyId: company.id, cancelled: false, approved: true, accepted: false, email: { not: null }, OR: [{ userId: user.id }, { email }] },
      select: { id: true },
    }),
  ]);
  if (!mailInvite) return;
  const state = member ? memberState(member) : null;
  if (state === 'active' || state === 'blocked') return;
  try {
    await hit(deps.db, `verify:user:${user.id}`, LIMITS.verificationPerUser, deps.clock.now());
    await sendVerificationEmail(deps, user, `/${company.domain}/invite`);
  } catch (err) {
    // Over the limit, the mails already sent are still valid: the refusal below says what to do.
    if (!(err instanceof RateLimitedError)) throw err;
  }
  throw new AccessError({ code: 'FORBIDDEN', reason: 'emailUnverified', message: ACCESS_MESSAGES.emailUnverified });
}

/** Finds (or makes) the one invite row of this user in this company, merging an e-mail invite into it. */
export async function upsertInvite(
  tx: Tx,
  companyId: string,
  who: { userId: string | null; email: string | null },
  data: { cancelled: boolean; accepted: boolean; approved: boolean; createdAt?: Date },
) {
  const or: Prisma.InviteWhereInput[] = [];
  if (who.userId) or.push({ userId: who.userId });
  if (who.email) or.push({ email: who.email });
  const rows = or.length ? await tx.invite.findMany({ where: { companyId, OR: or }, orderBy: { createdAt: 'asc' } }) : [];
  // The admin's e-mail invite wins: it carries the approval.
  const keep = rows.find((r) => who.email && r.email === who.email) ?? rows[0];
  const others = rows.filter((r) => r !== keep).map((r) => r.id);
  if (others.length) await tx.invite.deleteMany({ where: { id: { in: others } } });
  const fields = { userId: who.userId ?? keep?.userId ?? null, email: who.email ?? keep?.email ?? null, ...data };
  return keep ? tx.invite.update({ where: { id: keep.id }, data: fields }) : tx.invite.create({ data: { companyId, ...fields } });
}

/** Puts a member into the company's default 'member' group, so they see the default queue. */
export async function addToDefaultGroup(tx: Tx, companyId: string, memberId: string) {
  const group = await tx.group.findUnique({ where: { companyId_key: { companyId, key: 'member' } }, select: { id: true } });
  if (group) await tx.groupMember.createMany({ data: [{ groupId: group.id, memberId }], skipDuplicates: true });
}

/**
 * Ask to join (spec 4): a new Member waiting for approval plus its Invite, and every accepted,
 * non-blocked admin is notified. A removed member is re-invited; an active member short-circuits;
 * someone an admin invited by e-mail comes in directly.
 */
export async function joinCompany(deps: JoinDeps, user: User, domain: string): Promise<{ state: 'active' | 'waiting' }> {
  if (user.anonymous) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  const company = await deps.db.company.findUnique({ where: { domain } });
  if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: M.domainNotFound });
  const now = deps.clock.now();
  const email = user.email?.toLowerCase() ?? null;
  await requireVerifiedForMailInvite(deps, user, company, email);

  let followed: Followed = [];
  const result = await deps.db.$transaction(async (tx) => {
    await lockCompany(tx, company.id);
    const existing = await tx.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: user.id } } });
    const invites = await tx.invite.findMany({
      where: { companyId: company.id, cancelled: false, approved: true, accepted: false, OR: [{ userId: user.id }, ...(email ? [{ email }] : [])] },
    });
    const outcome = askToJoin(existing ? memberFlags(existing) : null, { preApproved: invites.length > 0 });
    switch (outcome.kind) {
      case 'alreadyMember':
        return { state: 'active' as const, notifications: [] };
      case 'stillWaiting':
        return { state: 'waiting' as const, notifications: [] };
      case 'blocked':
        throw new AccessError({ code: 'FORBIDDEN', reason: 'blocked', message: ACCESS_MESSAGES.blocked });
    }
    const { flags } = outcome;
    const data = {
      ...flags,
      email,
      invitedAt: existing && !outcome.reinvited ? existing.invitedAt : now,
      joinedAt: flags.inviteAccepted ? now : null,
      approverId: null,
    };
    const member = existing
      ? await tx.member.update({ where: { id: existing.id }, data })
      : await tx.member.create({ data: { companyId: company.id, userId: user.id, ...data } });
    await upsertInvite(tx, company.id, { userId: user.id, email }, {
      cancelled: false,
      accepted: flags.inviteAccepted,
      approved: flags.inviteAccepted,
      ...(flags.inviteAccepted ? {} : { createdAt: now }),
    });
    if (flags.inviteAccepted) {
      await addToDefaultGroup(tx, company.id, member.id);
      // Coming in joins the default group, and with it the future appointments of its queues.
      followed = await followQueuePeople(tx, company.id, now);
      return { state: 'active' as const, notifications: [] };
    }
    const who = user.name || user.email || 'Someone';
    const notifications = await createNotifications(
      tx,
      (await activeAdminUserIds(tx, company.id)).map((adminId) => ({
        companyId: company.id,
        userId: adminId,
        type: 'memberRequest',
        title: 'New request to join',
        subtitle: `${who} asked to join ${company.name}`,
        action: '/i/settings/members',
        adminOnly: true,
      })),
    );
    return { state: 'waiting' as const, notifications };
  });
  pushNotifications(deps.realtime, result.notifications);
  tellFollowed(deps.realtime, followed);
  await announceMembersChanged(deps, company);
  return { state: result.state };
}
