import { reportInput } from '../../../shared/schemas/reports';
import { memberProcedure, router } from '../../trpc';
import * as reports from './service';

/** The dashboard: admins, and profiles with viewReports (limited to the attendants they may see). */
export const reportsRouter = router({
  dashboard: memberProcedure
    .meta({ permission: 'viewReports' })
    .input(reportInput)
    .query(({ ctx, input }) => reports.dashboard(ctx.db, ctx, input, ctx.clock.now())),
  /** Used and free storage (also on the company account screen). */
  storage: memberProcedure.meta({ permission: 'viewReports' }).query(({ ctx }) => reports.storageOf(ctx.db, ctx.company)),
  filters: memberProcedure.meta({ permission: 'viewReports' }).query(({ ctx }) => reports.filterOptions(ctx.db, ctx)),
});
