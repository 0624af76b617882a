import { adminProcedure, memberProcedure, router } from '../../trpc';
import { describeCompany, listMembers } from './service';

export const companyRouter = router({
  /** The company as its member sees it, with the caller's own role. */
  current: memberProcedure.query(({ ctx }) => describeCompany(ctx)),
  /** The members page (spec: admins see and manage members). */
  members: adminProcedure.query(({ ctx }) => listMembers(ctx)),
});
