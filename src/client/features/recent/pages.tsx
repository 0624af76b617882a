import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useMatch } from 'react-router-dom';
import { useAccount, useSelectedCompany } from '../../guard/company';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { placeholderPage } from '../../ui/Placeholder';
import { Spinner } from '../../ui/Spinner';
import { useOptionalChat } from '../chat/ChatProvider';
import { RecentList } from './RecentList';

/**
 * /i/recent: the recent chats beside whatever is open; on a phone, one of the two at a time.
 * The chat of the selected company (ChatProvider: one socket, one sync engine) is the app's, around
 * every signed-in screen (chat/ChatShell.tsx).
 */
export function RecentLayout() {
  const { t } = useLingui();
  const listOnly = useMatch('/i/recent') !== null;
  const { status } = useAccount();
  const { isPending } = useSelectedCompany();
  const chat = useOptionalChat();

  const layout = (list: ReactNode) => (
    <div className={listOnly ? 'split split-list-only' : 'split'}>
      <aside className="split-list recent-pane">{list}</aside>
      <div className="split-detail">
        <Subpage>
          <Outlet />
        </Subpage>
      </div>
    </div>
  );

  if (status === 'loading' || (status === 'signedIn' && isPending)) return layout(<Spinner />);
  if (!chat) {
    return layout(
      <>
        <PageTitle title={t`Recent chats`} />
        <p className="muted">
          {status !== 'signedIn' ? (
            <Trans>
              <Link to="/i/login?redirect=%2Fi%2Frecent">Sign in</Link> and choose a company to chat with its team.
            </Trans>
          ) : (
            <Trans>
              <Link to="/i/selectCompany">Choose a company</Link> to chat with its team.
            </Trans>
          )}
        </p>
      </>,
    );
  }
  return layout(<RecentList />);
}

export function RecentHome() {
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  return (
    <>
      {notice === 'left' && (
        <p className="form-notice recent-notice" role="status">
          <Trans>You left the conversation</Trans>
        </p>
      )}
      {notice === 'removed' && (
        <p className="form-notice recent-notice" role="status">
          <Trans>The conversation was deleted</Trans>
        </p>
      )}
      <p className="muted empty-state">
        <Trans>Choose a conversation from the list.</Trans>
      </p>
    </>
  );
}

/**
 * The conversation and its panels come from their own chunk (features/chat/pages.tsx): the list
 * shows first, the heavier chat code follows while the user picks a conversation.
 */
type ChatPages = typeof import('../chat/pages');
const chatPages = () => import('../chat/pages');
function fromChat(name: { [K in keyof ChatPages]: ChatPages[K] extends ComponentType ? K : never }[keyof ChatPages]): ComponentType {
  const Page = lazy(async () => ({ default: (await chatPages())[name] as ComponentType }));
  return function ChatPage() {
    return (
      <Suspense fallback={<Spinner />}>
        <Page />
      </Suspense>
    );
  };
}

export { SalePage } from '../commerce/DocumentPages';
export { BudgetPage } from '../commerce/DocumentPages';
// Customers (external contacts): their own chunk (features/contacts/pages.tsx).
type ContactPages = typeof import('../contacts/pages');
const contactPages = () => import('../contacts/pages');
function fromContacts(name: keyof ContactPages): ComponentType {
  const Page = lazy(async () => ({ default: (await contactPages())[name] as ComponentType }));
  return function ContactsPage() {
    return (
      <Suspense fallback={<Spinner />}>
        <Page />
      </Suspense>
    );
  };
}
export const CustomerPage = fromContacts('CustomerPage');
export const CustomerEditPage = fromContacts('CustomerEditPage');
export { QueuePage } from '../service/QueuePage';
export const MessageDetailsPage = fromChat('MessageDetailsPage');

// A conversation, and the panels that open over it.
export const ConversationPage = fromChat('ConversationPage');
export const ReplyPage = fromChat('ReplyPage');
export const ConversationDetailsPage = fromChat('ConversationDetailsPage');
export { TransferPage } from '../service/TransferPage';
export { TimesheetPage } from '../service/TimesheetPage';
export const AddParticipantsPage = fromChat('AddParticipantsPage');
export { ConcludePage } from '../service/ServicePanel';
export const AnnotationsPage = fromChat('AnnotationsPage');

// A ticket linked to another company's: choose the company, then request its service.
export { LinkedTicketCompanyPage, LinkedTicketPage, LinkedTicketRequestPage } from '../service/LinkedTicketPages';

// Starting something new from the app.
export const OptionsListPage = fromChat('OptionsListPage');
export const NewConversationPage = fromChat('NewConversationPage');
export { InviteLinkPage } from './InviteLinkPage';
