import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Titles the server writes (English), in the reader's language. */
const TITLES: Record<string, MessageDescriptor> = {
  'New request to join': msg`New request to join`,
  'Request approved': msg`Request approved`,
  'New request in the queue': msg`New request in the queue`,
  'A service was transferred to you': msg`A service was transferred to you`,
  'SLA proposal accepted': msg`SLA proposal accepted`,
  'SLA proposal declined': msg`SLA proposal declined`,
  'New meeting': msg`New meeting`,
  'New event': msg`New event`,
  'New appointment': msg`New appointment`,
  'Your appointment is waiting': msg`Your appointment is waiting`,
};

export const notificationTitle = (i18n: I18n, title: string) => (TITLES[title] ? i18n._(TITLES[title]) : title);
