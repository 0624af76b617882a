import { operatorRouter } from './modules/billing/operator-router';
import { appointmentsRouter, bookingRouter } from './modules/appointments/router';
import { billingRouter } from './modules/billing/router';
import { calendarRouter } from './modules/calendar/router';
import { callsRouter } from './modules/calls/router';
import { channelsRouter } from './modules/channels/router';
import { chatRouter } from './modules/chat/router';
import { commerceRouter, commerceViewRouter } from './modules/commerce/router';
import { clientsRouter } from './modules/clients/router';
import { companyRouter } from './modules/company/router';
import { contactsRouter } from './modules/contacts/router';
import { feedsRouter } from './modules/feeds/router';

import { formsCustomerRouter, formsRouter } from './modules/forms/router';
import { accountRouter, authRouter } from './modules/identity/router';
import { inviteLinkRouter } from './modules/invite-link/router';
import { invitesRouter, membersRouter } from './modules/members/router';
import { notesRouter } from './modules/notes/router';
import { notificationsRouter } from './modules/notifications/router';
import { profilesRouter } from './modules/profiles/router';
import { repliesRouter } from './modules/replies/router';
import { groupsRouter, queuesRouter } from './modules/queues/router';
import { customerRouter, serviceRouter } from './modules/service/router';
import { additionalFieldsRouter, settingsRouter } from './modules/settings/router';
import { reportsRouter } from './modules/reports/router';
import { systemRouter } from './modules/system/router';
import { telemedicineRouter } from './modules/telemedicine/router';
import { router } from './trpc';

/** The app router: one line per module. */
export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  company: companyRouter,
  members: membersRouter,
  invites: invitesRouter,
  profiles: profilesRouter,
  settings: settingsRouter,
  additionalFields: additionalFieldsRouter,
  clients: clientsRouter,
  chat: chatRouter,
  queues: queuesRouter,
  groups: groupsRouter,
  service: serviceRouter,
  customer: customerRouter,
  notifications: notificationsRouter,
  calls: callsRouter,
  calendar: calendarRouter,
  appointments: appointmentsRouter,
  booking: bookingRouter,
  channels: channelsRouter,
  billing: billingRouter,
  operator: operatorRouter,
  reports: reportsRouter,
  feeds: feedsRouter,
  notes: notesRouter,
  contacts: contactsRouter,
  inviteLink: inviteLinkRouter,
  replies: repliesRouter,

  forms: formsRouter,
  formsCustomer: formsCustomerRouter,
  commerce: commerceRouter,
  commerceView: commerceViewRouter,
  telemedicine: telemedicineRouter,
});

export type AppRouter = typeof appRouter;
