import { TRPCError } from '@trpc/server';
import type { Mailer } from '../../mail';
import { clientInviteMail } from '../../mail/templates';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { CompanyContext } from '../company/service';
import { mailFailedMessage } from '../members/service';

/**
 * Client companies (clientesEmpresa): a company invites another, named by its domain, to be its
 * client; an admin of that company accepts. The link belongs to the inviting company.
 *
 * A domain invited before it existed is only a name: whoever registers it later is a stranger to
 * the inviter. Such a link (needsConfirmation) takes effect only once the inviting company also
 * confirms, after seeing who registered it. `accepted` stays the one flag that says the link is in
 * effect; `acceptedAt` records the client's acceptance, `confirmedAt` the inviter's confirmation.
 */
export const CLIENT_MESSAGES = {
  notFound: 'Client company not found',
  notRegistered: 'No company has registered this domain yet',
} as const;

type LinkState = 'pending' | 'awaitingConfirmation' | 'accepted';
const linkState = (l: { accepted: boolean; acceptedAt: Date | null }): LinkState =>
  l.accepted ? 'accepted' : l.acceptedAt ? 'awaitingConfirmation' : 'pending';
/**
 * Sets `accepted` from the row as it is now: the client's acceptance and the inviter's
 * confirmation may land at the same moment, and the statement that comes last sees both.
 */
async function settleLink(db: Db, id: string) {
  await db.$executeRaw`UPDATE "ClientCompanyLink" SET "accepted" = ("acceptedAt" IS NOT NULL AND (NOT "needsConfirmation" OR "confirmedAt" IS NOT NULL)) WHERE "id" = ${id}::uuid`;
  return db.clientCompanyLink.findUniqueOrThrow({ where: { id } });
}
const confirmationPending = (l: { needsConfirmation: boolean; confirmedAt: Date | null }) => l.needsConfirmation && !l.confirmedAt;
export interface ClientDeps extends CompanyContext {
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
}

export async function listClients({ db, company }: CompanyContext) {
  const links = await db.clientCompanyLink.findMany({ where: { companyId: company.id }, orderBy: { invitedAt: 'desc' } });
  const registered = new Set(
    (await db.company.findMany({ where: { domain: { in: links.filter(confirmationPending).map((l) => l.clientDomain) } }, select: { domain: true } })).map((c) => c.domain),
  );
  return links.map((l) => ({
    clientDomain: l.clientDomain,
    name: l.name,
    email: l.email,
    invitedAt: l.invitedAt,
    accepted: l.accepted,
    acceptedAt: l.acceptedAt,
    state: linkState(l),
    /** The inviter must still confirm; it can once a company holds the domain. */
    needsConfirmation: confirmationPending(l),
    canConfirm: confirmationPending(l) && registered.has(l.clientDomain),
  }));
}

/** The other side: companies that invited this one (pending and accepted), for its admins to accept. */
export async function listClientInvitations({ db, company }: CompanyContext) {
  const links = await db.clientCompanyLink.findMany({
    where: { clientDomain: company.domain },
    include: { company: { select: { domain: true, name: true } } },
    orderBy: { invitedAt: 'desc' },
  });
  return links.map((l) => ({ originDomain: l.company.domain, originName: l.company.name, invitedAt: l.invitedAt, accepted: l.accepted, state: linkState(l) }));
}

/**
 * One link per client domain: inviting again refreshes the pending link and re-sends the e-mail;
 * an accepted client short-circuits without mail. The domain need not exist yet: the link waits
 * for a company registered under it to accept.
 */
export async function inviteClient(deps: ClientDeps, input: { clientDomain: string; email: string }) {
  const { db, company } = deps;
  if (input.clientDomain === company.domain) throw new TRPCError({ code: 'BAD_REQUEST', message: 'A company cannot be its own client' });
  const existing = await db.clientCompanyLink.findUnique({ where: { companyId_clientDomain: { companyId: company.id, clientDomain: input.clientDomain } } });
  if (existing?.accepted) return { alreadyClient: true, sentTo: null };
  const client = await db.company.findUnique({ where: { domain: input.clientDomain }, select: { name: true } });
  const data = { email: input.email, name: client?.name ?? '', invitedAt: deps.clock.now() };
  await db.clientCompanyLink.upsert({
    where: { companyId_clientDomain: { companyId: company.id, clientDomain: input.clientDomain } },
    // Sticky: sending the invitation again does not vouch for whoever registered the domain since.
    create: { companyId: company.id, clientDomain: input.clientDomain, needsConfirmation: !client, ...data },
    update: data,
  });
  try {
    await deps.mailer.send(
      clientInviteMail({
        to: input.email,
        companyName: company.name,
        clientDomain: input.clientDomain,
        link: `${deps.publicUrl}/i/settings/companyCostumers/clientsViewer?origin=${encodeURIComponent(company.domain)}`,
      }),
    );
  } catch (err) {
    throw new TRPCError({ code: 'BAD_GATEWAY', message: mailFailedMessage(input.email), cause: err });
  }
  return { alreadyClient: false, sentTo: input.email };
}

/** Called by an admin of the CLIENT company (ctx.company): accepts the origin company's invitation. */
export async function acceptClientInvitation({ db, company, clock }: CompanyContext & { clock: Clock }, originDomain: string) {
  const origin = await db.company.findUnique({ where: { domain: originDomain }, select: { id: true, domain: true, name: true } });
  const link = origin ? await db.clientCompanyLink.findUnique({ where: { companyId_clientDomain: { companyId: origin.id, clientDomain: company.domain } } }) : null;
  if (!origin || !link) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invitation not found' });
  await db.clientCompanyLink.updateMany({ where: { id: link.id, acceptedAt: null }, data: { acceptedAt: clock.now() } });
  await db.clientCompanyLink.update({ where: { id: link.id }, data: { name: company.name } });
  const updated = await settleLink(db, link.id);
  return { originDomain: origin.domain, originName: origin.name, accepted: updated.accepted, state: linkState(updated) };
}

/**
 * By an admin of the INVITING company (ctx.company): vouches for the company that registered a
 * domain invited before it existed. Takes effect at once if that company already accepted.
 */
export async function confirmClient({ db, company, clock }: CompanyContext & { clock: Clock }, clientDomain: string) {
  const link = await db.clientCompanyLink.findUnique({ where: { companyId_clientDomain: { companyId: company.id, clientDomain } } });
  if (!link) throw new TRPCError({ code: 'NOT_FOUND', message: CLIENT_MESSAGES.notFound });
  if (!confirmationPending(link)) return { clientDomain, state: linkState(link) };
  const client = await db.company.findUnique({ where: { domain: clientDomain }, select: { name: true } });
  if (!client) throw new TRPCError({ code: 'BAD_REQUEST', message: CLIENT_MESSAGES.notRegistered });
  // Conditional on the row still waiting, so two admins confirming at once write once.
  await db.clientCompanyLink.updateMany({ where: { id: link.id, confirmedAt: null }, data: { confirmedAt: clock.now(), name: client.name } });
  const updated = await settleLink(db, link.id);
  return { clientDomain, state: linkState(updated) };
}

/** A removal deletes the link (spec 4). */
export async function removeClient({ db, company }: CompanyContext, clientDomain: string) {
  const { count } = await db.clientCompanyLink.deleteMany({ where: { companyId: company.id, clientDomain } });
  if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: CLIENT_MESSAGES.notFound });
  return { ok: true };
}
