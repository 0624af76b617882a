import type { ReactNode } from 'react';
import { useAccount, useSelectedCompany } from '../../guard/company';
import { ChatProvider } from './ChatProvider';
import { DeskShortcuts } from './Shortcuts';

/**
 * The chat of the selected company for the whole signed-in area (/i/...), not only under
 * /i/recent: the sync engine, the unread count in the tab title, the app badge and the receive
 * sound keep going on any screen (settings, calendar…). Without a signed-in user and an active
 * company there is no chat, and the screens render as they are.
 */
export function ChatShell({ children }: { children: ReactNode }) {
  const { status, user } = useAccount();
  const { company } = useSelectedCompany();
  if (status !== 'signedIn' || !user || !company || company.state !== 'active') return <>{children}</>;
  return (
    <ChatProvider
      key={`${user.id}:${company.domain}`}
      domain={company.domain}
      companyName={company.name}
      isAdmin={company.isAdmin}
      me={{ id: user.id, name: user.name, playReceive: user.settings.playMessagensReceive }}
    >
      <DeskShortcuts />
      {children}
    </ChatProvider>
  );
}
