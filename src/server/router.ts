import { accountRouter, authRouter } from './modules/identity/router';
import { companyRouter } from './modules/company/router';
import { systemRouter } from './modules/system/router';
import { router } from './trpc';

/** The app router: one line per module. */
export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  account: accountRouter,
  company: companyRouter,
});

export type AppRouter = typeof appRouter;
