import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { validateContactUs, type ContactUsFieldError } from '../../../shared/domain/contact-us-form';
import { MESSAGE_MAX_LENGTH } from '../../../shared/constants';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { CustomerConversation } from '../service/CustomerConversation';
import { formatProtocol, STATE_LABELS } from '../service/labels';
import { BookingLink } from '../calendar/PublicBooking';
import { ConsultationLink } from '../telemedicine/ConsultationLink';

/** CompanyLayout has already checked that :emp has a domain's shape. */
const useDomain = () => useParams().emp!;

function usePublicCompany() {
  const domain = useDomain();
  const page = trpc.customer.companyPage.useQuery({ domain }, { retry: false });
  return { domain, page };
}

function CompanyNotFound() {
  const { t } = useLingui();
  return (
    <section className="page page-centered">
      <PageTitle title={t`Domain not found`} />
      <Link to="/">
        <Trans>Go to the home page</Trans>
      </Link>
    </section>
  );
}

/** /{emp}: the company's public page: image, name, bio, social networks, Contact Us, request service. */
export function CompanyHomePage() {
  const { t, i18n } = useLingui();
  const { domain, page } = usePublicCompany();
  const me = trpc.auth.me.useQuery();
  const open = trpc.customer.openServices.useQuery({ domain }, { enabled: !!me.data?.user && page.isSuccess });
  if (page.isPending) return <Spinner />;
  if (page.isError) return <CompanyNotFound />;
  const c = page.data;
  const networks = Object.entries(c.socialNetworks);
  return (
    <section className="page company-page">
      <header className="company-hero">
        {c.hasImage && <img className="company-image" src={`/companies/${c.domain}/image`} alt="" />}
        <div>
          <PageTitle title={c.name} />
          {c.rating ? (
            <p className="company-rating">
              <span aria-hidden="true">★ </span>
              <Trans>{i18n.number(c.rating.total, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} out of 5</Trans>
              {' · '}
              <Plural value={c.rating.count} one="# rating" other="# ratings" />
            </p>
          ) : (
            <p className="muted">
              <Trans>No ratings yet</Trans>
            </p>
          )}
        </div>
      </header>
      {c.bio && <p className="company-bio">{c.bio}</p>}
      {(c.website || networks.length > 0) && (
        <ul className="company-links">
          {c.website && (
            <li>
              <a href={/^https?:\/\//.test(c.website) ? c.website : `https://${c.website}`} rel="noopener noreferrer" target="_blank">
                {c.website}
              </a>
            </li>
          )}
          {networks.map(([network, handle]) => (
            <li key={network}>
              <span className="muted">{network}:</span>{' '}
              {/^https?:\/\//.test(handle) ? (
                <a href={handle} rel="noopener noreferrer" target="_blank">
                  {handle}
                </a>
              ) : (
                handle
              )}
            </li>
          ))}
        </ul>
      )}
      {!c.takingRequests && (
        <p className="notice-warn" role="status">
          <Trans>This company is not taking requests at the moment</Trans>
        </p>
      )}
      <div className="form-actions">
        {c.takingRequests && <ConsultationLink domain={domain} />}
        {c.takingRequests && <BookingLink domain={domain} />}
        {c.takingRequests && c.queues.length > 0 && (
          <Link className="button" to={`/${domain}/direct`}>
            <Trans>Request service</Trans>
          </Link>
        )}
        {!c.contactUs.blocked && (
          <Link className="button button-secondary" to={`/${domain}/faleconosco`}>
            {c.contactUs.name}
          </Link>
        )}
      </div>
      {open.data && open.data.length > 0 && (
        <section className="settings-section" aria-labelledby="open-services">
          <h2 id="open-services">
            <Trans>Your open requests</Trans>
          </h2>
          <ul className="choice-list">
            {open.data.map((s) => (
              <li key={s.conversationId}>
                <Link className="choice" to={`/${domain}/${s.type === 1 ? 'ticket' : 'chat'}/${s.conversationId}`}>
                  {formatProtocol(s.protocol)} · {s.queueName} · {i18n._(STATE_LABELS[s.state] ?? STATE_LABELS[0]!)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

/** /{emp}/direct: choose the queue to ask in. */
export function DirectRequestPage() {
  const { t } = useLingui();
  const { domain, page } = usePublicCompany();
  if (page.isPending) return <Spinner />;
  if (page.isError) return <CompanyNotFound />;
  return (
    <section className="page company-page">
      <PageTitle title={t`Request service`} />
      <p className="muted">{page.data.name}</p>
      {!page.data.takingRequests ? (
        <p className="notice-warn" role="status">
          <Trans>This company is not taking requests at the moment</Trans>
        </p>
      ) : page.data.queues.length === 0 ? (
        <p className="muted empty-state">
          <Trans>No queue is open at the moment.</Trans>
        </p>
      ) : (
        <>
          <p>
            <Trans>Choose the subject of your request:</Trans>
          </p>
          <ul className="choice-list">
            {page.data.queues.map((q) => (
              <li key={q.key}>
                <Link className="choice" to={`/${domain}/direct/queue/${q.key}`}>
                  {q.name}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <Link to={`/${domain}`}>
        <Trans>Back to {page.data.name}</Trans>
      </Link>
    </section>
  );
}

/**
 * /{emp}/direct/queue/{queue}: send the request (an anonymous visitor gives a name first), then
 * follow the place in line live, leave the line, chat once served, and start a new service.
 * The request's id rides in the address (?id=) so a reload comes back to it.
 */
export function DirectQueuePage() {
  const { t } = useLingui();
  const { queue = '' } = useParams();
  const { domain, page } = usePublicCompany();
  const [search, setSearch] = useSearchParams();
  const conversationId = search.get('id');
  if (page.isPending) return <Spinner />;
  if (page.isError) return <CompanyNotFound />;
  const queueName = page.data.queues.find((q) => q.key === queue)?.name;
  return (
    <section className={conversationId ? 'page company-page customer-page' : 'page company-page'}>
      <PageTitle title={queueName ?? t`Request service`} />
      <p className="muted">{page.data.name}</p>
      {conversationId ? (
        <CustomerConversation conversationId={conversationId} onNewService={() => setSearch({}, { replace: true })} />
      ) : (
        <RequestForm domain={domain} queueKey={queue} onSent={(id) => setSearch({ id }, { replace: true })} />
      )}
    </section>
  );
}

export function RequestForm({ domain, queueKey, onSent }: { domain: string; queueKey: string; onSent: (conversationId: string) => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const me = trpc.auth.me.useQuery();
  const user = me.data?.user;
  const needsName = !user || user.anonymous || !user.name;
  const [name, setName] = useState(user?.anonymous ? '' : (user?.name ?? ''));
  const [text, setText] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const request = trpc.customer.request.useMutation({
    onSuccess: async (r) => {
      await utils.auth.me.invalidate();
      onSent(r.conversationId);
    },
  });
  return (
    <form
      className="settings-form request-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (needsName && !name.trim()) {
          setNameError(t`To start, tell us your name:`);
          return;
        }
        setNameError(null);
        request.mutate({ domain, queueKey, name: needsName ? name : undefined, text: text.trim() || undefined });
      }}
    >
      <FormError message={request.error ? serverMessage(request.error) : null} />
      {needsName && (
        <TextField label={t`To start, tell us your name:`} value={name} maxLength={80} autoComplete="name" error={nameError ?? undefined} onChange={(e) => setName(e.target.value)} />
      )}
      <div className="field">
        <label htmlFor="request-text">
          <Trans>How can we help? (optional)</Trans>
        </label>
        <textarea id="request-text" rows={3} maxLength={MESSAGE_MAX_LENGTH} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button" disabled={request.isPending} aria-busy={request.isPending || undefined}>
          <Trans>Send request</Trans>
        </button>
      </div>
    </form>
  );
}

/** /{emp}/faleconosco: Contact Us with the company's fields; a blocked Contact Us says so. */
export function ContactUsPage() {
  const { t } = useLingui();
  const domain = useDomain();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const form = trpc.customer.contactUsForm.useQuery({ domain }, { retry: false });
  const me = trpc.auth.me.useQuery();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, ContactUsFieldError>>({});
  const send = trpc.customer.contactUs.useMutation({ onSuccess: (r) => void navigate(`/${domain}/ticket/${r.conversationId}`) });
  const errorText = (e: ContactUsFieldError | undefined, min: number, max: number) => {
    switch (e) {
      case 'required':
        return t`Fill in all fields`;
      case 'email':
        return t`Invalid email`;
      case 'tooShort':
        return t`At least ${min} characters`;
      case 'tooLong':
        return t`At most ${max} characters`;
      case 'notAnOption':
        return t`Choose one of the options`;
      default:
        return undefined;
    }
  };

  if (form.isPending) return <Spinner />;
  if (form.isError) return <CompanyNotFound />;
  const f = form.data;
  const user = me.data?.user;
  const known: Record<string, string> = { name: user && !user.anonymous ? user.name : '', email: user?.email ?? '', phone: user?.phone ?? '' };
  const valueOf = (key: string, readOnly = false) => (readOnly ? (known[key] ?? '') : (values[key] ?? ''));
  return (
    <section className="page company-page">
      <PageTitle title={f.name} />
      {f.pageTitle && <p className="muted">{f.pageTitle}</p>}
      {f.blocked ? (
        <p className="notice-warn" role="status">
          <Trans>Contact Us is not available at the moment</Trans>
        </p>
      ) : (
        <form
          className="settings-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const all = { ...values };
            for (const field of f.fields) if (field.readOnly) all[field.key] = known[field.key] ?? '';
            const checked = validateContactUs(f.fields, f.extras, all);
            if (!checked.ok) {
              setErrors(checked.errors);
              return;
            }
            setErrors({});
            send.mutate({ domain, values: all });
          }}
        >
          <FormError message={send.error ? serverMessage(send.error) : null} />
          {f.fields.map((field) =>
            field.key === 'message' ? (
              <div className="field" key={field.key}>
                <label htmlFor={`cu-${field.key}`}>
                  {field.label}
                  {field.required ? ' *' : ''}
                </label>
                <textarea
                  id={`cu-${field.key}`}
                  rows={5}
                  maxLength={field.maxSize}
                  readOnly={field.readOnly}
                  aria-invalid={errors[field.key] ? true : undefined}
                  value={valueOf(field.key, field.readOnly)}
                  onChange={(e) => setValues({ ...values, [field.key]: e.target.value })}
                />
                {errors[field.key] && (
                  <p className="field-error" role="alert">
                    {errorText(errors[field.key], field.minSize, field.maxSize)}
                  </p>
                )}
              </div>
            ) : (
              <TextField
                key={field.key}
                label={`${field.label}${field.required ? ' *' : ''}`}
                type={field.validateEmail ? 'email' : 'text'}
                maxLength={field.maxSize}
                readOnly={field.readOnly}
                value={valueOf(field.key, field.readOnly)}
                error={errorText(errors[field.key], field.minSize, field.maxSize)}
                onChange={(e) => setValues({ ...values, [field.key]: e.target.value })}
              />
            ),
          )}
          {f.extras.map((x) =>
            x.multipleChoice ? (
              <div className="field" key={x.tag}>
                <label htmlFor={`cu-${x.tag}`}>{x.name}</label>
                <select id={`cu-${x.tag}`} value={values[x.tag] ?? ''} onChange={(e) => setValues({ ...values, [x.tag]: e.target.value })}>
                  <option value="">—</option>
                  {x.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
                {errors[x.tag] && (
                  <p className="field-error" role="alert">
                    {errorText(errors[x.tag], 0, 500)}
                  </p>
                )}
              </div>
            ) : (
              <TextField key={x.tag} label={x.name} maxLength={500} value={values[x.tag] ?? ''} error={errorText(errors[x.tag], 0, 500)} onChange={(e) => setValues({ ...values, [x.tag]: e.target.value })} />
            ),
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={send.isPending} aria-busy={send.isPending || undefined}>
              <Trans>Send</Trans>
            </button>
          </div>
        </form>
      )}
      <Link to={`/${domain}`}>
        <Trans>Back to {f.companyName}</Trans>
      </Link>
    </section>
  );
}

/** /{emp}/ticket/{id} and /{emp}/chat/{id}: the customer follows and answers their request. */
export function TicketPage() {
  return <CustomerRequestPage />;
}
export function CustomerChatPage() {
  return <CustomerRequestPage />;
}

function CustomerRequestPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return (
    <section className="page company-page customer-page">
      <PageTitle title={t`Your request`} />
      <CustomerConversation conversationId={id} />
    </section>
  );
}
