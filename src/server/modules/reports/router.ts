import { reportInput } from '../../../shared/schemas/reports';
import { memberProcedure, router } from '../../trpc';
import * as reports from './service';

/** The dashboard: admins, and profiles with viewReports (limited to the attendants they may see). */
export const reportsRouter = router({
  dashboard: memberProcedure
    .meta({ permission: 'viewReports' })
    .input(reportInput)
    .query(({ ctx, input }) => reports.dashboard(ctx.db, ctx, input, ctx.clock.now())),
  filters: memberProcedure.meta({ permission: 'viewReports' }).query(({ ctx }) => reports.filterOptions(ctx.db, ctx)),
});
