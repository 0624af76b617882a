import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LogOut, Trash2, UserPlus, X } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import { isDeleteConfirmation } from '../../../shared/domain/conversations';
import { formatProtocol } from '../../../shared/domain/protocol';
import { trpc } from '../../trpc';
import { Avatar, Badge, Button, ButtonLink, ConfirmDialog, Facts, FormNotice, IconLink, PageTitle, TextField } from '../../ui';
import { useChat, useOptionalChat, usePresence, useTranslateError } from './ChatProvider';
import type { ConversationOutletContext } from './ConversationPage';
import type { Participant } from './types';

export const CONVERSATION_TYPE_LABELS: Record<number, MessageDescriptor> = {
  [CONVERSATION_TYPE.single]: msg`Direct conversation`,
  [CONVERSATION_TYPE.ticket]: msg`Ticket`,
  [CONVERSATION_TYPE.task]: msg`Task`,
  [CONVERSATION_TYPE.teamChat]: msg`Team chat`,
  [CONVERSATION_TYPE.live]: msg`Live`,
  [CONVERSATION_TYPE.callChat]: msg`Call chat`,
};

/** The panels' close button: back to the plain conversation. */
export function PanelClose() {
  const { t } = useLingui();
  return (
    <IconLink to=".." relative="path" className="panel-close" label={t`Close panel`} icon={X} />
  );
}

/**
 * /i/recent/chat/{id}/details: protocol (5-5-5), type, creation date, participants with their
 * presence; remove someone ('Deseja remover {name}?' -> 'O participante foi removido!'), leave
 * ('Deseja sair?' -> 'Você saiu do atendimento'), delete the conversation by typing REMOVER.
 */
export function ConversationDetailsPage() {
  const { t } = useLingui();
  const chat = useOptionalChat();
  return (
    <section className="panel">
      <div className="panel-head">
        <PageTitle title={t`Service details`} />
        {chat && <PanelClose />}
      </div>
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
  const { conversationId, conversation } = useOutletContext<ConversationOutletContext>();
  const { me, domain } = useChat();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const translate = useTranslateError();
  const [removing, setRemoving] = useState<Participant | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = async () => {
    await Promise.all([utils.chat.recents.invalidate(), utils.chat.conversation.invalidate({ domain, conversationId })]);
  };
  const remove = trpc.chat.removeParticipant.useMutation({
    onSuccess: async () => {
      setRemoving(null);
      setNotice(t`The participant was removed!`);
      await refresh();
    },
  });
  const leave = trpc.chat.leave.useMutation({
    onSuccess: async () => {
      await utils.chat.recents.invalidate();
      await navigate('/i/recent', { state: { notice: 'left' } });
    },
  });
  // A single conversation is a customer's request when it came through a queue, else a direct chat.
  const type = conversation.isService && conversation.type === CONVERSATION_TYPE.single ? msg`Service request` : CONVERSATION_TYPE_LABELS[conversation.type];
  const present = conversation.participants.filter((p) => !p.removed);

  return (
    <>
      {notice && <FormNotice>{notice}</FormNotice>}
      <Facts
        items={[
          [t`Protocol`, formatProtocol(conversation.protocol)],
          [t`Type`, type ? i18n._(type) : conversation.type],
          [t`Created`, new Date(conversation.createdAt).toLocaleString(i18n.locale, { dateStyle: 'short', timeStyle: 'short' })],
        ]}
      />
      <h3 className="panel-subtitle">
        <Trans>Participants</Trans>
      </h3>
      <ul className="people-list">
        {present.map((p) => (
          <li key={p.userId}>
            <PersonAvatar person={p} />
            <span className="people-name">
              {p.userId === me.id ? t`${p.name} (you)` : p.name}
              {p.responsible && (
                <Badge tone="ok" className="people-badge">
                  <Trans>Responsible</Trans>
                </Badge>
              )}
              {!p.member && (
                <Badge tone="warn" className="people-badge">
                  <Trans>Customer</Trans>
                </Badge>
              )}
            </span>
            {p.userId !== me.id && (
              <Button variant="quiet" size="small" onPress={() => setRemoving(p)} aria-label={t`Remove ${p.name}`}>
                <Trans>Remove</Trans>
              </Button>
            )}
          </li>
        ))}
      </ul>
      <div className="form-actions panel-actions">
        <ButtonLink to="../addParticipants" relative="path" variant="secondary" icon={UserPlus}>
          <Trans>Add participants</Trans>
        </ButtonLink>
        <Button variant="secondary" icon={LogOut} onPress={() => setLeaving(true)}>
          <Trans>Leave</Trans>
        </Button>
        {conversation.canDelete && (
          <Button variant="danger" icon={Trash2} onPress={() => setDeleting(true)}>
            <Trans>Delete conversation</Trans>
          </Button>
        )}
      </div>
      {removing && (
        <ConfirmDialog
          title={t`Do you want to remove ${removing.name}?`}
          confirmLabel={t`Remove`}
          danger
          pending={remove.isPending}
          error={remove.error ? translate(remove.error.message) : null}
          onConfirm={() => remove.mutate({ domain, conversationId, userId: removing.userId })}
          onCancel={() => {
            remove.reset();
            setRemoving(null);
          }}
        />
      )}
      {leaving && (
        <ConfirmDialog
          title={t`Do you want to leave?`}
          confirmLabel={t`Leave`}
          pending={leave.isPending}
          error={leave.error ? translate(leave.error.message) : null}
          onConfirm={() => leave.mutate({ domain, conversationId })}
          onCancel={() => {
            leave.reset();
            setLeaving(false);
          }}
        />
      )}
      {deleting && <DeleteConversationDialog conversationId={conversationId} onClose={() => setDeleting(false)} />}
    </>
  );
}

/** A participant's face with their live presence in the corner. */
function PersonAvatar({ person }: { person: Participant }) {
  const status = usePresence(person.userId);
  return <Avatar name={person.name} seed={person.userId} src={person.hasAvatar ? `/avatars/${person.userId}` : null} size={32} presence={status} />;
}

/**
 * Deleting a conversation asks for the word REMOVER (any case, spaces around ignored, spec 5);
 * the server's refusals (linked tasks, storage failure) show in the dialog.
 */
function DeleteConversationDialog({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const { t } = useLingui();
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const translate = useTranslateError();
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const remove = trpc.chat.deleteConversation.useMutation({
    onSuccess: async () => {
      await utils.chat.recents.invalidate();
      await navigate('/i/recent', { replace: true, state: { notice: 'removed' } });
    },
  });
  const confirmed = isDeleteConfirmation(typed);
  const error = remove.error ? translate(remove.error.message) : tried && !confirmed ? t`Type REMOVER to confirm` : null;
  return (
    <ConfirmDialog
      title={t`Delete this conversation?`}
      confirmLabel={t`Delete`}
      danger
      pending={remove.isPending}
      error={error}
      onConfirm={() => {
        setTried(true);
        if (confirmed) remove.mutate({ domain, conversationId, confirmation: typed });
      }}
      onCancel={onClose}
    >
      <p>
        <Trans>Its messages and files are deleted for everyone. This cannot be undone.</Trans>
      </p>
      <TextField label={t`Type REMOVER to confirm`} value={typed} autoFocus autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
    </ConfirmDialog>
  );
}
