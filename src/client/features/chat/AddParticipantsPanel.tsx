import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useChat, useTranslateError } from './ChatProvider';
import { useContacts, withChosen } from './contacts';
import { ContactsNote } from './NewChat';
import type { ConversationOutletContext } from './ConversationPage';
import { PanelClose } from './DetailsPanel';
import { Avatar } from './parts';

/**
 * /i/recent/chat/{id}/addParticipants: colleagues not in the conversation yet, searchable; adding
 * them says 'Novos participantes foram adicionados' (and the conversation shows it as an info
 * message to everyone).
 */
export function AddParticipantsPage() {
  const { t } = useLingui();
  const { conversationId, conversation } = useOutletContext<ConversationOutletContext>();
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const translate = useTranslateError();
  const [query, setQuery] = useState('');
  const { contacts, isPending, more, known } = useContacts(domain, query);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [done, setDone] = useState(false);
  const add = trpc.chat.addParticipants.useMutation({
    onSuccess: async () => {
      setChosen(new Set());
      setDone(true);
      await Promise.all([utils.chat.conversation.invalidate({ domain, conversationId }), utils.chat.recents.invalidate()]);
    },
  });
  const inIt = new Set(conversation.participants.filter((p) => !p.removed).map((p) => p.userId));
  const candidates = withChosen(contacts, chosen, known).filter((c) => !inIt.has(c.userId));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen.size > 0) add.mutate({ domain, conversationId, userIds: [...chosen] });
  }

  return (
    <section className="panel">
      <div className="panel-head">
        <PageTitle title={t`Add participants`} />
        <PanelClose />
      </div>
      {done && <FormNotice>{t`New participants were added`}</FormNotice>}
      <form className="add-people-form" onSubmit={submit}>
        <div className="field" role="search">
          <label htmlFor="add-people-search">
            <Trans>Search contacts</Trans>
          </label>
          <input id="add-people-search" type="search" value={query} placeholder={t`Name`} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <ContactsNote more={more} />
        {isPending ? (
          <Spinner />
        ) : (
          <fieldset className="people-checks">
            <legend>
              <Trans>Colleagues</Trans> ({chosen.size})
            </legend>
            {candidates.map((c) => (
              <label key={c.userId} className="people-check">
                <input
                  type="checkbox"
                  checked={chosen.has(c.userId)}
                  onChange={(e) => {
                    setDone(false);
                    setChosen((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(c.userId);
                      else next.delete(c.userId);
                      return next;
                    });
                  }}
                />
                <Avatar userId={c.userId} name={c.name} hasAvatar={c.hasAvatar} size={28} />
                {c.name}
              </label>
            ))}
            {candidates.length === 0 && (
              <p className="muted">
                <Trans>Nobody else to add.</Trans>
              </p>
            )}
          </fieldset>
        )}
        <FormError message={add.error ? translate(add.error.message) : null} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={chosen.size === 0 || add.isPending} aria-busy={add.isPending || undefined}>
            <Trans>Add</Trans>
          </button>
        </div>
      </form>
    </section>
  );
}
