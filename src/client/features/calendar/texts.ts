import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import { APPOINTMENT_MESSAGES as A } from '../../../shared/schemas/appointments';
import { CALENDAR_MESSAGES as M } from '../../../shared/schemas/calendar';
import { useServerMessage } from '../../guard/company';

/** The calendar's server texts, kept here so the shared catalogue of server texts stays untouched. */
const TEXTS: Record<string, MessageDescriptor> = {
  [M.notFound]: msg`Event not found`,
  [M.onlySeriesCreator]: msg`Only the creator can change or delete the whole series`,
  [M.onlyCreator]: msg`Only the creator can change this event`,
  [M.endBeforeStart]: msg`The end must be after the start`,
  [M.noOccurrence]: msg`This occurrence does not exist`,
  [M.notColleague]: msg`Participants must be active members of this company`,
  [M.weekdays]: msg`Choose at least one weekday`,
  [M.timeZone]: msg`Unknown time zone`,
  [M.tooLong]: msg`An event lasts at most 31 days`,
  [A.slotTaken]: msg`This time is no longer available; choose another`,
  [A.notFound]: msg`Appointment not found`,
  [A.notBookable]: msg`This attendant does not take appointments`,
  [A.alreadyCancelled]: msg`This appointment was cancelled`,
  [A.past]: msg`This appointment has already started`,
  [A.schedule]: msg`Check the availability: slots of 5 to 480 minutes, a buffer of at most 240, windows that do not overlap`,
  [A.range]: msg`Choose a range of at most 62 days`,
  [A.badLink]: msg`This link is not valid`,
  [A.queueNotBookable]: msg`This queue does not take appointments`,
};

export function useCalendarMessage() {
  const { i18n } = useLingui();
  const server = useServerMessage();
  return useCallback(
    (error: { message: string } | null | undefined) => {
      if (!error) return null;
      const hit = Object.entries(TEXTS).find(([text]) => error.message === text || error.message.includes(text));
      return hit ? i18n._(hit[1]) : server(error);
    },
    [i18n, server],
  );
}

/** The browser's IANA zone: events keep the zone they were created in. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
