import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Link, Outlet, useMatch, useNavigate, useOutlet, useParams } from 'react-router-dom';
import { formatProtocol } from '../../../shared/domain/protocol';
import { useSelectedCompany } from '../../guard/company';
import { getSocket } from '../../socket';
import { trpc } from '../../trpc';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { StartCallButtons } from '../calls/StartCallButtons';
import { STATE_BADGE, STATE_LABELS } from '../service/labels';
import { ServicePanel } from '../service/ServicePanel';
import { useChat, useConversation, useOptionalChat, usePresence, useRecentEntry, useTranslateError, useTyping } from './ChatProvider';
import { Composer } from './Composer';
import { ConversationActions } from './ConversationActions';
import { Icon } from './icons';
import { MessageList } from './MessageList';
import { ConversationAvatar, PresenceDot } from './parts';
import type { Conversation, Participant } from './types';

/** Someone in the conversation as the chat screens use them. */
export type Person = Pick<Participant, 'userId' | 'name' | 'hasAvatar'>;

/** What the panels under a conversation (reply, details, participants, notes) get from it. */
export interface ConversationOutletContext {
  conversationId: string;
  conversation: Conversation;
  /** Everyone still in it, me first. */
  people: Person[];
}

/**
 * /i/recent/chat/{id}: the messages (scrolling back page by page), who is typing, and the composer;
 * the panels (details, add participants, notes) open beside the messages, the reply quote above
 * the composer. While the conversation is open, visible and focused, what arrives is read.
 */
export function ConversationPage() {
  const chat = useOptionalChat();
  const { id = '' } = useParams();
  if (!chat) {
    return (
      <section className="page">
        <p className="muted">
          <Trans>Sign in and choose a company to see this conversation.</Trans>
        </p>
        <Subpage>
          <Outlet />
        </Subpage>
      </section>
    );
  }
  return <OpenConversation key={id} conversationId={id} />;
}

function OpenConversation({ conversationId }: { conversationId: string }) {
  const { t, i18n } = useLingui();
  const { engine, me, uploads, domain } = useChat();
  const navigate = useNavigate();
  const [dragging, setDragging] = useState(false);
  const conversation = useConversation(conversationId);
  const translate = useTranslateError();
  const typing = useTyping(conversationId);
  const replying = useMatch('/i/recent/chat/:id/reply') !== null;
  const { company } = useSelectedCompany();
  const current = trpc.company.current.useQuery({ domain: company?.domain ?? '' }, { enabled: !!company, staleTime: 60_000 });
  const data = conversation.data;

  // Opened with a change number read before the messages are, so edits after it are the only
  // ones to ask for (later ones reach the engine through the recent list and the socket): the
  // recent list's, when it has the conversation (the messages are then read while
  // `chat.conversation` is, not after it), else the conversation's own. A conversation that is
  // not ours is refused by the messages' read as by the conversation's.
  const recent = useRecentEntry(conversationId);
  const changeBase = useRef(0);
  changeBase.current = recent?.lastChangeSeq ?? data?.lastChangeSeq ?? 0;
  const ready = !!recent || !!data;
  useEffect(() => {
    if (ready) void engine.open(conversationId, changeBase.current);
  }, [engine, conversationId, ready]);

  // Read while the user can see it: this conversation open, the tab visible and focused.
  useEffect(() => {
    const update = () => engine.setReading(document.visibilityState === 'visible' && document.hasFocus() ? conversationId : null);
    update();
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
      engine.setReading(null);
    };
  }, [engine, conversationId]);

  // Deleted by someone while open: back to the list, saying so.
  useEffect(() => {
    const socket = getSocket();
    const onRemoved = (p: { conversationId: string }) => {
      if (p.conversationId === conversationId) void navigate('/i/recent', { replace: true, state: { notice: 'removed' } });
    };
    socket.on('conversation:removed', onRemoved);
    return () => void socket.off('conversation:removed', onRemoved);
  }, [conversationId, navigate]);

  const people: Person[] = useMemo(() => {
    const present = (data?.participants ?? []).filter((p) => !p.removed);
    return [...present.filter((p) => p.userId === me.id), ...present.filter((p) => p.userId !== me.id)];
  }, [data?.participants, me.id]);
  const context: ConversationOutletContext | null = data ? { conversationId, conversation: data, people } : null;
  const outlet = useOutlet(context);

  if (conversation.isPending) return <Spinner />;
  if (!data) {
    return (
      <section className="page">
        <PageTitle title={t`Conversation`} />
        <p className="form-error" role="alert">
          {conversation.error ? translate(conversation.error.message) : t`Conversation not found`}
        </p>
        <Link to="/i/recent">
          <Trans>Back to the conversations</Trans>
        </Link>
      </section>
    );
  }

  const others = people.filter((p) => p.userId !== me.id);
  const typingNames = typing.map((id) => people.find((p) => p.userId === id)?.name).filter((n): n is string => !!n);
  const blocked = current.data && !current.data.canWork;
  // Ticks: how far each other person still in it has received and read.
  const watermarks = data.participants.filter((p) => p.userId !== me.id && !p.removed);
  // A customer's request (avulso or ticket): its service panel sits beside the messages, as the
  // contact/ticket sidebar of a help desk, whenever no other panel is open.
  const isService = data.isService;

  return (
    <section className="conversation">
      <header className="conversation-head">
        <Link to="/i/recent" className="icon-button conversation-back" aria-label={t`Back to the conversations`}>
          <Icon name="back" />
        </Link>
        <span className="recent-face">
          <ConversationAvatar people={others} size={40} />
          {others.length === 1 && <HeadPresence userId={others[0]!.userId} />}
        </span>
        <div className="conversation-heading">
          <PageTitle title={data.title || t`(no title)`} />
          <p className="conversation-sub" aria-live="polite">
            {typingNames.length === 1 ? (
              <span className="typing">
                <Trans>{typingNames[0]} is typing…</Trans>
              </span>
            ) : typingNames.length > 1 ? (
              <span className="typing">
                <Trans>Several people are typing…</Trans>
              </span>
            ) : (
              isService && (
                <span>
                  <Trans>Protocol {formatProtocol(data.protocol)}</Trans>{' '}
                  <span className={STATE_BADGE[data.state] ?? 'badge'}>{i18n._(STATE_LABELS[data.state] ?? STATE_LABELS[1]!)}</span>
                </span>
              )
            )}
          </p>
        </div>
        <StartCallButtons conversationId={conversationId} />
        <ConversationActions domain={domain} conversationId={conversationId} isService={isService} seesComments={data.seesComments} />
      </header>
      <div className="conversation-body">
        <div
          className={dragging ? 'conversation-main dragging' : 'conversation-main'}
          onDragEnter={(e) => hasFiles(e) && setDragging(true)}
          onDragOver={(e) => {
            if (!hasFiles(e) || blocked) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={(e) => {
            setDragging(false);
            if (!hasFiles(e) || blocked) return;
            e.preventDefault();
            for (const file of e.dataTransfer.files) void uploads.start(conversationId, file, { name: file.name || 'file' });
          }}
        >
          {dragging && (
            <div className="drop-hint" aria-hidden="true">
              <Trans>Drop files to send them</Trans>
            </div>
          )}
          <MessageList conversationId={conversationId} people={people} watermarks={watermarks} />
          {replying && outlet}
          {blocked ? (
            <p className="composer-closed" role="status">
              <Trans>The company's account is currently deactivated: you will not be able to serve the queue or interact with conversations.</Trans>
            </p>
          ) : (
            <Composer
              key={conversationId}
              conversationId={conversationId}
              people={people}
              initialDraft={data.me.draft}
              canComment={data.seesComments}
              canSendAudio={current.data?.me.permissions.sendAudio ?? true}
              customerName={isService ? data.participants.find((p) => !p.member && !p.removed)?.name : undefined}
            />
          )}
        </div>
        {!replying && outlet && (
          <aside className="chat-panel">
            <Subpage>{outlet}</Subpage>
          </aside>
        )}
        {isService && !outlet && (
          <aside className="chat-panel service-side" aria-label={t`Service`}>
            <ServicePanel domain={domain} conversationId={conversationId} />
          </aside>
        )}
      </div>
    </section>
  );
}

const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');

function HeadPresence({ userId }: { userId: string }) {
  const status = usePresence(userId);
  return status ? <PresenceDot status={status} /> : null;
}
