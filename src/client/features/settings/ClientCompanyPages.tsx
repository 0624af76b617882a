import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { clientInviteInput } from '../../../shared/schemas/company';
import { trpc } from '../../trpc';
import { Badge, Button } from '../../ui';
import { FormError, FormNotice } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { Spinner } from '../../ui/Spinner';
import { useFormErrors } from '../login/formErrors';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { useServerText } from './serverText';
import type { ClientRow } from './types';

const INVITE_FIELDS = ['clientDomain', 'email'] as const;
const LIST = '/i/settings/companyCostumers';

/** /i/settings/companyCostumers: the companies this one serves as clients. */
export function ClientCompaniesPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Client companies`}>{(company) => <ClientList domain={company.domain} />}</AdminScreen>;
}

function ClientList({ domain }: { domain: string }) {
  const { i18n } = useLingui();
  const serverText = useServerText();
  const clients = trpc.clients.list.useQuery({ domain });
  return (
    <>
      <nav className="settings-links">
        <Link className="button" to="add">
          <Trans>Invite a client company</Trans>
        </Link>
        <Link className="button button-secondary" to="clientsViewer">
          <Trans>Invitations received</Trans>
        </Link>
      </nav>
      {clients.isPending && <Spinner />}
      {clients.isError && <FormError message={serverText(clients.error.message)} />}
      {clients.data?.length === 0 && (
        <p className="muted empty-state">
          <Trans>No client companies yet.</Trans>
        </p>
      )}
      {!!clients.data?.length && (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Company</Trans>
              </th>
              <th scope="col">
                <Trans>E-mail</Trans>
              </th>
              <th scope="col">
                <Trans>Invited on</Trans>
              </th>
              <th scope="col">
                <Trans>State</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {clients.data.map((c) => (
              <tr key={c.clientDomain}>
                <th scope="row">
                  <Link to={`edit/${c.clientDomain}`}>{c.name || c.clientDomain}</Link> <span className="muted">({c.clientDomain})</span>
                </th>
                <td>{c.email}</td>
                <td>{i18n.date(c.invitedAt, { dateStyle: 'short' })}</td>
                <td>
                  <ClientStateBadge state={c.state} needsConfirmation={c.needsConfirmation} />
                  {c.canConfirm && <ConfirmClientButton domain={domain} clientDomain={c.clientDomain} name={c.name} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

type LinkState = ClientRow['state'];

/**
 * Where a link stands. A domain invited before it existed also waits for this company to confirm
 * whoever registered it ('needsConfirmation'), before or after that company accepts.
 */
function ClientStateBadge({ state, needsConfirmation = false }: { state: LinkState; needsConfirmation?: boolean }) {
  if (state === 'accepted') {
    return (
      <Badge tone="ok">
        <Trans>Accepted</Trans>
      </Badge>
    );
  }
  if (needsConfirmation) {
    return (
      <Badge tone="warn">
        {state === 'awaitingConfirmation' ? <Trans>Accepted, waiting for your confirmation</Trans> : <Trans>Invitation pending, to be confirmed</Trans>}
      </Badge>
    );
  }
  if (state === 'awaitingConfirmation') {
    return (
      <Badge tone="warn">
        <Trans>Waiting for the inviting company to confirm</Trans>
      </Badge>
    );
  }
  return (
    <Badge tone="warn">
      <Trans>Invitation pending</Trans>
    </Badge>
  );
}

/**
 * The domain did not exist when it was invited: the company that registered it since is shown by
 * name, and becomes a client only once an administrator here confirms it is the one they meant.
 */
function ConfirmClientButton({ domain, clientDomain, name }: { domain: string; clientDomain: string; name: string }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const confirm = trpc.clients.confirm.useMutation({ onSuccess: () => utils.clients.list.invalidate({ domain }) });
  return (
    <>
      <Button
        variant="secondary"
        size="small"
        isPending={confirm.isPending}
        aria-label={t`Confirm ${name || clientDomain} (${clientDomain}) as your client`}
        onPress={() => confirm.mutate({ domain, clientDomain })}
      >
        <Trans>Confirm</Trans>
      </Button>
      <FormError message={confirm.error ? serverText(confirm.error.message) : null} />
    </>
  );
}

/** /i/settings/companyCostumers/add */
export function ClientCompanyAddPage() {
  const { t } = useLingui();
  return (
    <AdminScreen title={t`Add client company`}>
      {(company) => (
        <>
          <BackToClients />
          <p className="muted">
            <Trans>The company is named by its domain; the e-mail gets the invitation, which an administrator of that company accepts.</Trans>
          </p>
          <ClientInviteForm domain={company.domain} client={null} />
        </>
      )}
    </AdminScreen>
  );
}

/**
 * Invites a client company, or (given `client`) sends its pending invitation again, possibly to
 * another e-mail: inviting again refreshes the link.
 */
function ClientInviteForm({ domain, client }: { domain: string; client: ClientRow | null }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const draft = useDraft({ clientDomain: client?.clientDomain ?? '', email: client?.email ?? '' });
  const { errors, validate, showServerError } = useFormErrors(INVITE_FIELDS);
  const [outcome, setOutcome] = useState<{ sentTo: string | null; alreadyClient: boolean; clientDomain: string } | null>(null);
  const invite = trpc.clients.invite.useMutation();

  async function save(): Promise<boolean> {
    setOutcome(null);
    const input = validate(clientInviteInput, draft.values);
    if (!input) return false;
    try {
      const answer = await invite.mutateAsync({ domain, ...input });
      setOutcome({ ...answer, clientDomain: input.clientDomain });
      // A new invitation leaves an empty form for the next one; a re-sent one keeps its values.
      if (client) draft.commit(draft.values);
      else draft.commit({ clientDomain: '', email: '' });
      await utils.clients.list.invalidate({ domain });
      return true;
    } catch (err) {
      showServerError(err as Parameters<typeof showServerError>[0]);
      return false;
    }
  }
  return (
    <>
      {outcome?.sentTo && (
        <FormNotice>
          <Trans>E-mail sent to {outcome.sentTo}</Trans>
        </FormNotice>
      )}
      {outcome?.alreadyClient && (
        <FormNotice>
          <Trans>{outcome.clientDomain} is already your client.</Trans>
        </FormNotice>
      )}
      <EditForm
        draft={draft}
        save={save}
        pending={invite.isPending}
        error={errors.form}
        submitLabel={client ? <Trans>Send the invitation again</Trans> : <Trans>Send invitation</Trans>}
      >
        <TextField
          label={t`Client company domain`}
          value={draft.values.clientDomain}
          readOnly={client !== null}
          onChange={(e) => draft.set('clientDomain', e.target.value.toLowerCase())}
          error={errors.fields.clientDomain}
          autoCapitalize="none"
          maxLength={15}
        />
        <TextField
          label={t`E-mail`}
          type="email"
          value={draft.values.email}
          onChange={(e) => draft.set('email', e.target.value)}
          error={errors.fields.email}
          maxLength={254}
        />
      </EditForm>
    </>
  );
}

/** /i/settings/companyCostumers/edit/{id}: id is the client's domain. */
export function ClientCompanyEditPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <AdminScreen title={t`Edit client company`}>{(company) => <ClientEditor domain={company.domain} clientDomain={id} />}</AdminScreen>;
}

function ClientEditor({ domain, clientDomain }: { domain: string; clientDomain: string }) {
  const { i18n } = useLingui();
  const serverText = useServerText();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const clients = trpc.clients.list.useQuery({ domain });
  const remove = trpc.clients.remove.useMutation({
    onSuccess: async () => {
      await utils.clients.list.invalidate({ domain });
      await navigate(LIST);
    },
  });
  if (clients.isPending) return <Spinner />;
  if (clients.isError) return <FormError message={serverText(clients.error.message)} />;
  const client = clients.data.find((c) => c.clientDomain === clientDomain);
  if (!client) {
    return (
      <>
        <BackToClients />
        <p className="muted empty-state">
          <Trans>This client company was not found.</Trans>
        </p>
      </>
    );
  }
  return (
    <>
      <BackToClients />
      <dl className="facts">
        <dt>
          <Trans>Company</Trans>
        </dt>
        <dd>{client.name || '—'}</dd>
        <dt>
          <Trans>Domain</Trans>
        </dt>
        <dd>{client.clientDomain}</dd>
        <dt>
          <Trans>State</Trans>
        </dt>
        <dd>
          <ClientStateBadge state={client.state} needsConfirmation={client.needsConfirmation} />
          {client.canConfirm && <ConfirmClientButton domain={domain} clientDomain={client.clientDomain} name={client.name} />}
        </dd>
        <dt>
          <Trans>Invited on</Trans>
        </dt>
        <dd>{i18n.date(client.invitedAt, { dateStyle: 'short' })}</dd>
        {client.acceptedAt && (
          <>
            <dt>
              <Trans>Accepted on</Trans>
            </dt>
            <dd>{i18n.date(client.acceptedAt, { dateStyle: 'short' })}</dd>
          </>
        )}
      </dl>
      {client.needsConfirmation && (
        <p className="muted">
          <Trans>This domain did not exist when you invited it. Whoever registers it becomes your client only after you confirm it is the company you meant.</Trans>
        </p>
      )}
      {client.accepted ? (
        <p className="muted">
          <Trans>Invitation accepted by {client.email}.</Trans>
        </p>
      ) : (
        <ClientInviteForm domain={domain} client={client} />
      )}
      <section className="settings-section" aria-labelledby="client-remove-title">
        <h2 id="client-remove-title">
          <Trans>Remove</Trans>
        </h2>
        <FormError message={remove.error ? serverText(remove.error.message) : null} />
        <button type="button" className="button button-secondary" disabled={remove.isPending} onClick={() => remove.mutate({ domain, clientDomain })}>
          <Trans>Remove this client company</Trans>
        </button>
      </section>
    </>
  );
}

function BackToClients() {
  return (
    <Link to={LIST} className="back-link">
      <Trans>Back to client companies</Trans>
    </Link>
  );
}

/** /i/settings/companyCostumers/clientsViewer: companies that invited this one to be their client. */
export function ClientsViewerPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Invitations received`}>{(company) => <IncomingInvitations domain={company.domain} />}</AdminScreen>;
}

function IncomingInvitations({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  // The invitation e-mail links here with ?origin=<inviter>, to point that one out.
  const [params] = useSearchParams();
  const origin = params.get('origin');
  const invitations = trpc.clients.invitations.useQuery({ domain });
  const accept = trpc.clients.accept.useMutation({ onSuccess: () => utils.clients.invitations.invalidate({ domain }) });
  return (
    <>
      <BackToClients />
      <p className="muted">
        <Trans>Companies that invited yours to be their client. Accepting links the two companies.</Trans>
      </p>
      <FormError message={accept.error ? serverText(accept.error.message) : null} />
      {accept.data && (
        <FormNotice>
          {accept.data.accepted ? (
            <Trans>You are now a client of {accept.data.originName}.</Trans>
          ) : (
            <Trans>Accepted. {accept.data.originName} still has to confirm your company.</Trans>
          )}
        </FormNotice>
      )}
      {invitations.isPending && <Spinner />}
      {invitations.isError && <FormError message={serverText(invitations.error.message)} />}
      {invitations.data?.length === 0 && (
        <p className="muted empty-state">
          <Trans>No invitations received.</Trans>
        </p>
      )}
      <ul className="invitation-list">
        {invitations.data?.map((inv) => (
          <li key={inv.originDomain} className={inv.originDomain === origin ? 'highlighted' : undefined}>
            <div>
              <strong>{inv.originName}</strong> <span className="muted">({inv.originDomain})</span>
              <div className="muted">
                <Trans>Invited on {i18n.date(inv.invitedAt, { dateStyle: 'short' })}</Trans>
              </div>
            </div>
            {inv.state !== 'pending' ? (
              <ClientStateBadge state={inv.state} />
            ) : (
              <button
                type="button"
                className="button"
                disabled={accept.isPending}
                aria-label={t`Accept the invitation from ${inv.originName}`}
                onClick={() => accept.mutate({ domain, originDomain: inv.originDomain })}
              >
                <Trans>Accept</Trans>
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
