import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { NavLink, Outlet, useMatch } from 'react-router-dom';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { placeholderPage } from '../../ui/Placeholder';

/** /i/settings: the company's settings sections beside the open one. */
export function SettingsLayout() {
  const { t } = useLingui();
  const listOnly = useMatch('/i/settings') !== null;
  return (
    <div className={listOnly ? 'split split-list-only' : 'split'}>
      <aside className="split-list">
        <PageTitle title={t`Settings`} />
        <nav className="section-nav">
          <SectionLink to="members">
            <Trans>Members</Trans>
          </SectionLink>
          <SectionLink to="companyCostumers">
            <Trans>Client companies</Trans>
          </SectionLink>
          <SectionLink to="queues">
            <Trans>Queues</Trans>
          </SectionLink>
          <SectionLink to="groups">
            <Trans>Groups</Trans>
          </SectionLink>
          <SectionLink to="forms">
            <Trans>Forms</Trans>
          </SectionLink>
          <SectionLink to="doctors">
            <Trans>Doctors</Trans>
          </SectionLink>
          <SectionLink to="telegram">Telegram</SectionLink>
          <SectionLink to="whatsapp">WhatsApp</SectionLink>
          <SectionLink to="configCompany">
            <Trans>Company account</Trans>
          </SectionLink>
        </nav>
      </aside>
      <div className="split-detail">
        <Subpage>
          <Outlet />
        </Subpage>
      </div>
    </div>
  );
}

function SectionLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <NavLink to={to} className={({ isActive }) => (isActive ? 'section-link active' : 'section-link')}>
      {children}
    </NavLink>
  );
}

export function SettingsHome() {
  return (
    <p className="muted empty-state">
      <Trans>Choose a section to manage.</Trans>
    </p>
  );
}

export const DoctorsPage = placeholderPage(msg`Doctors`);
export const DoctorPage = placeholderPage(msg`Doctor`);
export const MembersPage = placeholderPage(msg`Members`);
export const MemberPage = placeholderPage(msg`Member`);
export const ClientCompaniesPage = placeholderPage(msg`Client companies`);
export const ClientCompanyEditPage = placeholderPage(msg`Edit client company`);
export const ClientCompanyAddPage = placeholderPage(msg`Add client company`);
export const ClientsViewerPage = placeholderPage(msg`Clients overview`);
export const QueuesPage = placeholderPage(msg`Queues`);
export const QueueSettingsPage = placeholderPage(msg`Queue`);
export const GroupsPage = placeholderPage(msg`Groups`);
export const GroupPage = placeholderPage(msg`Group`);
export const FormsSettingsPage = placeholderPage(msg`Forms`);
export const TelegramSettingsPage = placeholderPage(msg`Telegram`);
export const WhatsAppSettingsPage = placeholderPage(msg`WhatsApp`);
export const CompanyAccountPage = placeholderPage(msg`Company account`);
export const CompanyPageEditPage = placeholderPage(msg`Edit company page`);
export const GreetingsPage = placeholderPage(msg`Greetings`);
