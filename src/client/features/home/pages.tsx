/**
 * The front door (/): the spec's entry page — go to a company by its domain, ask a company for
 * service or a call, enter an invitation, register a company — and, for someone who arrives
 * knowing nothing, what the product is and how it works. Its own small chunk: plain elements and
 * the app's shared styles, nothing heavy. A signed-in person (a global doctor sent home by the
 * route guard too) gets the way into the app first.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { domainSchema } from '../../../shared/schemas/company';
import { useAccount } from '../../guard/company';
import { BRAND, PageTitle } from '../../ui/PageTitle';
import { joinTarget } from '../company/JoinByDomainForm';

export function LandingPage() {
  const { t } = useLingui();
  const { status } = useAccount();
  return (
    <div className="landing">
      <section className="landing-hero">
        <PageTitle title={BRAND} />
        <p className="landing-tagline">
          <Trans>Customer service, team chat and meetings for your company, in one place.</Trans>
        </p>
        <div className="landing-actions">
          {status === 'signedIn' ? (
            <Link className="button" to="/i/recent">
              <Trans>Open the app</Trans>
            </Link>
          ) : (
            <Link className="button" to="/i/login">
              <Trans>Sign in</Trans>
            </Link>
          )}
          <Link className="button button-secondary" to="/i/login/newpage">
            <Trans>Register company</Trans>
          </Link>
        </div>
      </section>

      <section className="landing-entry" aria-label={t`Get started`}>
        <CompanyEntry />
        <InvitationEntry />
      </section>

      <section aria-labelledby="what-title">
        <h2 id="what-title" className="landing-heading">
          <Trans>What it is</Trans>
        </h2>
        <p className="landing-lead">
          <Trans>
            {BRAND} is where a company serves its customers and works as a team. Customers reach you from your company page; your attendants answer them from one queue, talk
            among themselves in chats, and call or meet by video in the browser. Nothing to install for anyone.
          </Trans>
        </p>
        <ul className="landing-features">
          <li>
            <h3>
              <Trans>Queues and chats</Trans>
            </h3>
            <p>
              <Trans>Customers reach your team from your company page; attendants take them from the queue.</Trans>
            </p>
          </li>
          <li>
            <h3>
              <Trans>Calls and meetings</Trans>
            </h3>
            <p>
              <Trans>Voice, video and screen sharing in the browser, with recording when you need it.</Trans>
            </p>
          </li>
          <li>
            <h3>
              <Trans>Calendar and reminders</Trans>
            </h3>
            <p>
              <Trans>Plan meetings and appointments; everyone is reminded before they start.</Trans>
            </p>
          </li>
          <li>
            <h3>
              <Trans>Customers directory</Trans>
            </h3>
            <p>
              <Trans>Everyone you served, with their conversations, ratings and calls; import and export as CSV.</Trans>
            </p>
          </li>
          <li>
            <h3>
              <Trans>Feed and notes</Trans>
            </h3>
            <p>
              <Trans>News for your team and your client companies; private notes you can share.</Trans>
            </p>
          </li>
          <li>
            <h3>
              <Trans>Your server, your data</Trans>
            </h3>
            <p>
              <Trans>Installed on your own server from one image, in five languages.</Trans>
            </p>
          </li>
        </ul>
      </section>

      <section aria-labelledby="how-title">
        <h2 id="how-title" className="landing-heading">
          <Trans>How it works</Trans>
        </h2>
        <ol className="landing-steps">
          <li>
            <Trans>Register your company and choose its domain: your page is then at /your-domain.</Trans>
          </li>
          <li>
            <Trans>Invite your team with a link; an administrator approves each person.</Trans>
          </li>
          <li>
            <Trans>Share your page: customers ask for service there, and your team answers from the queue.</Trans>
          </li>
        </ol>
      </section>
    </div>
  );
}

function useDomainInput() {
  const { t } = useLingui();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const domain = value.trim().toLowerCase().replace(/^\//, '');
  const check = () => {
    if (domainSchema.safeParse(domain).success) return domain;
    setError(t`A domain has 3 to 15 lowercase letters or digits, without spaces`);
    return null;
  };
  return { value, setValue: (v: string) => (setValue(v), setError(null)), error, check };
}

/** Go to a company by its domain: its page, or straight to asking for service (or a call) there. */
function CompanyEntry() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const input = useDomainInput();
  const [action, setAction] = useState<'page' | 'service'>('page');
  function submit(e: FormEvent) {
    e.preventDefault();
    const domain = input.check();
    if (domain) void navigate(action === 'service' ? `/${domain}/direct` : `/${domain}`);
  }
  return (
    <form className="landing-card" onSubmit={submit} noValidate>
      <h2>
        <Trans>Find a company</Trans>
      </h2>
      <div className="field">
        <label htmlFor="landing-domain">
          <Trans>Company domain</Trans>
        </label>
        <input
          id="landing-domain"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t`e.g. acme`}
          value={input.value}
          onChange={(e) => input.setValue(e.target.value)}
          aria-invalid={input.error ? true : undefined}
          aria-describedby={input.error ? 'landing-domain-error' : undefined}
        />
        {input.error && (
          <p id="landing-domain-error" className="field-error" role="alert">
            {input.error}
          </p>
        )}
      </div>
      <div className="landing-card-actions">
        <button type="submit" className="button" onClick={() => setAction('page')}>
          <Trans>Go to its page</Trans>
        </button>
        <button type="submit" className="button button-secondary" onClick={() => setAction('service')}>
          <Trans>Request service or a call</Trans>
        </button>
      </div>
    </form>
  );
}

/** An invitation: a link someone sent (today's or an old one), or just the company's domain. */
function InvitationEntry() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const target = joinTarget(value);
    if (!target) return setError(t`Enter a company domain or an invitation link`);
    void navigate(target);
  }
  return (
    <form className="landing-card" onSubmit={submit} noValidate>
      <h2>
        <Trans>Have an invitation?</Trans>
      </h2>
      <div className="field">
        <label htmlFor="landing-invitation">
          <Trans>Invitation link or company domain</Trans>
        </label>
        <input
          id="landing-invitation"
          autoCapitalize="none"
          spellCheck={false}
          value={value}
          onChange={(e) => (setValue(e.target.value), setError(null))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'landing-invitation-error' : undefined}
        />
        {error && (
          <p id="landing-invitation-error" className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="landing-card-actions">
        <button type="submit" className="button">
          <Trans>Join the team</Trans>
        </button>
      </div>
    </form>
  );
}
