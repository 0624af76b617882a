import { z } from 'zod';
import { domainSchema } from '../../../shared/schemas/company';
import { createShortener, type LinkShortener } from '../../shortener';
import { memberProcedure, router } from '../../trpc';
import { inviteLink } from './service';

/** One shortener per process (it keeps the links it already made); built on first use from the config. */
let shortener: { config: object; instance: LinkShortener } | null = null;
function shortenerFor(config: { url?: string; key?: string; login?: string }, logger: Parameters<typeof createShortener>[1]) {
  if (shortener?.config !== config) shortener = { config, instance: createShortener(config, logger) };
  return shortener.instance;
}

/** inviteLink.get q {domain} -> {url, longUrl, shortened, qrDataUrl, companyName}: any active member. */
export const inviteLinkRouter = router({
  get: memberProcedure
    .meta({ plan: 'members' })
    .input(z.object({ domain: domainSchema }))
    .query(({ ctx }) => inviteLink({ ...ctx, shortener: shortenerFor(ctx.config.linkShortener, ctx.logger), publicUrl: ctx.config.publicUrl })),
});
