import { useMemo } from 'react';
import { trpc } from '../../trpc';

export interface Contact {
  userId: string;
  name: string;
  hasAvatar: boolean;
  email?: string | null;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

export function matchesContact(c: Contact, query: string): boolean {
  const q = fold(query.trim());
  return !q || fold(c.name).includes(q) || fold(c.email ?? '').includes(q);
}

/**
 * The company's people one can start a chat with or add to one. The server has no member-level
 * list of colleagues yet (members.list is for administrators): an administrator sees every active
 * member; anyone else, the people they already talk to (their recents). See docs/decisions.md.
 */
export function useContacts(domain: string, isAdmin: boolean): { contacts: Contact[]; isPending: boolean; complete: boolean } {
  const members = trpc.members.list.useQuery({ domain }, { enabled: isAdmin && !!domain, staleTime: 60_000 });
  const recents = trpc.chat.recents.useQuery({ domain, limit: 500 }, { enabled: !isAdmin && !!domain, staleTime: 60_000 });
  const contacts = useMemo(() => {
    if (isAdmin) {
      return (members.data ?? [])
        .filter((m) => m.state === 'active')
        .map((m) => ({ userId: m.userId, name: m.name, hasAvatar: m.hasAvatar, email: m.email }))
        .sort((a, b) => a.name.localeCompare(b.name));
    }
    const seen = new Map<string, Contact>();
    for (const r of recents.data?.items ?? []) for (const o of r.others) seen.set(o.userId, { userId: o.userId, name: o.name, hasAvatar: o.hasAvatar });
    return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [isAdmin, members.data, recents.data]);
  return { contacts, isPending: isAdmin ? members.isPending : recents.isPending, complete: isAdmin };
}
