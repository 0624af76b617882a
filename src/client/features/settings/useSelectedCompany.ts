import { useAccount, useMyCompanies, type MyCompany } from '../../guard/company';

/** The company the admin screens act on: the user's selected (default) company. */
export type SelectedCompany = Pick<MyCompany, 'domain' | 'name' | 'isAdmin' | 'state'>;

export type SelectedCompanyResult =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'none' }
  | { status: 'ready'; company: SelectedCompany };

/**
 * The guard's company list (one query, one rule for "selected": `isDefault`) seen as the states
 * an admin screen renders: loading, failed, none chosen yet, or ready.
 */
export function useSettingsCompany(): SelectedCompanyResult {
  const { status } = useAccount();
  const mine = useMyCompanies();
  // Anonymous visitors have no companies: their list is never asked for.
  if (status === 'anonymous') return { status: 'none' };
  if (mine.isPending) return { status: 'loading' };
  if (mine.isError) return { status: 'error', message: mine.error.message };
  const selected = mine.data.find((c) => c.isDefault);
  return selected ? { status: 'ready', company: selected } : { status: 'none' };
}
