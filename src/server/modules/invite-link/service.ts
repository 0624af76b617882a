/**
 * The company's invitation link (/i/optionsList/inviteLink): {PUBLIC_URL}/{domain}/newc/{memberId},
 * where the id names the member who shared it. Whoever opens it asks to join, and an administrator
 * approves as for any request (company module). Shortened through the link shortener when one is
 * configured, with a QR code of the link that is shown.
 */
import { lazyPackage } from '../../lazy-package';
import type { Company, Member } from '../../../generated/prisma/client';
import type { LinkShortener } from '../../shortener';

const qrcode = lazyPackage<typeof import('qrcode')>('qrcode');

export async function inviteLink(ctx: { company: Company; member: Member; shortener: LinkShortener; publicUrl: string }) {
  const longUrl = `${ctx.publicUrl.replace(/\/$/, '')}/${ctx.company.domain}/newc/${ctx.member.id}`;
  const url = await ctx.shortener.shorten(longUrl);
  // A PNG data URL: the page shows it with <img>, no markup from the server.
  const qrDataUrl = await qrcode().toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
  return { url, longUrl, shortened: url !== longUrl, qrDataUrl, companyName: ctx.company.name };
}
