import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { BRAND, PageTitle } from '../../ui/PageTitle';

export function LandingPage() {
  return (
    <section className="landing">
      <div className="landing-hero">
        <PageTitle title={BRAND} />
        <p className="landing-tagline">
          <Trans>Customer service, team chat and meetings for your company, in one place.</Trans>
        </p>
        <div className="landing-actions">
          <Link className="button" to="/i/login">
            <Trans>Sign in</Trans>
          </Link>
          {/* The entry page: anonymous visitors sign in first and come back to it. */}
          <Link className="button button-secondary" to="/i/login/newpage">
            <Trans>Register company</Trans>
          </Link>
        </div>
      </div>
      <ul className="landing-features">
        <li>
          <h2>
            <Trans>Queues and chats</Trans>
          </h2>
          <p>
            <Trans>Customers reach your team from your company page; attendants take them from the queue.</Trans>
          </p>
        </li>
        <li>
          <h2>
            <Trans>Calls and meetings</Trans>
          </h2>
          <p>
            <Trans>Voice, video and screen sharing in the browser, with recording when you need it.</Trans>
          </p>
        </li>
        <li>
          <h2>
            <Trans>Calendar and reminders</Trans>
          </h2>
          <p>
            <Trans>Plan meetings and appointments; everyone is reminded before they start.</Trans>
          </p>
        </li>
      </ul>
    </section>
  );
}
