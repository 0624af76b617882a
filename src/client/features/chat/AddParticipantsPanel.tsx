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
      {conversation.type === 0 && <InviteByEmail domain={domain} conversationId={conversationId} />}
    </section>
  );
}

/**
 * "Integrate single service": with the plan's e-mail integration and the profile permission, an
 * outside address joins this single conversation; what is written here reaches them by e-mail and
 * their replies come back into it.
 */
function InviteByEmail({ domain, conversationId }: { domain: string; conversationId: string }) {
  const { t } = useLingui();
  const translate = useTranslateError();
  const utils = trpc.useUtils();
  const current = trpc.company.current.useQuery({ domain }, { staleTime: 60_000 });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const integrate = trpc.channels.integrateEmail.useMutation({
    onSuccess: async () => {
      setEmail('');
      setName('');
      await Promise.all([utils.chat.conversation.invalidate({ domain, conversationId }), utils.chat.recents.invalidate()]);
    },
  });
  if (!current.data?.features.intmail || !current.data.me.permissions.integrateSingleService) return null;
  return (
    <form
      className="add-people-form"
      onSubmit={(e) => {
        e.preventDefault();
        integrate.mutate({ domain, conversationId, email, name: name || undefined });
      }}
    >
      <h2>
        <Trans>Add by e-mail</Trans>
      </h2>
      <p className="muted">
        <Trans>Someone outside the company follows and answers this conversation by e-mail, from the company's mailbox.</Trans>
      </p>
      {integrate.data && <FormNotice>{t`${integrate.data.email} was added by e-mail`}</FormNotice>}
      <div className="field">
        <label htmlFor="add-by-email">
          <Trans>E-mail address</Trans>
        </label>
        <input id="add-by-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value.trim())} />
      </div>
      <div className="field">
        <label htmlFor="add-by-email-name">
          <Trans>Name (optional)</Trans>
        </label>
        <input id="add-by-email-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </div>
      <FormError message={integrate.error ? translate(integrate.error.message) : null} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={!email || integrate.isPending} aria-busy={integrate.isPending || undefined}>
          <Trans>Add by e-mail</Trans>
        </button>
      </div>
    </form>
  );
}
