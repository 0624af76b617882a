import { createProfileInput, profileIdInput, updateProfileInput } from '../../../shared/schemas/profiles';
import { adminProcedure, router } from '../../trpc';
import * as profiles from './service';

/** Permission profiles (perfis): admins manage them (spec 6). */
export const profilesRouter = router({
  list: adminProcedure.query(({ ctx }) => profiles.listProfiles(ctx)),
  create: adminProcedure.input(createProfileInput).mutation(({ ctx, input }) => profiles.createProfile(ctx, input)),
  update: adminProcedure.input(updateProfileInput).mutation(({ ctx, input }) => profiles.updateProfile(ctx, input)),
  delete: adminProcedure.input(profileIdInput).mutation(({ ctx, input }) => profiles.deleteProfile(ctx, input.profileId)),
});
