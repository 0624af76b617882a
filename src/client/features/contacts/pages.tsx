/**
 * Customers (external contacts): the directory (/i/recent/customers/all) with search, tags, CSV
 * import (progress bar and row-by-row report) and export, and merging; one customer with their
 * history (/i/recent/customers/{id}); the form to add or edit one (/i/recent/customers/edit[?id=]).
 * Add and edit follow the profile permissions; the server refuses otherwise and the refusal shows.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { AppRouter } from '../../../server/router';
import { CONTACT_LIMITS, type ExtraField } from '../../../shared/domain/contacts';
import { useMyStanding, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError, TextField } from '../../ui';
import { Spinner } from '../../ui/Spinner';
import { MemberScreen } from '../service/MemberScreen';
import { ImportPanel } from './ImportPanel';

type Outputs = inferRouterOutputs<AppRouter>['contacts'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /i/recent/customers/:id — the directory ('all') or one customer. */
export function CustomerPage() {
  const { t } = useLingui();
  const id = useParams().id ?? '';
  if (!UUID.test(id)) return <MemberScreen title={t`Customers`}>{(c) => <Directory domain={c.domain} />}</MemberScreen>;
  return <MemberScreen title={t`Customer`}>{(c) => <Customer key={id} domain={c.domain} id={id} />}</MemberScreen>;
}

function Directory({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [merging, setMerging] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  // Offer only what the profile allows (add contacts / edit contacts); the server enforces it anyway.
  const may = useMyStanding()?.permissions;
  const list = trpc.contacts.list.useInfiniteQuery({ domain, q: q.trim() || undefined, limit: 50 }, { getNextPageParam: (p) => p.nextCursor ?? undefined });
  const merge = trpc.contacts.merge.useMutation({ onSuccess: () => (setSelected([]), setMerging(false), void utils.contacts.invalidate()) });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  async function exportCsv() {
    setExportError(null);
    try {
      const out = await utils.contacts.exportCsv.fetch({ domain });
      const url = URL.createObjectURL(new Blob([out.csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = out.fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      setExportError(serverMessage(err as Error));
    }
  }
  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...s, id].slice(-2) : s.filter((x) => x !== id)));
  const pair = selected.map((id) => items.find((c) => c.id === id)).filter((c): c is Outputs['list']['items'][number] => !!c);

  return (
    <>
      <div className="contacts-bar">
        <div className="field">
          <label htmlFor="contacts-search">
            <Trans>Search by name, e-mail, phone or company</Trans>
          </label>
          <input id="contacts-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        {may?.addContacts && (
          <Link className="button" to="/i/recent/customers/edit">
            <Trans>Add customer</Trans>
          </Link>
        )}
        {may?.editContacts && (
          <>
            <button type="button" className="button button-secondary" onClick={() => void exportCsv()}>
              <Trans>Export CSV</Trans>
            </button>
            <button type="button" className="button button-secondary" disabled={pair.length !== 2} onClick={() => setMerging(true)}>
              <Trans>Merge the two selected</Trans>
            </button>
          </>
        )}
      </div>
      <FormError message={exportError} />
      {may?.addContacts && <ImportPanel domain={domain} onDone={() => void utils.contacts.list.invalidate()} />}
      {list.isPending && <Spinner />}
      {list.isError && <FormError message={serverMessage(list.error)} />}
      {list.isSuccess && (
        <p className="muted" role="status">
          <Trans>{total} customers in the directory</Trans>
        </p>
      )}
      {list.isSuccess && items.length === 0 && (
        <p className="empty-state muted">
          <Trans>No customers found.</Trans>
        </p>
      )}
      {items.length > 0 && (
        <table className="contacts-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">
                  <Trans>Select</Trans>
                </span>
              </th>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col">
                <Trans>E-mail</Trans>
              </th>
              <th scope="col">
                <Trans>Phone</Trans>
              </th>
              <th scope="col">
                <Trans>Company</Trans>
              </th>
              <th scope="col">
                <Trans>Tags</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((c) => (
              <tr key={c.id}>
                <td>
                  <input type="checkbox" aria-label={t`Select ${c.name}`} checked={selected.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
                </td>
                <td>
                  <Link to={`/i/recent/customers/${c.id}`}>{c.name}</Link>
                </td>
                <td>{c.email}</td>
                <td>{c.phone ? `+${c.phone}` : ''}</td>
                <td>{c.organization}</td>
                <td>{c.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.hasNextPage && (
        <button type="button" className="button button-secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          <Trans>More</Trans>
        </button>
      )}
      {merging && pair.length === 2 && (
        <ConfirmDialog
          title={t`Merge these customers?`}
          confirmLabel={t`Merge`}
          pending={merge.isPending}
          error={serverMessage(merge.error)}
          onConfirm={() => merge.mutate({ domain, keepId: pair[0]!.id, mergeId: pair[1]!.id })}
          onCancel={() => setMerging(false)}
        >
          <p>
            <Trans>
              {pair[1]!.name} is folded into {pair[0]!.name}: the first record's values win, empty ones are filled from the other, tags, fields and history are joined, and the second
              record is removed.
            </Trans>
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function Customer({ domain, id }: { domain: string; id: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const contact = trpc.contacts.get.useQuery({ domain, contactId: id }, { retry: false });
  const [removing, setRemoving] = useState(false);
  const may = useMyStanding()?.permissions;
  const remove = trpc.contacts.remove.useMutation({ onSuccess: () => void navigate('/i/recent/customers/all') });
  if (contact.isPending) return <Spinner />;
  if (contact.isError)
    return (
      <div className="empty-state">
        <FormError message={serverMessage(contact.error)} />
        <Link to="/i/recent/customers/all">
          <Trans>Back to customers</Trans>
        </Link>
      </div>
    );
  const c = contact.data;
  const date = (d: Date | string | null) => (d ? i18n.date(new Date(d), { dateStyle: 'short', timeStyle: 'short' }) : '—');
  return (
    <div className="contact-detail">
      <Link to="/i/recent/customers/all">
        <Trans>Back to customers</Trans>
      </Link>
      <h2>{c.name}</h2>
      <dl className="contact-fields">
        <dt>
          <Trans>E-mail</Trans>
        </dt>
        <dd>{c.email ?? '—'}</dd>
        <dt>
          <Trans>Phone</Trans>
        </dt>
        <dd>{c.phone ? `+${c.phone}` : '—'}</dd>
        <dt>
          <Trans>Company</Trans>
        </dt>
        <dd>{c.organization || '—'}</dd>
        <dt>
          <Trans>Tags</Trans>
        </dt>
        <dd>{c.tags.join(', ') || '—'}</dd>
        {c.extras.map((x) => (
          <div key={x.tag} className="contact-field-pair">
            <dt>{x.name}</dt>
            <dd>{c.fields[x.tag] ?? '—'}</dd>
          </div>
        ))}
        <dt>
          <Trans>Notes</Trans>
        </dt>
        <dd className="contact-notes">{c.notes || '—'}</dd>
      </dl>
      {may?.editContacts && (
        <div className="form-actions">
          <Link className="button" to={`/i/recent/customers/edit?id=${c.id}`}>
            <Trans>Edit</Trans>
          </Link>
          <button type="button" className="button button-secondary" onClick={() => setRemoving(true)}>
            <Trans>Remove</Trans>
          </button>
        </div>
      )}
      <section aria-labelledby="history-title">
        <h3 id="history-title">
          <Trans>Conversations</Trans>
        </h3>
        {c.conversations.length === 0 ? (
          <p className="muted">
            <Trans>No conversations yet.</Trans>
          </p>
        ) : (
          <ul className="contact-history">
            {c.conversations.map((v) => (
              <li key={v.id}>
                <Link to={`/i/recent/chat/${v.id}`}>{v.protocol}</Link> · {v.queueName ?? v.title} · {date(v.createdAt)}
                {v.concludedAt ? <> · <Trans>concluded</Trans></> : null}
                {v.rating !== null ? <> · {'★'.repeat(v.rating)}</> : null}
              </li>
            ))}
          </ul>
        )}
        <h3>
          <Trans>Ratings</Trans>
        </h3>
        {c.ratings.length === 0 ? (
          <p className="muted">
            <Trans>No ratings yet.</Trans>
          </p>
        ) : (
          <ul className="contact-history">
            {c.ratings.map((r) => (
              <li key={r.conversationId}>
                <span aria-label={t`${r.rating} of 5 stars`}>{'★'.repeat(r.rating)}</span> · {r.protocol} · {date(r.at)}
              </li>
            ))}
          </ul>
        )}
        <h3>
          <Trans>Calls</Trans>
        </h3>
        {c.calls.length === 0 ? (
          <p className="muted">
            <Trans>No calls yet.</Trans>
          </p>
        ) : (
          <ul className="contact-history">
            {c.calls.map((call) => (
              <li key={call.id}>
                {call.type === 2 ? t`Video call` : call.type === 3 ? t`Screen share` : t`Voice call`} · {date(call.startedAt ?? call.createdAt)}
                {call.endedAt ? ` – ${date(call.endedAt)}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      {removing && (
        <ConfirmDialog
          title={t`Remove ${c.name} from the directory?`}
          confirmLabel={t`Remove`}
          danger
          pending={remove.isPending}
          error={serverMessage(remove.error)}
          onConfirm={() => remove.mutate({ domain, contactId: c.id })}
          onCancel={() => setRemoving(false)}
        />
      )}
    </div>
  );
}

/** /i/recent/customers/edit — a new customer, or ?id= one to change. */
export function CustomerEditPage() {
  const { t } = useLingui();
  const id = useSearchParams()[0].get('id');
  return (
    <MemberScreen title={id ? t`Edit customer` : t`Add customer`}>
      {(c) => (id && UUID.test(id) ? <EditLoader domain={c.domain} id={id} /> : <NewLoader domain={c.domain} />)}
    </MemberScreen>
  );
}

function NewLoader({ domain }: { domain: string }) {
  const fields = trpc.additionalFields.list.useQuery({ domain }, { retry: false });
  // Additional fields are an admin's list; a member who cannot read it still adds the rest.
  if (fields.isPending) return <Spinner />;
  const extras = (fields.data ?? []).map((f) => ({ tag: f.tag, name: f.name, multipleChoice: f.multipleChoice, options: f.options }));
  return <ContactForm domain={domain} extras={extras} />;
}

function EditLoader({ domain, id }: { domain: string; id: string }) {
  const serverMessage = useServerMessage();
  const contact = trpc.contacts.get.useQuery({ domain, contactId: id }, { retry: false });
  if (contact.isPending) return <Spinner />;
  if (contact.isError) return <FormError message={serverMessage(contact.error)} />;
  return <ContactForm domain={domain} extras={contact.data.extras} initial={contact.data} />;
}

function ContactForm({ domain, extras, initial }: { domain: string; extras: ExtraField[]; initial?: Outputs['get'] }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [v, setV] = useState({
    name: initial?.name ?? '',
    email: initial?.email ?? '',
    phone: initial?.phone ? `+${initial.phone}` : '',
    organization: initial?.organization ?? '',
    tags: initial?.tags.join(', ') ?? '',
    notes: initial?.notes ?? '',
    fields: (initial?.fields ?? {}) as Record<string, string>,
  });
  const done = async (saved: { id: string }) => {
    await utils.contacts.invalidate();
    void navigate(`/i/recent/customers/${saved.id}`);
  };
  const create = trpc.contacts.create.useMutation({ onSuccess: done });
  const update = trpc.contacts.update.useMutation({ onSuccess: done });
  const failed = create.error ?? update.error;
  const fieldError = (key: string) => {
    const message = (failed?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors?.[key]?.[0];
    return message ? (serverMessage({ message }) ?? message) : undefined;
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const input = { domain, name: v.name, email: v.email || null, phone: v.phone || null, organization: v.organization, tags: v.tags.split(/[;,]/), notes: v.notes, fields: v.fields };
    if (initial) update.mutate({ ...input, contactId: initial.id });
    else create.mutate(input);
  }
  const set = (key: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [key]: e.target.value });

  return (
    <form className="contact-form" onSubmit={submit} noValidate>
      <FormError message={failed && !(failed.data as { fieldErrors?: unknown })?.fieldErrors ? serverMessage(failed) : null} />
      <TextField label={t`Name`} value={v.name} onChange={set('name')} maxLength={CONTACT_LIMITS.name} required error={fieldError('name')} />
      <TextField label={t`E-mail`} type="email" value={v.email} onChange={set('email')} error={fieldError('email')} />
      <TextField label={t`Phone`} type="tel" value={v.phone} onChange={set('phone')} error={fieldError('phone')} />
      <TextField label={t`Company`} value={v.organization} onChange={set('organization')} error={fieldError('organization')} />
      <TextField label={t`Tags`} value={v.tags} onChange={set('tags')} hint={t`Separated by commas`} error={fieldError('tags')} />
      {extras.map((x) =>
        x.multipleChoice ? (
          <div className="field" key={x.tag}>
            <label htmlFor={`extra-${x.tag}`}>{x.name}</label>
            <select id={`extra-${x.tag}`} value={v.fields[x.tag] ?? ''} onChange={(e) => setV({ ...v, fields: { ...v.fields, [x.tag]: e.target.value } })}>
              <option value="">—</option>
              {x.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <TextField key={x.tag} label={x.name} value={v.fields[x.tag] ?? ''} onChange={(e) => setV({ ...v, fields: { ...v.fields, [x.tag]: e.target.value } })} />
        ),
      )}
      <div className="field">
        <label htmlFor="contact-notes">
          <Trans>Notes</Trans>
        </label>
        <textarea id="contact-notes" rows={4} maxLength={CONTACT_LIMITS.notes} value={v.notes} onChange={set('notes')} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button" disabled={create.isPending || update.isPending}>
          <Trans>Save</Trans>
        </button>
        <Link className="button button-secondary" to={initial ? `/i/recent/customers/${initial.id}` : '/i/recent/customers/all'}>
          <Trans>Cancel</Trans>
        </Link>
      </div>
    </form>
  );
}
