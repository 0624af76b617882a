import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Outlet, useMatch } from 'react-router-dom';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { placeholderPage } from '../../ui/Placeholder';

/** /i/recent: the recent chats beside whatever is open; on a phone, one of the two at a time. */
export function RecentLayout() {
  const { t } = useLingui();
  const listOnly = useMatch('/i/recent') !== null;
  return (
    <div className={listOnly ? 'split split-list-only' : 'split'}>
      <aside className="split-list">
        <PageTitle title={t`Recent chats`} />
      </aside>
      <div className="split-detail">
        <Subpage>
          <Outlet />
        </Subpage>
      </div>
    </div>
  );
}

export function RecentHome() {
  return (
    <p className="muted empty-state">
      <Trans>Choose a conversation from the list.</Trans>
    </p>
  );
}

export const SalePage = placeholderPage(msg`Sale`);
export const BudgetPage = placeholderPage(msg`Quote`);
export const CustomerPage = placeholderPage(msg`Customer`);
export const CustomerEditPage = placeholderPage(msg`Edit customer`);
export const QueuePage = placeholderPage(msg`Queue`);
export const MessageDetailsPage = placeholderPage(msg`Message details`);

// A conversation, and the panels that open over it.
export const ConversationPage = placeholderPage(msg`Conversation`);
export const ReplyPage = placeholderPage(msg`Reply`);
export const ConversationDetailsPage = placeholderPage(msg`Service details`);
export const TransferPage = placeholderPage(msg`Transfer`);
export const TimesheetPage = placeholderPage(msg`Timesheet`);
export const AddParticipantsPage = placeholderPage(msg`Add participants`);
export const ConcludePage = placeholderPage(msg`Conclude service`);
export const AnnotationsPage = placeholderPage(msg`Annotations`);

// A ticket linked to another company's: choose the company, then request its service.
export const LinkedTicketPage = placeholderPage(msg`Linked ticket`);
export const LinkedTicketCompanyPage = placeholderPage(msg`Linked ticket: company`);
export const LinkedTicketRequestPage = placeholderPage(msg`Linked ticket: request service`);

// Starting something new from the app.
export const OptionsListPage = placeholderPage(msg`New`);
export const NewConversationPage = placeholderPage(msg`New conversation`);
export const InviteLinkPage = placeholderPage(msg`Invitation link`);
