// Not domainSchema: the shell's first download has no zod (issue 22).
import { isDomainName } from '../../shared/domain/domain-name';

/**
 * The old app's invitation links were hash routes (spec 2): /#/convite/{domain} for an organization
 * and /#/convite/{domain}/{serviceId} for a service. People still have them in e-mails and chats,
 * so on start they are read and sent to today's pages. null for any other hash.
 */
export function legacyLinkTarget(hash: string): string | null {
  const match = /^#\/convite\/([^/?#]+)(?:\/([^/?#]+))?\/?$/.exec(hash);
  if (!match) return null;
  const domain = safeDecode(match[1]!)?.toLowerCase();
  if (!domain || !isDomainName(domain)) return null;
  if (!match[2]) return `/${domain}/invite`;
  // The service's own page comes with the chat area; until then its ticket page is the landing spot.
  const serviceId = safeDecode(match[2]);
  return serviceId ? `/${domain}/ticket/${encodeURIComponent(serviceId)}` : null;
}

/** A mangled escape (a link cut in half) is not worth an exception: the link is just not legacy. */
function safeDecode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}
