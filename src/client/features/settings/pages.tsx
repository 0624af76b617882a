import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { Link, NavLink, Outlet, useMatch } from 'react-router-dom';
import { LoadingSkeleton } from '../../ui/Skeleton';
import { useSettingsCompany } from './useSelectedCompany';
import { PageTitle, Subpage } from '../../ui/PageTitle';

/**
 * The settings sections, each with who may open it. Today every section is for the company's
 * admins; a section a profile permission opens would say so here, and members see only those.
 */
const SECTIONS: readonly { to: string; label: MessageDescriptor | string; adminOnly: true }[] = [
  { to: 'members', label: msg`Members`, adminOnly: true },
  { to: 'companyCostumers', label: msg`Client companies`, adminOnly: true },
  { to: 'queues', label: msg`Queues`, adminOnly: true },
  { to: 'groups', label: msg`Groups`, adminOnly: true },
  { to: 'forms', label: msg`Forms`, adminOnly: true },
  { to: 'replies', label: msg`Saved replies`, adminOnly: true },
  // Portuguese only, as the spec says of products (docs/decisions.md, Commerce).
  { to: 'products', label: 'Produtos', adminOnly: true },
  { to: 'doctors', label: msg`Doctors`, adminOnly: true },
  { to: 'telegram', label: 'Telegram', adminOnly: true },
  { to: 'whatsapp', label: 'WhatsApp', adminOnly: true },
  { to: 'integrations', label: msg`E-mail integration`, adminOnly: true },
  { to: 'widget', label: msg`Website widget`, adminOnly: true },
  { to: 'configCompany', label: msg`Company account`, adminOnly: true },
];

/** /i/settings: the company's settings sections beside the open one (only those the user may open). */
export function SettingsLayout() {
  const { t, i18n } = useLingui();
  const listOnly = useMatch('/i/settings') !== null;
  const selected = useSettingsCompany();
  const isAdmin = selected.status === 'ready' && selected.company.isAdmin && selected.company.state === 'active';
  const sections = SECTIONS.filter((s) => !s.adminOnly || isAdmin);
  return (
    <div className={listOnly ? 'split split-list-only' : 'split'}>
      <aside className="split-list">
        <PageTitle title={t`Settings`} />
        {selected.status === 'loading' ? (
          <LoadingSkeleton variant="text" rows={6} />
        ) : sections.length > 0 ? (
          <nav className="section-nav" aria-label={t`Settings sections`}>
            {sections.map((s) => (
              <SectionLink key={s.to} to={s.to}>
                {typeof s.label === 'string' ? s.label : i18n._(s.label)}
              </SectionLink>
            ))}
          </nav>
        ) : (
          <p className="muted">
            <Trans>
              There is nothing here you can change. Your own settings (language, presence, sounds) are in <Link to="/i/settingsUser">your settings</Link>.
            </Trans>
          </p>
        )}
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
export { ContactUsSettingsPage } from './ContactUsSettings';
export { WidgetSettingsPage } from './WidgetSettings';
export { SavedRepliesPage } from '../replies/SavedRepliesPage';

export { DoctorsPage } from '../telemedicine/DoctorsPage';
export { DoctorPage } from '../telemedicine/DoctorPage';
export { QueueSettingsPage, QueuesPage } from './QueuesPages';
export { GroupPage, GroupsPage } from './GroupsPages';
export { FormsSettingsPage } from '../forms/SettingsPage';
export { ProductsPage } from '../commerce/ProductsPage';
export { TelegramSettingsPage } from '../channels/ChannelSettingsPages';
export { EmailIntegrationPage } from '../channels/EmailSettingsPage';
export { WhatsAppSettingsPage } from '../channels/ChannelSettingsPages';
