/**
 * Who may act inside a company (spec 4, Member lifecycle): a member who is blocked, removed or has
 * not had the invite accepted has company access blocked.
 */
export interface MembershipState {
  inviteAccepted: boolean;
  blocked: boolean;
  removed: boolean;
}

export type AccessRefusalReason = 'notMember' | 'blocked' | 'removed' | 'notAccepted' | 'emailUnverified';

export interface AccessRefusal {
  code: 'FORBIDDEN';
  reason: AccessRefusalReason;
  /** The spec's text; the client translates it through Lingui. */
  message: string;
}

export const ACCESS_MESSAGES = {
  notMember: 'Atendente nao cadastrado',
  blocked: 'You no longer have access to this organization!',
  removed: 'You no longer have access to this organization!',
  notAccepted: 'Access blocked!',
  emailUnverified: 'Verifique o e-mail para continuar!',
} as const satisfies Record<AccessRefusalReason, string>;

/**
 * null when the member may act; otherwise why not. Blocked wins over removed, removed over waiting.
 * With AppConfig.verifyEmail on, an unverified e-mail keeps everyone out until it is verified.
 */
export function accessRefusal(
  member: MembershipState | null | undefined,
  user: { mustVerifyEmail: boolean } = { mustVerifyEmail: false },
): AccessRefusal | null {
  const reason: AccessRefusalReason | null = user.mustVerifyEmail
    ? 'emailUnverified'
    : !member
    ? 'notMember'
    : member.blocked
      ? 'blocked'
      : member.removed
        ? 'removed'
        : !member.inviteAccepted
          ? 'notAccepted'
          : null;
  return reason ? { code: 'FORBIDDEN', reason, message: ACCESS_MESSAGES[reason] } : null;
}

/**
 * How a person reaches a company's data: as one of its members (member and admin procedures, the
 * company's socket rooms), or through their own participation in one of its conversations (a
 * customer's request, a call they were invited to, a form sent to them).
 */
export type AccessRoute = 'member' | 'participant';

/**
 * The one rule for "may this person act for this company now". As a member: `accessRefusal`. As a
 * participant, anyone who is not a member (a customer, a visitor) or is still waiting for approval
 * may act; a member the company blocked or removed may not, whatever door they use: being a
 * participant of a conversation is no way around the block.
 */
export function mayAct(
  route: AccessRoute,
  member: MembershipState | null | undefined,
  user: { mustVerifyEmail: boolean } = { mustVerifyEmail: false },
): AccessRefusal | null {
  if (route === 'member') return accessRefusal(member, user);
  const reason: AccessRefusalReason | null = member?.blocked ? 'blocked' : member?.removed ? 'removed' : null;
  return reason ? { code: 'FORBIDDEN', reason, message: ACCESS_MESSAGES[reason] } : null;
}

/** Where the client sends a refused member (spec 2, Route guard; /{emp}/wait while waiting). */
export function refusalRoute(domain: string, reason: AccessRefusalReason): string | null {
  if (reason === 'blocked' || reason === 'removed') return `/${domain}/block`;
  if (reason === 'notAccepted') return `/${domain}/wait`;
  if (reason === 'emailUnverified') return `/i/emailVerification?redirect=${encodeURIComponent(`/${domain}`)}`;
  return null;
}
