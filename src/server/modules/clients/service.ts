import { TRPCError } from '@trpc/server';
import type { Mailer } from '../../mail';
import { clientInviteMail } from '../../mail/templates';
import type { Clock } from '../../clock';
import type { CompanyContext } from '../company/service';
import { mailFailedMessage } from '../members/service';

/**
 * Client companies (clientesEmpresa): a company invites another, named by its domain, to be its
 * client; an admin of that company accepts. The link belongs to the inviting company.
 */
export interface ClientDeps extends CompanyContext {
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
}

export async function listClients({ db, company }: CompanyContext) {
  const links = await db.clientCompanyLink.findMany({ where: { companyId: company.id }, orderBy: { invitedAt: 'desc' } });
  return links.map((l) => ({ clientDomain: l.clientDomain, name: l.name, email: l.email, invitedAt: l.invitedAt, accepted: l.accepted, acceptedAt: l.acceptedAt }));
}

/** The other side: companies that invited this one (pending and accepted), for its admins to accept. */
export async function listClientInvitations({ db, company }: CompanyContext) {
  const links = await db.clientCompanyLink.findMany({
    where: { clientDomain: company.domain },
    include: { company: { select: { domain: true, name: true } } },
    orderBy: { invitedAt: 'desc' },
  });
  return links.map((l) => ({ originDomain: l.company.domain, originName: l.company.name, invitedAt: l.invitedAt, accepted: l.accepted }));
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
    create: { companyId: company.id, clientDomain: input.clientDomain, ...data },
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
  const { count } = origin
    ? await db.clientCompanyLink.updateMany({
        where: { companyId: origin.id, clientDomain: company.domain },
        data: { accepted: true, acceptedAt: clock.now(), name: company.name },
      })
    : { count: 0 };
  if (!origin || count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invitation not found' });
  return { originDomain: origin.domain, originName: origin.name, accepted: true };
}

/** A removal deletes the link (spec 4). */
export async function removeClient({ db, company }: CompanyContext, clientDomain: string) {
  const { count } = await db.clientCompanyLink.deleteMany({ where: { companyId: company.id, clientDomain } });
  if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Client company not found' });
  return { ok: true };
}
