import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useOutletContext, useSearchParams } from 'react-router-dom';
import { useChat, useConversationLog } from './ChatProvider';
import type { ConversationOutletContext } from './ConversationPage';
import { messageSummary } from './format';
import { Icon } from './icons';

/**
 * /i/recent/chat/{id}/reply?to={messageId}: the message being answered, above the composer
 * (which sends with its id). Closing it goes back to the plain conversation.
 */
export function ReplyPage() {
  const { t, i18n } = useLingui();
  const { conversationId } = useOutletContext<ConversationOutletContext>();
  const { me } = useChat();
  const log = useConversationLog(conversationId);
  const [params] = useSearchParams();
  const original = log.messages.find((m) => m.id === params.get('to'));
  if (!original) {
    return (
      <div className="reply-bar" role="status">
        <span className="muted">{log.loaded ? <Trans>The message to reply to is not loaded.</Trans> : <Trans>Loading…</Trans>}</span>
        <Link to=".." relative="path" className="icon-button" aria-label={t`Cancel reply`}>
          <Icon name="close" />
        </Link>
      </div>
    );
  }
  const summary = messageSummary(original, i18n);
  const author = original.authorId === me.id ? t`You` : (original.authorName ?? '');
  return (
    <div className="reply-bar" role="status">
      <Icon name="reply" />
      <div className="reply-bar-quote">
        <span className="reply-quote-author">
          <Trans>Replying to {author}</Trans>
        </span>
        <span className="reply-quote-text">{summary.text}</span>
      </div>
      <Link to=".." relative="path" className="icon-button" aria-label={t`Cancel reply`}>
        <Icon name="close" />
      </Link>
    </div>
  );
}
