/**
 * Appointments (/i/schedule, /i/schedule/edit, /i/recent/schedule/{id}); plan flag `calendar`.
 *   appointments.schedule q {zone?} -> my availability (defaults when never saved)
 *   appointments.saveSchedule m {timeZone, slotMinutes, bufferMinutes, windows[]}
 *   appointments.attendants q -> colleagues who take appointments
 *   appointments.slots q {attendantId, from, to} -> free slots
 *   appointments.book m {attendantId, start, name, email} -> a member books for a customer
 *   appointments.mine q {when: upcoming|past} / get q {appointmentId}
 *   appointments.cancel m {appointmentId} / reschedule m {appointmentId, start}
 * The public page (/{emp}), for visitors and customers, not members:
 *   booking.attendants q {domain} -> [] unless the plan has `calendar`
 *   booking.slots q {domain, attendantId, from, to}
 *   booking.book m {domain, attendantId, start, name, email} (a signed-in or anonymous visitor)
 *   booking.byLink q / cancelByLink m {domain, appointmentId, token}: the e-mail's signed cancel link
 *   booking.rescheduleByLink m {domain, appointmentId, token, start}: the customer moves it to another free slot
 *   appointments.queues q -> (admins) the company's queues; queueSchedule q {queueId, zone?} / saveQueueSchedule m: a queue's own availability
 *   appointments.bookableQueues q / queueSlots q {queueId, from, to} / bookQueue m {queueId, start, name, email}:
 *   a member books a queue's free slot for a customer (the public bookQueue's rules and unique slot)
 *   booking.queues q {domain} / queueSlots q {domain, queueId, from, to} / bookQueue m {domain, queueId, start, name, email}:
 *   a queue's slot; the appointment is the queue's, with no attendant yet
 * Socket: appointments:changed {appointmentId} to the attendant.
 */
import { z } from 'zod';
import { planIncludes } from '../../../shared/domain/company';
import { isTimeZone } from '../../../shared/domain/recurrence';
import { appointmentIdInput, bookInput, queueBookInput, queueScheduleInput, queueSlotsInput, saveQueueScheduleInput, cancelLinkInput, rescheduleLinkInput, myAppointmentsInput, publicBookInput, publicSlotsInput, rescheduleInput, saveScheduleInput, slotsInput } from '../../../shared/schemas/appointments';
import { domainSchema } from '../../../shared/schemas/company';
import { memberProcedure, participantProcedure, publicProcedure, router } from '../../trpc';
import { requirePlan } from '../company/plan';
import { findCompany } from '../service/shared';
import * as appointments from './service';
import * as queues from './queues';

const planned = memberProcedure.meta({ plan: 'calendar' });

export const appointmentsRouter = router({
  schedule: planned
    .input(z.object({ zone: z.string().max(64).optional() }))
    .query(({ ctx, input }) => appointments.getSchedule(ctx, input.zone && isTimeZone(input.zone) ? input.zone : undefined)),
  saveSchedule: planned.input(saveScheduleInput).mutation(({ ctx, input }) => appointments.saveSchedule(ctx, input)),
  attendants: planned.query(({ ctx }) => appointments.bookableAttendants(ctx.db, ctx.company.id)),
  slots: planned.input(slotsInput).query(({ ctx, input }) => appointments.slots(ctx.db, ctx.clock.now(), ctx.company.id, { attendantId: input.attendantId }, input.from, input.to)),
  book: planned.input(bookInput).mutation(({ ctx, input }) =>
    appointments.book(ctx, { company: ctx.company, target: { attendantId: input.attendantId }, start: input.start, customerId: null, name: input.name, email: input.email, bookedBy: ctx.user })),
  mine: planned.input(myAppointmentsInput).query(({ ctx, input }) => appointments.listMine(ctx, input.when)),
  get: planned.input(appointmentIdInput).query(({ ctx, input }) => appointments.getOne(ctx, input.appointmentId)),
  cancel: planned.input(appointmentIdInput).mutation(({ ctx, input }) => appointments.cancel(ctx, input.appointmentId)),
  reschedule: planned.input(rescheduleInput).mutation(({ ctx, input }) => appointments.reschedule(ctx, input.appointmentId, input.start)),
  queues: planned.query(({ ctx }) => queues.companyQueues(ctx)),
  queueSchedule: planned.input(queueScheduleInput).query(({ ctx, input }) =>
    queues.getQueueSchedule(ctx, input.queueId, input.zone && isTimeZone(input.zone) ? input.zone : undefined)),
  saveQueueSchedule: planned.input(saveQueueScheduleInput).mutation(({ ctx, input }) => queues.saveQueueSchedule(ctx, input)),
  bookableQueues: planned.query(({ ctx }) => queues.bookableQueues(ctx.db, ctx.company.id)),
  queueSlots: planned.input(queueSlotsInput).query(({ ctx, input }) =>
    appointments.slots(ctx.db, ctx.clock.now(), ctx.company.id, { queueId: input.queueId }, input.from, input.to)),
  bookQueue: planned.input(queueBookInput).mutation(({ ctx, input }) =>
    appointments.book(ctx, { company: ctx.company, target: { queueId: input.queueId }, start: input.start, customerId: null, name: input.name, email: input.email, bookedBy: ctx.user })),
});

export const bookingRouter = router({
  attendants: publicProcedure.input(z.object({ domain: domainSchema })).query(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    return planIncludes(company.plan, 'calendar') ? appointments.bookableAttendants(ctx.db, company.id) : [];
  }),
  slots: publicProcedure.input(publicSlotsInput).query(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    requirePlan(company, 'calendar');
    return appointments.slots(ctx.db, ctx.clock.now(), company.id, { attendantId: input.attendantId }, input.from, input.to);
  }),
  book: participantProcedure.meta({ rate: 'conversations' }).input(publicBookInput).mutation(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    requirePlan(company, 'calendar');
    return appointments.book(ctx, { company, target: { attendantId: input.attendantId }, start: input.start, customerId: ctx.user.id, name: input.name, email: input.email, bookedBy: ctx.user });
  }),
  queues: publicProcedure.input(z.object({ domain: domainSchema })).query(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    return planIncludes(company.plan, 'calendar') ? queues.bookableQueues(ctx.db, company.id) : [];
  }),
  queueSlots: publicProcedure.input(queueSlotsInput).query(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    requirePlan(company, 'calendar');
    return appointments.slots(ctx.db, ctx.clock.now(), company.id, { queueId: input.queueId }, input.from, input.to);
  }),
  bookQueue: participantProcedure.meta({ rate: 'conversations' }).input(queueBookInput).mutation(async ({ ctx, input }) => {
    const company = await findCompany(ctx.db, input.domain);
    requirePlan(company, 'calendar');
    return appointments.book(ctx, { company, target: { queueId: input.queueId }, start: input.start, customerId: ctx.user.id, name: input.name, email: input.email, bookedBy: ctx.user });
  }),
  // The signature is the authority (no account): it opens one appointment of this company.
  byLink: publicProcedure.input(cancelLinkInput).query(async ({ ctx, input }) =>
    appointments.appointmentByLink(ctx, await findCompany(ctx.db, input.domain), input.appointmentId, input.token)),
  cancelByLink: publicProcedure.meta({ rate: 'conversations' }).input(cancelLinkInput).mutation(async ({ ctx, input }) =>
    appointments.cancelByLink(ctx, await findCompany(ctx.db, input.domain), input.appointmentId, input.token)),
  rescheduleByLink: publicProcedure.meta({ rate: 'conversations' }).input(rescheduleLinkInput).mutation(async ({ ctx, input }) =>
    appointments.rescheduleByLink(ctx, await findCompany(ctx.db, input.domain), input.appointmentId, input.token, input.start)),
});
