/**
 * Calendar (/i/calendar); every procedure takes `domain` and needs the plan flag `calendar`.
 *   calendar.list q {from, to} -> the occurrences I see in the range (series expanded)
 *   calendar.get q {eventId} -> the event (series master) for the form
 *   calendar.colleagues q -> active members who can be invited
 *   calendar.create m {title, description, start, end, allDay, timeZone, isMeeting, remind, participantIds, repeat?, weekdays?, until?}
 *   calendar.update m {eventId, scope: occurrence|series, occurrenceStart?, ...fields}
 *   calendar.remove m {eventId, scope, occurrenceStart?} -> {effect: deleteEvent|cancelOccurrence|removeSelf}
 *   calendar.feedUrl q / rotateFeed m / revokeFeed m -> my private iCalendar URL (GET /calendar/feed/<token>.ics)
 * Socket: calendar:changed {eventId} to the creator and the participants.
 */
import { calendarCreateInput, calendarEventInput, calendarRangeInput, calendarRemoveInput, calendarUpdateInput } from '../../../shared/schemas/calendar';
import { z } from 'zod';
import { domainSchema } from '../../../shared/schemas/company';
import { memberProcedure, router } from '../../trpc';
import { feedUrl, revokeFeed } from './feed';
import * as calendar from './service';

const planned = memberProcedure.meta({ plan: 'calendar' });

export const calendarRouter = router({
  list: planned.input(calendarRangeInput).query(({ ctx, input }) => calendar.listRange(ctx, input.from, input.to)),
  get: planned.input(calendarEventInput).query(({ ctx, input }) => calendar.getEvent(ctx, input.eventId)),
  colleagues: planned.input(z.object({ domain: domainSchema })).query(({ ctx }) => calendar.colleagues(ctx)),
  create: planned.input(calendarCreateInput).mutation(({ ctx, input }) => calendar.createEvent(ctx, input)),
  update: planned.input(calendarUpdateInput).mutation(({ ctx, input }) => calendar.updateEvent(ctx, input)),
  remove: planned.input(calendarRemoveInput).mutation(({ ctx, input }) => calendar.removeEvent(ctx, input)),
  feedUrl: planned.input(z.object({ domain: domainSchema })).query(({ ctx }) => feedUrl(ctx, false)),
  rotateFeed: planned.input(z.object({ domain: domainSchema })).mutation(({ ctx }) => feedUrl(ctx, true)),
  revokeFeed: planned.input(z.object({ domain: domainSchema })).mutation(({ ctx }) => revokeFeed(ctx)),
});
