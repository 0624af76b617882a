/**
 * Calendar (/i/calendar): a member's events in a company, those they created and those they take
 * part in. A recurring event is one row with an RFC 5545 rule (shared/domain/recurrence.ts),
 * expanded for the range on screen; a change to one occurrence is an exception row. Only the
 * creator changes or deletes a whole series; a participant who deletes only removes himself.
 */
import type { z } from 'zod';
import type { CalendarContact, CalendarEvent, CalendarException, CalendarParticipant, Company, Member, Prisma, User } from '../../../generated/prisma/client';
import {
  buildRule, deleteEffect, eventTitle, expand, isOccurrence, mayEdit, wallTime, withStart, zonedInstant, type RepeatChoice, type WeekdayKey, WEEKDAYS,
} from '../../../shared/domain/recurrence';
import { CALENDAR_MESSAGES as M, type calendarCreateInput, type calendarRemoveInput, type calendarUpdateInput } from '../../../shared/schemas/calendar';
import type { AppDeps } from '../../deps';
import { fail } from '../feeds/errors';
import { companyLanguage, serverText, userLanguage } from '../../i18n';
import { announceConversation, concludeMeetingConversation, insertMeetingConversation, leaveMeetingConversation, syncMeetingParticipants } from '../chat/service';
import { inviteMail, occurrenceCancelMail, type InviteKind, type Occurrence } from './invite-mail';
import { activeMemberUserIds, createNotifications, pushNotifications } from '../notifications/service';
import { syncReminders } from './reminders';

export interface CalendarContext extends Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'mailer' | 'logger'> {
  company: Company;
  member: Member;
  user: User;
}

type FullEvent = CalendarEvent & { participants: CalendarParticipant[]; contacts: CalendarContact[]; exceptions: CalendarException[] };
const FULL = { participants: true, contacts: true, exceptions: true } as const;

/** Events this member sees in this company: created by them, or taking part and not removed. */
function visible(ctx: CalendarContext): Prisma.CalendarEventWhereInput {
  return { companyId: ctx.company.id, OR: [{ creatorId: ctx.user.id }, { participants: { some: { userId: ctx.user.id, removed: false } } }] };
}

async function names(ctx: CalendarContext, ids: string[]) {
  const rows = ids.length ? await ctx.db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } }) : [];
  return new Map(rows.map((u) => [u.id, u.name]));
}

interface ContactRow { id: string; name: string; email: string | null }

/** The company's contacts among these ids (a contact removed since is left out). */
async function contactRows(ctx: CalendarContext, ids: string[]): Promise<Map<string, ContactRow>> {
  const rows = ids.length
    ? await ctx.db.contact.findMany({ where: { companyId: ctx.company.id, id: { in: [...new Set(ids)] } }, select: { id: true, name: true, email: true } })
    : [];
  return new Map(rows.map((c) => [c.id, c]));
}
const contactView = (e: Pick<FullEvent, 'contacts'>, rows: Map<string, ContactRow>) =>
  e.contacts.flatMap((c) => {
    const row = rows.get(c.contactId);
    return row ? [{ contactId: row.id, name: row.name, email: row.email }] : [];
  });

/** Each member's language, for the notifications they are sent. */
async function languagesOf(ctx: CalendarContext, ids: string[]) {
  const rows = ids.length ? await ctx.db.user.findMany({ where: { id: { in: ids } }, select: { id: true, language: true } }) : [];
  return new Map(rows.map((u) => [u.id, userLanguage(u)]));
}

/**
 * Contacts are not members: they learn of an event by e-mail, in the company's language, with an
 * .ics that puts it in their own calendar. A failed mail is logged; it never undoes the event.
 */
async function mailContacts(ctx: CalendarContext, e: CalendarEvent, contacts: ContactRow[], kind: InviteKind | { cancelledOccurrence: Occurrence }) {
  const lang = companyLanguage(ctx.company);
  const sequence = Math.max(0, Math.floor((ctx.clock.now().getTime() - e.createdAt.getTime()) / 1000));
  for (const c of contacts) {
    if (!c.email) continue;
    try {
      const to = { name: c.name, email: c.email };
      const context = { lang, companyName: ctx.company.name, domain: ctx.company.domain, inviterName: ctx.user.name ?? '', sequence };
      await ctx.mailer.send(typeof kind === 'string' ? inviteMail(e, to, context, kind) : occurrenceCancelMail(e, kind.cancelledOccurrence, to, context));
    } catch (err) {
      ctx.logger.error({ err, eventId: e.id, contactId: c.id }, 'calendar invitation e-mail failed');
    }
  }
}

/** Members invited get the same e-mail and .ics (spec: "invited in-app and by e-mail"), each in their own language. */
async function mailMembers(ctx: CalendarContext, e: CalendarEvent, userIds: string[]) {
  if (userIds.length === 0) return;
  const users = await ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true, language: true } });
  const sequence = Math.max(0, Math.floor((ctx.clock.now().getTime() - e.createdAt.getTime()) / 1000));
  for (const u of users) {
    if (!u.email) continue;
    try {
      const c = { lang: userLanguage(u), companyName: ctx.company.name, domain: ctx.company.domain, inviterName: ctx.user.name ?? '', sequence };
      await ctx.mailer.send(inviteMail(e, { name: u.name ?? '', email: u.email }, c, 'invited'));
    } catch (err) {
      ctx.logger.error({ err, eventId: e.id, userId: u.id }, 'calendar invitation e-mail failed');
    }
  }
}

const audience = (e: Pick<FullEvent, 'creatorId' | 'participants'>) => new Set([e.creatorId, ...e.participants.filter((p) => !p.removed).map((p) => p.userId)]);

function tell(ctx: CalendarContext, eventId: string, userIds: Iterable<string>) {
  ctx.realtime.toUsers(userIds, 'calendar:changed', { eventId });
}

/** The weekdays of a stored rule, for the form (repeat{seg..dom}). */
function ruleWeekdays(rule: string | null): WeekdayKey[] {
  const m = rule && /BYDAY=([A-Z,]+)/.exec(rule);
  if (!m) return [];
  const codes = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  return m[1]!.split(',').map((c) => WEEKDAYS[codes.indexOf(c)]!).filter(Boolean);
}
const ruleUntil = (rule: string | null) => {
  const m = rule && /UNTIL=(\d{4})(\d{2})(\d{2})/.exec(rule);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

function repeatChoice(input: { repeat?: string | null; weekdays?: WeekdayKey[]; until?: string | null }): RepeatChoice | null {
  if (!input.repeat) return null;
  return {
    repeat: input.repeat as RepeatChoice['repeat'],
    ...(input.weekdays && { weekdays: input.weekdays }),
    // The last day, to its end, as wall time (rules are expanded in wall time).
    ...(input.until && { until: new Date(`${input.until}T23:59:59Z`) }),
  };
}

async function checkParticipants(ctx: CalendarContext, ids: string[]) {
  const unique = [...new Set(ids)].filter((id) => id !== ctx.user.id);
  const active = await activeMemberUserIds(ctx.db, ctx.company.id, unique);
  if (active.length !== unique.length) throw fail('BAD_REQUEST', M.notColleague);
  return unique;
}

/** Tenancy: only contacts of this company can be invited. */
async function checkContacts(ctx: CalendarContext, ids: string[]) {
  const rows = await contactRows(ctx, ids);
  if (rows.size !== new Set(ids).size) throw fail('BAD_REQUEST', M.notContact);
  return [...rows.values()];
}

/** Every occurrence this member sees in [from, to), in start order. */
export async function listRange(ctx: CalendarContext, from: Date, to: Date) {
  const events = await ctx.db.calendarEvent.findMany({
    where: { AND: [visible(ctx), { OR: [{ rrule: { not: null }, start: { lt: to } }, { start: { lt: to }, end: { gt: from } }] }] },
    include: FULL,
    take: 2000,
  });
  const people = await names(ctx, events.flatMap((e) => [e.creatorId, ...e.participants.map((p) => p.userId)]));
  const contacts = await contactRows(ctx, events.flatMap((e) => e.contacts.map((c) => c.contactId)));
  const out = events.flatMap((e) =>
    expand(e, from, to, e.exceptions).map((o) => ({
      eventId: e.id,
      occurrenceStart: o.occurrenceStart,
      start: o.start,
      end: o.end,
      title: o.title ?? e.title,
      description: o.description ?? e.description,
      allDay: e.allDay,
      timeZone: e.timeZone,
      isMeeting: e.isMeeting,
      recurring: !!e.rrule,
      repeat: e.repeat,
      exception: o.exception,
      mine: e.creatorId === ctx.user.id,
      creatorName: people.get(e.creatorId) ?? null,
      participants: e.participants.filter((p) => !p.removed).map((p) => ({ userId: p.userId, name: people.get(p.userId) ?? null })),
      contacts: contactView(e, contacts),
      conversationId: e.conversationId,
      appointmentId: e.appointmentId,
    })),
  );
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** One occurrence as it is now (moved or not), by the start the rule gives it. */
function occurrenceAt(e: FullEvent, key: Date) {
  const plain = expand(e, new Date(key.getTime() - 1), new Date(key.getTime() + 1)).find((o) => o.occurrenceStart.getTime() === key.getTime());
  const ex = e.exceptions.find((x) => x.occurrenceStart.getTime() === key.getTime() && !x.cancelled);
  return plain && { occurrenceStart: key, start: ex?.start ?? plain.start, end: ex?.end ?? plain.end };
}

async function load(ctx: CalendarContext, eventId: string): Promise<FullEvent> {
  const e = await ctx.db.calendarEvent.findFirst({ where: { AND: [{ id: eventId }, visible(ctx)] }, include: FULL });
  if (!e) throw fail('NOT_FOUND', M.notFound);
  return e;
}

/** The event (series master) as the edit form needs it. */
export async function getEvent(ctx: CalendarContext, eventId: string) {
  const e = await load(ctx, eventId);
  const people = await names(ctx, [e.creatorId, ...e.participants.map((p) => p.userId)]);
  const contacts = await contactRows(ctx, e.contacts.map((c) => c.contactId));
  return {
    id: e.id, title: e.title, description: e.description, start: e.start, end: e.end, allDay: e.allDay, timeZone: e.timeZone,
    isMeeting: e.isMeeting, remind: e.remind, repeat: e.repeat, weekdays: ruleWeekdays(e.rrule), until: ruleUntil(e.rrule), rrule: e.rrule,
    mine: e.creatorId === ctx.user.id, creatorName: people.get(e.creatorId) ?? null, conversationId: e.conversationId,
    participants: e.participants.filter((p) => !p.removed).map((p) => ({ userId: p.userId, name: people.get(p.userId) ?? null })),
    contacts: contactView(e, contacts),
  };
}

/** Colleagues who may be invited: the company's active members. */
export async function colleagues(ctx: CalendarContext) {
  const rows = await ctx.db.member.findMany({
    where: { companyId: ctx.company.id, inviteAccepted: true, blocked: false, removed: false, userId: { not: ctx.user.id } },
    select: { user: { select: { id: true, name: true } } },
    take: 500,
  });
  return rows.map((r) => ({ userId: r.user.id, name: r.user.name })).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
}

/**
 * Writes one event and its reminders inside the caller's transaction: createEvent uses it, and so
 * does an appointment, whose event must exist exactly when the appointment does.
 */
export async function insertEvent(
  tx: Prisma.TransactionClient,
  now: Date,
  data: Omit<Prisma.CalendarEventUncheckedCreateInput, 'participants' | 'contacts' | 'exceptions'> & { participantIds?: string[]; contactIds?: string[] },
) {
  const { participantIds = [], contactIds = [], ...row } = data;
  const event = await tx.calendarEvent.create({
    data: { ...row, participants: { create: participantIds.map((userId) => ({ userId })) }, contacts: { create: contactIds.map((contactId) => ({ contactId })) } },
    include: FULL,
  });
  await syncReminders(tx, event, now);
  return event;
}

export async function createEvent(ctx: CalendarContext, input: z.output<typeof calendarCreateInput>) {
  const participantIds = await checkParticipants(ctx, input.participantIds);
  const contacts = await checkContacts(ctx, input.contactIds);
  const langs = await languagesOf(ctx, participantIds);
  const choice = repeatChoice(input);
  const title = eventTitle(input.title);
  const { event, notifications } = await ctx.db.$transaction(async (tx) => {
    // A meeting with colleagues gets a conversation of its own (ateId): its chat and its call.
    const conversation =
      input.isMeeting && participantIds.length > 0
        ? await insertMeetingConversation(tx, { companyId: ctx.company.id, userId: ctx.user.id }, title, participantIds, ctx.clock.now())
        : null;
    const event = await insertEvent(tx, ctx.clock.now(), {
      conversationId: conversation?.id ?? null,
      companyId: ctx.company.id, creatorId: ctx.user.id, title, description: input.description, start: input.start, end: input.end,
      allDay: input.allDay, timeZone: input.timeZone, isMeeting: input.isMeeting, remind: input.remind,
      repeat: choice?.repeat ?? null, rrule: choice ? buildRule(input.start, input.timeZone, choice) : null,
      participantIds, contactIds: contacts.map((c) => c.id),
    });
    const notifications = await createNotifications(
      tx,
      participantIds.map((userId) => ({
        companyId: ctx.company.id, userId, type: 'calendarInvite', title: serverText(langs.get(userId) ?? 'en', input.isMeeting ? 'newMeeting' : 'newEvent'),
        subtitle: `${title} · ${ctx.user.name ?? ''}`.trim(), action: `/i/calendar?at=${input.start.toISOString()}`,
      })),
    );
    return { event, notifications };
  });
  pushNotifications(ctx.realtime, notifications);
  tell(ctx, event.id, audience(event));
  if (event.conversationId) announceConversation(ctx.realtime, audience(event), event.conversationId);
  await mailContacts(ctx, event, contacts, 'invited');
  await mailMembers(ctx, event, participantIds);
  return { id: event.id, conversationId: event.conversationId };
}

export async function updateEvent(ctx: CalendarContext, input: z.output<typeof calendarUpdateInput>) {
  const e = await load(ctx, input.eventId);
  const isCreator = e.creatorId === ctx.user.id;
  const recurring = !!e.rrule;
  if (!mayEdit(isCreator, recurring, input.scope)) throw fail('FORBIDDEN', recurring ? M.onlySeriesCreator : M.onlyCreator);
  const before = audience(e);

  if (recurring && input.scope === 'occurrence') {
    const key = input.occurrenceStart;
    if (!key || !isOccurrence(e, key)) throw fail('BAD_REQUEST', M.noOccurrence);
    const current = occurrenceAt(e, key);
    const length = current ? current.end.getTime() - current.start.getTime() : e.end.getTime() - e.start.getTime();
    const start = input.start ?? current?.start ?? key;
    const end = input.end ?? (input.start ? new Date(input.start.getTime() + length) : current?.end ?? new Date(key.getTime() + length));
    if (end <= start) throw fail('BAD_REQUEST', M.endBeforeStart);
    const data = {
      start, end, cancelled: false,
      ...(input.title !== undefined && { title: eventTitle(input.title) }),
      ...(input.description !== undefined && { description: input.description }),
    };
    await ctx.db.$transaction(async (tx) => {
      await tx.calendarException.upsert({ where: { eventId_occurrenceStart: { eventId: e.id, occurrenceStart: key } }, create: { eventId: e.id, occurrenceStart: key, ...data }, update: data });
      await syncReminders(tx, await tx.calendarEvent.findUniqueOrThrow({ where: { id: e.id }, include: { exceptions: true } }), ctx.clock.now());
    });
    tell(ctx, e.id, before);
    return { id: e.id };
  }

  // The whole series, or a single event.
  const participantIds = input.participantIds && (await checkParticipants(ctx, input.participantIds));
  const contacts = input.contactIds && (await checkContacts(ctx, input.contactIds));
  const langs = await languagesOf(ctx, participantIds ?? []);
  let start = e.start;
  let end = e.end;
  if (input.start || input.end) {
    const from = (recurring && input.occurrenceStart && occurrenceAt(e, input.occurrenceStart)) || { start: e.start, end: e.end, occurrenceStart: e.start };
    const newStart = input.start ?? from.start;
    const newEnd = input.end ?? new Date(newStart.getTime() + from.end.getTime() - from.start.getTime());
    if (recurring && input.occurrenceStart) {
      // Dragging one occurrence of the series moves every one by the same wall-clock shift.
      const shift = wallTime(newStart, e.timeZone).getTime() - wallTime(from.start, e.timeZone).getTime();
      start = zonedInstant(new Date(wallTime(e.start, e.timeZone).getTime() + shift), e.timeZone);
    } else start = newStart;
    end = new Date(start.getTime() + newEnd.getTime() - newStart.getTime());
  }
  if (end <= start) throw fail('BAD_REQUEST', M.endBeforeStart);

  let rrule = e.rrule;
  let repeat = e.repeat;
  if (input.repeat !== undefined) {
    const choice = repeatChoice({ repeat: input.repeat, weekdays: input.weekdays ?? ruleWeekdays(e.rrule), until: input.until });
    rrule = choice ? buildRule(start, e.timeZone, choice) : null;
    repeat = choice?.repeat ?? null;
  } else if (rrule && start.getTime() !== e.start.getTime()) rrule = withStart(rrule, start);
  // Exceptions are keyed by the rule's times: a new time or rule leaves them pointing nowhere.
  const ruleChanged = rrule !== e.rrule;

  let conversationId: string | null = null;
  let updatedRow: CalendarEvent = e;
  let addedMembers: string[] = [];
  const notifications = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.calendarEvent.update({
      where: { id: e.id },
      data: {
        start, end, rrule, repeat, updatedAt: ctx.clock.now(),
        ...(input.title !== undefined && { title: eventTitle(input.title) }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.allDay !== undefined && { allDay: input.allDay }),
        ...(input.isMeeting !== undefined && { isMeeting: input.isMeeting }),
        ...(input.remind !== undefined && { remind: input.remind }),
        ...(ruleChanged && { exceptions: { deleteMany: {} } }),
      },
      include: { exceptions: true },
    });
    updatedRow = updated;
    if (contacts) {
      await tx.calendarContact.deleteMany({ where: { eventId: e.id, contactId: { notIn: contacts.map((c) => c.id) } } });
      await tx.calendarContact.createMany({ data: contacts.map((c) => ({ eventId: e.id, contactId: c.id })), skipDuplicates: true });
    }
    let added: string[] = [];
    if (participantIds) {
      const had = new Set(e.participants.filter((p) => !p.removed).map((p) => p.userId));
      added = participantIds.filter((id) => !had.has(id));
      addedMembers = added;
      await tx.calendarParticipant.deleteMany({ where: { eventId: e.id, userId: { notIn: participantIds } } });
      for (const userId of participantIds) {
        await tx.calendarParticipant.upsert({ where: { eventId_userId: { eventId: e.id, userId } }, create: { eventId: e.id, userId }, update: { removed: false } });
      }
    }
    await syncReminders(tx, updated, ctx.clock.now());
    const people = participantIds ?? e.participants.filter((p) => !p.removed).map((p) => p.userId);
    if (updated.isMeeting && updated.conversationId && participantIds) {
      await syncMeetingParticipants(tx, updated.conversationId, [e.creatorId, ...participantIds], ctx.clock.now());
      conversationId = updated.conversationId;
    } else if (updated.isMeeting && !updated.conversationId && people.length > 0) {
      // Made a meeting, or given its first colleagues, after it was created.
      const created = await insertMeetingConversation(tx, { companyId: ctx.company.id, userId: e.creatorId }, updated.title, people, ctx.clock.now());
      await tx.calendarEvent.update({ where: { id: e.id }, data: { conversationId: created.id } });
      conversationId = created.id;
    }
    return createNotifications(
      tx,
      added.map((userId) => ({
        companyId: ctx.company.id, userId, type: 'calendarInvite', title: serverText(langs.get(userId) ?? 'en', updated.isMeeting ? 'newMeeting' : 'newEvent'),
        subtitle: updated.title, action: `/i/calendar?at=${start.toISOString()}`,
      })),
    );
  });
  pushNotifications(ctx.realtime, notifications);
  const told = new Set([...before, ...(participantIds ?? []), ctx.user.id]);
  tell(ctx, e.id, told);
  if (conversationId) announceConversation(ctx.realtime, told, conversationId);
  // Contacts: the new ones are invited, those kept get the change, those taken off its cancellation.
  const had = await contactRows(ctx, e.contacts.map((c) => c.contactId));
  const now = contacts ?? [...had.values()];
  const nowIds = new Set(now.map((c) => c.id));
  await mailContacts(ctx, updatedRow, now.filter((c) => !had.has(c.id)), 'invited');
  await mailMembers(ctx, updatedRow, addedMembers);
  await mailContacts(ctx, updatedRow, now.filter((c) => had.has(c.id)), 'updated');
  await mailContacts(ctx, updatedRow, [...had.values()].filter((c) => !nowIds.has(c.id)), 'cancelled');
  return { id: e.id };
}

export async function removeEvent(ctx: CalendarContext, input: z.output<typeof calendarRemoveInput>) {
  const e = await load(ctx, input.eventId);
  const effect = deleteEffect(e.creatorId === ctx.user.id, !!e.rrule, input.scope);
  const before = audience(e);
  if (effect === 'removeSelf') {
    // Out of the event is out of its chat too (keeping what was said until now, as a group's leaver does).
    await ctx.db.$transaction(async (tx) => {
      await tx.calendarParticipant.update({ where: { eventId_userId: { eventId: e.id, userId: ctx.user.id } }, data: { removed: true } });
      if (e.conversationId) await leaveMeetingConversation(tx, e.conversationId, ctx.user.id);
    });
    tell(ctx, e.id, [ctx.user.id]);
    if (e.conversationId) announceConversation(ctx.realtime, before, e.conversationId);
    return { effect };
  }
  if (effect === 'cancelOccurrence') {
    const key = input.occurrenceStart;
    if (!key || !isOccurrence(e, key)) throw fail('BAD_REQUEST', M.noOccurrence);
    // Its time as the contacts last heard it (a moved occurrence keeps its key); once cancelled, it is not mailed again.
    const current = occurrenceAt(e, key);
    const already = e.exceptions.some((x) => x.occurrenceStart.getTime() === key.getTime() && x.cancelled);
    await ctx.db.$transaction(async (tx) => {
      await tx.calendarException.upsert({
        where: { eventId_occurrenceStart: { eventId: e.id, occurrenceStart: key } },
        create: { eventId: e.id, occurrenceStart: key, cancelled: true },
        update: { cancelled: true },
      });
      await tx.scheduledTask.deleteMany({ where: { eventId: e.id, occurrenceStart: key, firedAt: null } });
    });
    if (current && !already) {
      await mailContacts(ctx, e, [...(await contactRows(ctx, e.contacts.map((c) => c.contactId))).values()], { cancelledOccurrence: current });
    }
  } else {
    // The meeting's chat is concluded (state 9999), as a finished conversation is: its history stays
    // readable to those who took part, and it leaves the open lists.
    await ctx.db.$transaction(async (tx) => {
      await tx.scheduledTask.deleteMany({ where: { eventId: e.id } });
      await tx.calendarEvent.delete({ where: { id: e.id } });
      if (e.conversationId) await concludeMeetingConversation(tx, e.conversationId, ctx.clock.now());
    });
    if (e.conversationId) announceConversation(ctx.realtime, before, e.conversationId);
    await mailContacts(ctx, e, [...(await contactRows(ctx, e.contacts.map((c) => c.contactId))).values()], 'cancelled');
  }
  tell(ctx, e.id, before);
  return { effect };
}
