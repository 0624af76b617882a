import { Suspense, type ComponentType } from 'react';
import { lazyModule, type LazyModule, type PageName } from '../../lazyModule';
import { Spinner } from '../../ui/Spinner';

// The list and its frame: their own chunk, the first thing /i/recent downloads (routes.tsx loads
// it apart from this file, so the screens below come only when opened).
export { RecentHome, RecentLayout } from './RecentLayout';

/** A screen of another chunk, with a spinner the first time while it arrives. */
function within<M>(module: LazyModule<M>, name: PageName<M>): ComponentType {
  const Page = module.page(name);
  return function ChunkPage() {
    return (
      <Suspense fallback={<Spinner />}>
        <Page />
      </Suspense>
    );
  };
}

/**
 * The conversation and its panels come from their own chunk (features/chat/pages.tsx): the list
 * shows first, the heavier chat code follows while the user picks a conversation (prefetch.ts).
 */
export const chatPages = lazyModule(() => import('../chat/pages'));
const fromChat = (name: PageName<typeof import('../chat/pages')>) => within(chatPages, name);

export { SalePage } from '../commerce/DocumentPages';
export { BudgetPage } from '../commerce/DocumentPages';
// Customers (external contacts): their own chunk (features/contacts/pages.tsx).
const contactPages = lazyModule(() => import('../contacts/pages'));
const fromContacts = (name: PageName<typeof import('../contacts/pages')>) => within(contactPages, name);
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
