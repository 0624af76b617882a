import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { refusalRoute, type AccessRefusalReason } from '../../shared/domain/membership';
import { globalDoctorTarget, useIsGlobalDoctor } from './globalDoctor';

const REASONS: readonly AccessRefusalReason[] = ['notMember', 'blocked', 'removed', 'notAccepted', 'emailUnverified'];

function errorData(error: unknown): { code?: unknown; access?: unknown } | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null ? data : undefined;
}

/**
 * Where a company procedure's refusal sends the user: /{emp}/block, /{emp}/wait, e-mail
 * verification, or the login page when nobody (or an anonymous visitor) tried to act.
 * null when the error is not a refusal, or when the screen itself should say so (not a member).
 */
export function routeForAccessError(error: unknown, domain: string, currentPath: string): string | null {
  const data = errorData(error);
  if (data?.code === 'UNAUTHORIZED') return `/i/login?redirect=${encodeURIComponent(currentPath)}`;
  const access = data?.access;
  if (typeof access !== 'string' || !(REASONS as readonly string[]).includes(access)) return null;
  return refusalRoute(domain, access as AccessRefusalReason);
}

/**
 * For company screens: sends the user where a refusal says and tells the screen to draw nothing
 * meanwhile: `if (useAccessRefusalRedirect(domain, query.error)) return <Spinner />;`
 */
export function useAccessRefusalRedirect(domain: string, error: unknown): boolean {
  const navigate = useNavigate();
  const location = useLocation();
  const globalDoctor = useIsGlobalDoctor();
  const target = error ? globalDoctorTarget(routeForAccessError(error, domain, location.pathname + location.search), domain, globalDoctor) : null;
  useEffect(() => {
    if (target) void navigate(target, { replace: true });
  }, [target, navigate]);
  return target !== null;
}

/**
 * A refusal (4xx: bad input, not signed in, no permission, plan without the feature, not found)
 * will not change by asking again: queries show it at once instead of retrying behind a spinner.
 */
export function isRefusal(error: unknown): boolean {
  const status = (errorData(error) as { httpStatus?: unknown } | undefined)?.httpStatus;
  return typeof status === 'number' && status >= 400 && status < 500;
}
