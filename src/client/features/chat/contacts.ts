import { keepPreviousData } from '@tanstack/react-query';
import { useRef } from 'react';
import { trpc } from '../../trpc';

export interface Contact {
  userId: string;
  name: string;
  hasAvatar: boolean;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

export function matchesContact(c: Pick<Contact, 'name'>, query: string): boolean {
  const q = fold(query.trim());
  return !q || fold(c.name).includes(q);
}

/** How many colleagues one search shows; past that, typing narrows the list down. */
const CONTACTS_PAGE = 100;

/**
 * The colleagues one can start a chat with or add to one (`chat.contacts`: accepted, active
 * members of the company, me left out), searched by name on the server. `known` remembers
 * everyone seen in earlier searches, so people already chosen stay on screen while the search
 * changes.
 */
export function useContacts(domain: string, query: string) {
  const q = query.trim();
  const list = trpc.chat.contacts.useQuery(
    { domain, q: q || undefined, limit: CONTACTS_PAGE },
    { enabled: !!domain, staleTime: 30_000, placeholderData: keepPreviousData },
  );
  const seen = useRef(new Map<string, Contact>());
  for (const c of list.data?.items ?? []) seen.current.set(c.userId, c);
  return {
    // While a new search is on its way the previous results stay, narrowed here at once.
    contacts: (list.data?.items ?? []).filter((c) => matchesContact(c, q)),
    isPending: list.isPending,
    /** More match than are shown. */
    more: !!list.data?.nextCursor,
    known: (userId: string) => seen.current.get(userId),
  };
}

/** The chosen people not in the current results first (so they can be unticked), then the results. */
export function withChosen(contacts: Contact[], chosen: Set<string>, known: (userId: string) => Contact | undefined): Contact[] {
  const shown = new Set(contacts.map((c) => c.userId));
  const extra = [...chosen].filter((id) => !shown.has(id)).flatMap((id) => known(id) ?? []);
  return [...extra, ...contacts];
}
