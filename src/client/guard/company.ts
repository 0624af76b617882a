import type { inferRouterOutputs } from '@trpc/server';
import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { AppRouter } from '../../server/router';
import { trpc } from '../trpc';
import { translateServerMessage } from './serverMessages';
import { DEFAULT_REDIRECT } from './session';

/** One entry of company.mine: a company the user belongs to or asked to join, with the state. */
export type MyCompany = inferRouterOutputs<AppRouter>['company']['mine'][number];

/**
 * Who is signed in, as the company screens need it: 'anonymous' covers both nobody and an
 * anonymous visitor, since neither can own or join a company.
 */
export function useAccount() {
  const me = trpc.auth.me.useQuery();
  const user = me.data?.user ?? null;
  const status: 'loading' | 'anonymous' | 'signedIn' = !me.data ? 'loading' : !user || user.anonymous ? 'anonymous' : 'signedIn';
  return { status, user };
}

/** The login page, coming back here afterwards (spec: anonymous users trying to join a company). */
export function useLoginHere(): string {
  const location = useLocation();
  return `/i/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;
}

/** The user's companies (company.mine); not asked for anonymous visitors, who have none. */
export function useMyCompanies() {
  const { status } = useAccount();
  return trpc.company.mine.useQuery(undefined, { enabled: status === 'signedIn' });
}

/** The selected company (empresaPadrao) the /i screens work in, or null when none is chosen. */
export function useSelectedCompany(): { company: MyCompany | null; isPending: boolean } {
  const { status } = useAccount();
  const mine = useMyCompanies();
  if (status === 'anonymous') return { company: null, isPending: false };
  return { company: mine.data?.find((c) => c.isDefault) ?? null, isPending: status === 'loading' || mine.isPending };
}

/**
 * Plan features of the selected company (sla, kanban, timesheet) that switch screens on; null
 * while unknown, so an entry the plan lacks never shows for a moment.
 */
export function usePlanFeatures() {
  const { company } = useSelectedCompany();
  const domain = company?.domain ?? '';
  const current = trpc.company.current.useQuery({ domain }, { enabled: domain !== '', retry: false, staleTime: 60_000 });
  return current.data?.features ?? null;
}

/** The caller's profile permissions in the selected company (all of them for admins); null while unknown. */
export function useMyPermissions() {
  const { company } = useSelectedCompany();
  const domain = company?.domain ?? '';
  const current = trpc.company.current.useQuery({ domain }, { enabled: domain !== '', retry: false, staleTime: 60_000 });
  return current.data?.me.permissions ?? null;
}

/**
 * Makes a company the selected one and opens the app in it (/i/recent). Every company query is
 * dropped first: the screens must not keep showing the previous company.
 */
export function useOpenCompany(options: { onError?: (error: { message: string; data?: unknown }) => void } = {}) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const select = trpc.company.select.useMutation({
    onSuccess: async () => {
      await utils.company.invalidate();
      await navigate(DEFAULT_REDIRECT);
    },
    onError: options.onError,
  });
  const open = useCallback((domain: string) => select.mutate({ domain }), [select]);
  return { open, isPending: select.isPending, error: select.error };
}

/** A server error's text in the user's language. */
export function useServerMessage() {
  const { i18n } = useLingui();
  return useCallback((error: { message: string } | null | undefined) => (error ? translateServerMessage(i18n, error.message) : null), [i18n]);
}
