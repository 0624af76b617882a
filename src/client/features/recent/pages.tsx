import { lazy, Suspense, type ComponentType } from 'react';
import { Spinner } from '../../ui/Spinner';

// The list and its frame: their own chunk, the first thing /i/recent downloads (routes.tsx loads
// it apart from this file, so the screens below come only when opened).
export { RecentHome, RecentLayout } from './RecentLayout';

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
