import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation, useMatch } from 'react-router-dom';
import { useAccount, useSelectedCompany } from '../../guard/company';
import { PageTitle, Subpage } from '../../ui/PageTitle';
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
