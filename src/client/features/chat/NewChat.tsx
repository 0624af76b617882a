import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { CHAT_MESSAGES } from '../../../shared/schemas/chat';
import { useAccount, useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ModalDialog } from '../../ui/Dialog';
import { FormError } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { matchesContact, useContacts, withChosen, type Contact } from './contacts';
import { Icon } from './icons';
import { Avatar } from './parts';

/** /i/optionsList: what can be started from here. */
export function OptionsListPage() {
  const { t } = useLingui();
  return (
    <section className="page options-page">
      <PageTitle title={t`New`} />
      <ul className="options-list">
        <li>
          <Link to="/i/optionsList/newChat">
            <strong>
              <Trans>New chat</Trans>
            </strong>
            <span className="muted">
              <Trans>A conversation with one colleague.</Trans>
            </span>
          </Link>
        </li>
        <li>
          <Link to="/i/optionsList/newChat?team=1">
            <strong>
              <Trans>New team chat</Trans>
            </strong>
            <span className="muted">
              <Trans>A group conversation with a title and several members.</Trans>
            </span>
          </Link>
        </li>
        <li>
          <Link to="/i/calendar/newMeeting">
            <strong>
              <Trans>New meeting</Trans>
            </strong>
            <span className="muted">
              <Trans>Schedule a meeting in the calendar.</Trans>
            </span>
          </Link>
        </li>
        <li>
          <Link to="/i/optionsList/inviteLink">
            <strong>
              <Trans>Invitation link</Trans>
            </strong>
            <span className="muted">
              <Trans>A link that brings someone into a conversation.</Trans>
            </span>
          </Link>
        </li>
      </ul>
    </section>
  );
}

/**
 * /i/optionsList/newChat: a one-to-one chat with a colleague found by name or e-mail (an open one
 * with the same person offers 'continuar' or 'criar outro'; oneself is refused with the spec's
 * text), or, with ?team=1, a team chat with a title and several members.
 */
export function NewConversationPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const team = params.get('team') === '1';
  const { company, isPending } = useSelectedCompany();
  const { user } = useAccount();
  if (isPending) return <Spinner />;
  return (
    <section className="page new-chat">
      <Link to="/i/recent" className="back-link">
        <Trans>Back to the conversations</Trans>
      </Link>
      <PageTitle title={team ? t`New team chat` : t`New chat`} />
      {!company || company.state !== 'active' || !user ? (
        <p className="muted">
          <Trans>
            <Link to="/i/selectCompany">Choose a company</Link> to chat with its team.
          </Trans>
        </p>
      ) : (
        <>
          <div className="segmented" role="group" aria-label={t`Kind of conversation`}>
            <button type="button" aria-pressed={!team} onClick={() => setParams({}, { replace: true })}>
              <Trans>One person</Trans>
            </button>
            <button type="button" aria-pressed={team} onClick={() => setParams({ team: '1' }, { replace: true })}>
              <Trans>Team chat</Trans>
            </button>
          </div>
          {team ? (
            <NewTeamChat domain={company.domain} />
          ) : (
            <NewDirectChat domain={company.domain} myId={user.id} myName={user.name} />
          )}
        </>
      )}
    </section>
  );
}

function ContactSearch({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useLingui();
  const id = useId();
  return (
    <div className="field contact-search" role="search">
      <label htmlFor={id}>
        <Trans>Search contacts</Trans>
      </label>
      <input id={id} type="search" value={value} placeholder={t`Name`} onChange={(e) => onChange(e.target.value)} autoFocus />
    </div>
  );
}

/** Shown when the search matches more colleagues than the list holds. */
export function ContactsNote({ more }: { more: boolean }) {
  if (!more) return null;
  return (
    <p className="muted field-hint">
      <Trans>More colleagues match: type more of the name to find them.</Trans>
    </p>
  );
}

function NewDirectChat({ domain, myId, myName }: { domain: string; myId: string; myName: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [query, setQuery] = useState('');
  const { contacts, isPending, more } = useContacts(domain, query);
  const [existing, setExisting] = useState<{ person: Contact; conversationId: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = trpc.chat.startDirect.useMutation();

  async function open(conversationId: string) {
    await utils.chat.recents.invalidate();
    await navigate(`/i/recent/chat/${conversationId}`);
  }

  async function pick(person: Contact, force = false) {
    setError(null);
    if (person.userId === myId) {
      setError(serverMessage({ message: CHAT_MESSAGES.self }));
      return;
    }
    try {
      const result = await start.mutateAsync({ domain, userId: person.userId, force });
      if (result.existing) setExisting({ person, conversationId: result.conversationId });
      else await open(result.conversationId);
    } catch (err) {
      setError(serverMessage(err as Error));
    }
  }

  const me: Contact = { userId: myId, name: myName, hasAvatar: false };
  // The server searched the colleagues; me (a chat with myself) is matched here.
  const shown = [...[me].filter((c) => matchesContact(c, query)), ...contacts];
  return (
    <>
      <ContactSearch value={query} onChange={setQuery} />
      <ContactsNote more={more} />
      <FormError message={error} />
      {isPending ? (
        <Spinner />
      ) : (
        <ul className="contact-list" aria-label={t`Contacts`}>
          {shown.map((c) => (
            <li key={c.userId}>
              <button type="button" className="contact" onClick={() => void pick(c)} disabled={start.isPending}>
                <Avatar userId={c.userId} name={c.name} hasAvatar={c.hasAvatar} size={36} />
                <span className="contact-name">{c.userId === myId ? t`${c.name} (you)` : c.name}</span>
              </button>
            </li>
          ))}
          {shown.length === 0 && (
            <li className="muted">
              <Trans>Nobody matches this search.</Trans>
            </li>
          )}
        </ul>
      )}
      {existing && (
        <ExistingChatDialog
          name={existing.person.name}
          pending={start.isPending}
          onContinue={() => void open(existing.conversationId)}
          onCreateAnother={() => {
            const person = existing.person;
            setExisting(null);
            void pick(person, true);
          }}
          onCancel={() => setExisting(null)}
        />
      )}
    </>
  );
}

/** An open one-to-one chat with this person exists: continue it ('continuar') or start another ('criar outro'). */
function ExistingChatDialog(props: { name: string; pending: boolean; onContinue: () => void; onCreateAnother: () => void; onCancel: () => void }) {
  return (
    <ModalDialog
      title={<Trans>You already have a conversation with {props.name}</Trans>}
      onCancel={props.onCancel}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={props.onContinue} disabled={props.pending}>
            <Trans>Continue</Trans>
          </button>
          <button type="button" className="button button-secondary" onClick={props.onCreateAnother} disabled={props.pending}>
            <Trans>Create another</Trans>
          </button>
        </>
      }
    />
  );
}

function NewTeamChat({ domain }: { domain: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState('');
  const [query, setQuery] = useState('');
  const { contacts, isPending, more, known } = useContacts(domain, query);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const start = trpc.chat.startTeam.useMutation({
    onSuccess: async ({ conversationId }) => {
      await utils.chat.recents.invalidate();
      await navigate(`/i/recent/chat/${conversationId}`);
    },
    onError: (err) => setError(serverMessage(err)),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!title.trim()) return setError(t`Give the team chat a title`);
    if (chosen.size === 0) return setError(t`Choose at least one member`);
    setError(null);
    start.mutate({ domain, title: title.trim(), userIds: [...chosen] });
  }

  const shown = withChosen(contacts, chosen, known);
  return (
    <form className="new-chat-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={titleId}>
          <Trans>Title</Trans>
        </label>
        <input id={titleId} value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} required />
      </div>
      <ContactSearch value={query} onChange={setQuery} />
      <ContactsNote more={more} />
      {isPending ? (
        <Spinner />
      ) : (
        <fieldset className="people-checks">
          <legend>
            <Trans>Members</Trans> ({chosen.size})
          </legend>
          {shown.map((c) => (
            <label key={c.userId} className="people-check">
              <input
                type="checkbox"
                checked={chosen.has(c.userId)}
                onChange={(e) =>
                  setChosen((s) => {
                    const next = new Set(s);
                    if (e.target.checked) next.add(c.userId);
                    else next.delete(c.userId);
                    return next;
                  })
                }
              />
              <Avatar userId={c.userId} name={c.name} hasAvatar={c.hasAvatar} size={28} />
              {c.name}
            </label>
          ))}
          {shown.length === 0 && (
            <p className="muted">
              <Trans>Nobody matches this search.</Trans>
            </p>
          )}
        </fieldset>
      )}
      <FormError message={error} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={start.isPending} aria-busy={start.isPending || undefined}>
          <Icon name="plus" /> <Trans>Create team chat</Trans>
        </button>
      </div>
    </form>
  );
}
