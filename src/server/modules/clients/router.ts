import { clientAcceptInput, clientInviteInput, clientRemoveInput } from '../../../shared/schemas/company';
import { adminProcedure, router } from '../../trpc';
import * as clients from './service';

/** Client companies (/i/settings/companyCostumers): admins only (spec 6). */
export const clientsRouter = router({
  list: adminProcedure.query(({ ctx }) => clients.listClients(ctx)),
  /** Companies that invited ctx.company to be their client. */
  invitations: adminProcedure.query(({ ctx }) => clients.listClientInvitations(ctx)),
  invite: adminProcedure.meta({ rate: 'invites' }).input(clientInviteInput).mutation(({ ctx, input }) => clients.inviteClient({ ...ctx, publicUrl: ctx.config.publicUrl }, input)),
  /** By an admin of the client company: `domain` is the client, `originDomain` the inviter. */
  accept: adminProcedure.input(clientAcceptInput).mutation(({ ctx, input }) => clients.acceptClientInvitation(ctx, input.originDomain)),
  /** By an admin of the inviting company: vouches for whoever registered a domain invited before it existed. */
  confirm: adminProcedure.input(clientRemoveInput).mutation(({ ctx, input }) => clients.confirmClient(ctx, input.clientDomain)),
  remove: adminProcedure.input(clientRemoveInput).mutation(({ ctx, input }) => clients.removeClient(ctx, input.clientDomain)),
});
