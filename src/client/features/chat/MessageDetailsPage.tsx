import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ReceiptEvent } from '../../../shared/chat-events';
import { getSocket } from '../../socket';
import { trpc } from '../../trpc';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useChat, useOptionalChat, useTranslateError } from './ChatProvider';
import { messageSummary, timeOf } from './format';
import { Avatar } from './parts';
import { normalizeMessage } from './sync';

/**
 * /i/recent/{id}/messageDetails/{idMessage}: who received one message and who read it, and when.
 * It follows the receipts live.
 */
export function MessageDetailsPage() {
  const { t } = useLingui();
  const chat = useOptionalChat();
  return (
    <section className="page message-details">
      <PageTitle title={t`Message details`} />
      {chat ? (
        <Details />
      ) : (
        <p className="muted">
          <Trans>Sign in and choose a company to see this conversation.</Trans>
        </p>
      )}
    </section>
  );
}

function Details() {
  const { t, i18n } = useLingui();
  const { id = '', idMessage = '' } = useParams();
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const translate = useTranslateError();
  const details = trpc.chat.messageDetails.useQuery({ domain, conversationId: id, messageId: idMessage }, { retry: false });

  useEffect(() => {
    const socket = getSocket();
    const onReceipt = (r: ReceiptEvent) => {
      if (r.conversationId === id) void utils.chat.messageDetails.invalidate({ domain, conversationId: id, messageId: idMessage });
    };
    socket.on('receipt:update', onReceipt);
    return () => void socket.off('receipt:update', onReceipt);
  }, [utils, domain, id, idMessage]);

  const when = (d: Date | string | null) =>
    d ? new Date(d).toLocaleString(i18n.locale, { dateStyle: 'short', timeStyle: 'short' }) : t`Not yet`;

  return (
    <>
      <Link to={`/i/recent/chat/${id}`} className="back-link">
        <Trans>Back to the conversation</Trans>
      </Link>
      {details.isPending ? (
        <Spinner />
      ) : details.isError ? (
        <p className="form-error" role="alert">
          {translate(details.error.message)}
        </p>
      ) : (
        <>
          <blockquote className="message-details-quote">
            <p>{messageSummary(normalizeMessage(details.data.message), i18n).text}</p>
            <footer className="muted">
              <Trans>Sent at {timeOf(details.data.message.createdAt, i18n.locale)}</Trans>
            </footer>
          </blockquote>
          <table className="receipts-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Person</Trans>
                </th>
                <th scope="col">
                  <Trans>Received</Trans>
                </th>
                <th scope="col">
                  <Trans>Read</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {details.data.participants.map((p) => (
                <tr key={p.userId}>
                  <th scope="row">
                    <span className="people-check">
                      <Avatar userId={p.userId} name={p.name} hasAvatar={p.hasAvatar} size={28} />
                      {p.name}
                      {p.removed && (
                        <span className="muted">
                          {' '}
                          <Trans>(removed)</Trans>
                        </span>
                      )}
                    </span>
                  </th>
                  <td>{when(p.deliveredAt)}</td>
                  <td>{when(p.readAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
