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

export { SettingsHome } from './SettingsHome';
export { MemberPage, MembersPage } from './MembersPages';
export { ClientCompaniesPage, ClientCompanyAddPage, ClientCompanyEditPage, ClientsViewerPage } from './ClientCompanyPages';
export { CompanyAccountPage, CompanyPageEditPage, GreetingsPage } from './CompanyAccountPages';

export const DoctorsPage = placeholderPage(msg`Doctors`);
export const DoctorPage = placeholderPage(msg`Doctor`);
export { QueueSettingsPage, QueuesPage } from './QueuesPages';
export { GroupPage, GroupsPage } from './GroupsPages';
export const FormsSettingsPage = placeholderPage(msg`Forms`);
export const TelegramSettingsPage = placeholderPage(msg`Telegram`);
export const WhatsAppSettingsPage = placeholderPage(msg`WhatsApp`);
