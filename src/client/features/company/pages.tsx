import { Outlet, useParams } from 'react-router-dom';
import { domainSchema } from '../../../shared/schemas/company';
import { NotFound } from '../../ui/NotFound';

/**
 * /:emp/... — a company's public pages. The first segment only names a company when it could be
 * a domain, so '/i/direct' or '/x/wait' are not taken for company pages.
 */
export function CompanyLayout() {
  const { emp } = useParams();
  if (!domainSchema.safeParse(emp).success) return <NotFound />;
  return <Outlet />;
}

export { BlockedPage, CompanyInvitationLinkPage, InvitationPage, JoinCompanyPage, WaitApprovalPage } from './JoinPages';
export { RegisterCompanyPage } from './RegisterCompanyPage';

export { CompanyWhatsAppPage } from '../channels/CompanyWhatsAppPage';
export { CompanyHomePage, ContactUsPage, CustomerChatPage, DirectQueuePage, DirectRequestPage, TicketPage } from './ServicePages';
export { WidgetPage } from './WidgetPage';
