import type { inferRouterOutputs } from '@trpc/server';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { AppRouter } from '../../server/router';
import { trpc } from '../trpc';

/** What `auth.me` and every sign-in mutation answer. */
export type Me = inferRouterOutputs<AppRouter>['auth']['me'];

export const DEFAULT_REDIRECT = '/i/recent';

/**
 * Only a path on this site: '//host' and '/\host' are read by browsers as another origin, so a
 * crafted link could otherwise send someone elsewhere right after they sign in.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_REDIRECT;
  return value;
}

/** Login and e-mail verification screens: always open, whoever is (or is not) signed in. */
export function isLoginPath(pathname: string): boolean {
  return /^\/i\/(login|emailVerification)(\/|$)/.test(pathname);
}

/** A login screen's link to another, keeping where the user wanted to go. */
export function withRedirect(path: string, redirect: string | null): string {
  return redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;
}

/** Where to go once signed in: the `redirect` query parameter when it is safe. */
export function useRedirectTarget(): { raw: string | null; target: string } {
  const [params] = useSearchParams();
  const raw = params.get('redirect');
  return { raw, target: safeRedirect(raw) };
}

/**
 * After any sign-in: the new user is in the cache before navigating, so the route guard never
 * judges the next screen by the previous (anonymous) user; everything else is refetched for them.
 */
export function useSignedIn() {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const { target } = useRedirectTarget();
  return useCallback(
    async (me: Me) => {
      // A refetch started before this sign-in (e.g. by a sign-out) would land later and put the
      // old answer back: drop it first.
      await utils.auth.me.cancel();
      utils.auth.me.setData(undefined, me);
      void utils.invalidate();
      await navigate(target, { replace: true });
    },
    [utils, navigate, target],
  );
}
