import { publicProcedure, router } from '../../trpc';
import { withoutPaths } from '../../doors';
import { checkHealth } from './service';

export const systemRouter = router({
  /** What the footer shows: is the server up, and can it hold calls. Never leaks error details. */
  health: publicProcedure.query(async ({ ctx }) => {
    const health = await checkHealth(ctx);
    const { available, reason, preparing } = health.media;
    return { ok: health.ok, version: health.version, media: { available, reason: reason && withoutPaths(reason), preparing } };
  }),
});
