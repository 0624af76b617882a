/**
 * Customers (external contacts): the company's directory of the people it serves — added by hand
 * (profile permission addContacts), changed, merged and removed (editContacts), remembered when
 * they ask for service on the public page (and, through rememberCustomer, by the channels and
 * appointments), imported from and exported to CSV (imports.ts). A contact's history is read
 * from its accounts (userIds): their conversations in this company, the ratings they gave and
 * the calls they were in.
 */
import { CONVERSATION_TYPE } from '../../../shared/constants';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Contact, Prisma, User } from '../../../generated/prisma/client';
import { checkContact, CONTACT_MESSAGES as M, mergeContactData, toCsv, type ContactSource, type ExtraField } from '../../../shared/domain/contacts';
import type { contactCreateInput, contactsListInput } from '../../../shared/schemas/contacts';
import type { Db } from '../../db/client';
import { fail } from '../feeds/errors';
import type { FeedsContext } from '../feeds/service';

export type ContactsContext = FeedsContext;
type ContactInput = Omit<z.output<typeof contactCreateInput>, 'domain'>;

export async function extraFields(db: Db | Prisma.TransactionClient, companyId: string): Promise<ExtraField[]> {
  const rows = await db.additionalField.findMany({ where: { companyId }, orderBy: { createdAt: 'asc' } });
  return rows.map((x) => ({ tag: x.tag, name: x.name, multipleChoice: x.multipleChoice, options: x.options as string[] }));
}

/** A refused contact as a validation error (a real ZodError): the client gets each field's problem in data.fieldErrors. */
function invalid(errors: Record<string, string>) {
  const failed = z
    .object({})
    .superRefine((_value, zctx) => {
      for (const [key, message] of Object.entries(errors)) zctx.addIssue({ code: 'custom', path: key.split('.'), message });
    })
    .safeParse({});
  return new TRPCError({ code: 'BAD_REQUEST', message: Object.values(errors)[0] ?? 'Invalid input', cause: failed.error });
}

function present(c: Contact) {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    organization: c.organization,
    fields: c.fields as Record<string, string>,
    tags: c.tags,
    notes: c.notes,
    source: c.source as ContactSource,
    hasAccount: c.userIds.length > 0,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

async function matchingIds(ctx: ContactsContext, q: string): Promise<string[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const digits = q.replace(/\D/g, '');
  const rows = await ctx.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Contact" WHERE "companyId" = ${ctx.company.id}::uuid AND (
      unaccent(name || ' ' || coalesce(email, '') || ' ' || organization) ILIKE unaccent(${pattern})
      OR (${digits} <> '' AND coalesce(phone, '') LIKE ${`%${digits}%`}))
    LIMIT 5000`;
  return rows.map((r) => r.id);
}

export async function listContacts(ctx: ContactsContext, input: z.output<typeof contactsListInput>) {
  const ids = input.q ? await matchingIds(ctx, input.q) : null;
  const rows = await ctx.db.contact.findMany({
    where: { companyId: ctx.company.id, ...(ids && { id: { in: ids } }), ...(input.tag && { tags: { has: input.tag } }) },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    take: input.limit + 1,
    ...(input.cursor && { cursor: { id: input.cursor }, skip: 1 }),
  });
  const page = rows.slice(0, input.limit);
  const total = await ctx.db.contact.count({ where: { companyId: ctx.company.id } });
  return { items: page.map(present), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null, total };
}

async function ownContact(db: Db | Prisma.TransactionClient, companyId: string, contactId: string) {
  const contact = await db.contact.findFirst({ where: { id: contactId, companyId } });
  if (!contact) throw fail('NOT_FOUND', M.notFound);
  return contact;
}

/** /i/recent/customers/{id}: the record, the company's additional fields, and the history. */
/**
 * A customer as the attendant's side panel shows them: their contact in this company (if any)
 * and their other requests here, newest first (ten at most).
 */
export async function customerHistory(ctx: ContactsContext, userId: string, exceptConversationId?: string) {
  const [contact, conversations] = await Promise.all([
    ctx.db.contact.findFirst({
      where: { companyId: ctx.company.id, userIds: { has: userId } },
      select: { id: true, name: true, email: true, phone: true, organization: true, tags: true },
    }),
    ctx.db.conversation.findMany({
      where: {
        companyId: ctx.company.id,
        participants: { some: { userId } },
        // A customer's requests (isServiceRequest), not chats the person had as a colleague.
        OR: [{ type: CONVERSATION_TYPE.ticket }, { type: CONVERSATION_TYPE.single, queuedAt: { not: null } }],
        ...(exceptConversationId && { id: { not: exceptConversationId } }),
      },
      orderBy: { createdAt: 'desc' },
      take: 10,
      select: { id: true, protocol: true, title: true, queueName: true, state: true, rating: true, createdAt: true },
    }),
  ]);
  return { contact, conversations };
}

export async function getContact(ctx: ContactsContext, contactId: string) {
  const contact = await ownContact(ctx.db, ctx.company.id, contactId);
  const accounts = contact.userIds;
  const [extras, conversations, calls] = await Promise.all([
    extraFields(ctx.db, ctx.company.id),
    accounts.length
      ? ctx.db.conversation.findMany({
          where: { companyId: ctx.company.id, participants: { some: { userId: { in: accounts } } } },
          orderBy: { createdAt: 'desc' },
          take: 100,
          select: { id: true, type: true, state: true, protocol: true, title: true, queueName: true, rating: true, createdAt: true, concludedAt: true },
        })
      : [],
    accounts.length
      ? ctx.db.call.findMany({
          where: { companyId: ctx.company.id, participants: { some: { userId: { in: accounts } } } },
          orderBy: { createdAt: 'desc' },
          take: 100,
          select: { id: true, type: true, isLive: true, startedAt: true, endedAt: true, createdAt: true, conversationId: true },
        })
      : [],
  ]);
  return {
    ...present(contact),
    extras,
    conversations,
    ratings: conversations.filter((c) => c.rating !== null).map((c) => ({ conversationId: c.id, protocol: c.protocol, rating: c.rating!, at: c.concludedAt ?? c.createdAt })),
    calls,
  };
}

function checked(input: ContactInput, extras: ExtraField[]) {
  const result = checkContact(input, extras);
  if (!result.ok) throw invalid(result.errors as Record<string, string>);
  return result.contact;
}

export async function createContact(ctx: ContactsContext, input: ContactInput) {
  const data = checked(input, await extraFields(ctx.db, ctx.company.id));
  const now = ctx.clock.now();
  const contact = await ctx.db.contact.create({ data: { ...data, companyId: ctx.company.id, source: 'manual', createdAt: now, updatedAt: now } });
  return present(contact);
}

export async function updateContact(ctx: ContactsContext, contactId: string, input: ContactInput) {
  const contact = await ownContact(ctx.db, ctx.company.id, contactId);
  const data = checked(input, await extraFields(ctx.db, ctx.company.id));
  const updated = await ctx.db.contact.update({ where: { id: contact.id }, data: { ...data, updatedAt: ctx.clock.now() } });
  return present(updated);
}

export async function removeContact(ctx: ContactsContext, contactId: string) {
  const contact = await ownContact(ctx.db, ctx.company.id, contactId);
  await ctx.db.contact.delete({ where: { id: contact.id } });
  return { removed: true };
}

/** Two records of the same person become `keepId`; the other is removed. One transaction. */
export async function mergeContacts(ctx: ContactsContext, keepId: string, mergeId: string) {
  if (keepId === mergeId) throw fail('BAD_REQUEST', M.mergeSame);
  const merged = await ctx.db.$transaction(async (tx) => {
    // Both rows locked in id order: two merges of the same pair cannot both succeed.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Contact" WHERE id IN (${keepId}::uuid, ${mergeId}::uuid) AND "companyId" = ${ctx.company.id}::uuid ORDER BY id FOR UPDATE`;
    if (locked.length !== 2) throw fail('NOT_FOUND', M.notFound);
    const [kept, other] = await Promise.all([ownContact(tx, ctx.company.id, keepId), ownContact(tx, ctx.company.id, mergeId)]);
    const data = mergeContactData(
      { ...kept, fields: kept.fields as Record<string, string> },
      { ...other, fields: other.fields as Record<string, string> },
    );
    await tx.contact.delete({ where: { id: other.id } });
    return tx.contact.update({ where: { id: kept.id }, data: { ...data, updatedAt: ctx.clock.now() } });
  });
  return present(merged);
}

/** The whole directory as CSV: the contact's own columns, then one per additional field (by name). */
export async function exportCsv(ctx: ContactsContext) {
  const extras = await extraFields(ctx.db, ctx.company.id);
  const rows = await ctx.db.contact.findMany({ where: { companyId: ctx.company.id }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  const header = ['name', 'email', 'phone', 'company', 'tags', 'notes', ...extras.map((x) => x.tag)];
  const lines = rows.map((c) => {
    const fields = c.fields as Record<string, string>;
    return [c.name, c.email ?? '', c.phone ?? '', c.organization, c.tags.join('; '), c.notes, ...extras.map((x) => fields[x.tag] ?? '')];
  });
  return { fileName: `${ctx.company.domain}-contacts.csv`, csv: toCsv([header, ...lines]), count: rows.length };
}

/**
 * Keeps a customer in the directory when they reach the company (public page, channels,
 * appointments): their account's contact, found by account or else by e-mail, or a new one.
 * Never fails the caller's work: a problem is only logged by the caller.
 */
export async function rememberCustomer(db: Db | Prisma.TransactionClient, companyId: string, user: Pick<User, 'id' | 'name' | 'email' | 'phone' | 'anonymous'>, source: ContactSource, now: Date) {
  // The company's own people asking in an internal queue are colleagues, not customers.
  if (await db.member.count({ where: { companyId, userId: user.id, inviteAccepted: true, removed: false } })) return null;
  const byAccount = await db.contact.findFirst({ where: { companyId, userIds: { has: user.id } }, select: { id: true } });
  if (byAccount) return byAccount.id;
  const email = user.anonymous ? null : (user.email?.toLowerCase() ?? null);
  const byEmail = email ? await db.contact.findFirst({ where: { companyId, email }, orderBy: { createdAt: 'asc' } }) : null;
  if (byEmail) {
    await db.contact.update({ where: { id: byEmail.id }, data: { userIds: { push: user.id }, updatedAt: now } });
    return byEmail.id;
  }
  const created = await db.contact.create({
    data: { companyId, userIds: [user.id], name: user.name.trim() || email || '—', email, phone: user.phone, source, createdAt: now, updatedAt: now },
  });
  return created.id;
}
