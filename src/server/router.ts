import { chatRouter } from './modules/chat/router';
import { clientsRouter } from './modules/clients/router';
import { companyRouter } from './modules/company/router';
import { accountRouter, authRouter } from './modules/identity/router';
import { invitesRouter, membersRouter } from './modules/members/router';
import { profilesRouter } from './modules/profiles/router';
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
});

export type AppRouter = typeof appRouter;
