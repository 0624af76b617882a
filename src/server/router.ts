import { billingRouter } from './modules/billing/router';
import { callsRouter } from './modules/calls/router';
import { channelsRouter } from './modules/channels/router';
import { chatRouter } from './modules/chat/router';
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
import { groupsRouter, queuesRouter } from './modules/queues/router';
import { customerRouter, serviceRouter } from './modules/service/router';
import { additionalFieldsRouter, settingsRouter } from './modules/settings/router';
import { systemRouter } from './modules/system/router';
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
  channels: channelsRouter,
  billing: billingRouter,
  feeds: feedsRouter,
  notes: notesRouter,
  contacts: contactsRouter,
  inviteLink: inviteLinkRouter,

  forms: formsRouter,
  formsCustomer: formsCustomerRouter,
});

export type AppRouter = typeof appRouter;
