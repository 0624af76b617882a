/**
 * Every route of the product (spec product.md, section 2), in history mode.
 *
 * Each area's screens come from its own lazily loaded chunk (features/<area>/pages.tsx), so the
 * first page only downloads the shell and the screen it shows. An area builds a screen by
 * replacing the page's export in its pages.tsx; the route stays here.
 */
import { Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { recentPages } from './features/recent/prefetch';
import { AuthGuard } from './guard/AuthGuard';
import { lazyModule, type LazyModule, type PageName } from './lazyModule';
import { AppLayout } from './ui/AppLayout';
import { NotFound } from './ui/NotFound';
import { RootLayout } from './ui/RootLayout';
import { RouteError } from './ui/RouteError';
import { Spinner } from './ui/Spinner';

/** What a route declares about access; the route guard reads it from `useMatches()`. */
export interface RouteHandle {
  /** An anonymous user is sent to /i/login?redirect=<path> (spec: "auth required"). */
  auth?: true;
  /** A blocked or removed attendant may still open it (spec: /{emp}/invite). */
  blockExempt?: true;
  /** Opened from outside (Telegram): startup does not load the app for it. */
  standalone?: true;
}

const requiresAuth: RouteHandle = { auth: true };

/** Element factory for one area: each screen comes from the area's chunk (lazyModule: at once once it is here). */
function area<M>(source: (() => Promise<M>) | LazyModule<M>) {
  const module = typeof source === 'function' ? lazyModule(source) : source;
  return (name: PageName<M>) => {
    const Page = module.page(name);
    return <Page />;
  };
}

const home = area(() => import('./features/home/pages'));
const login = area(() => import('./features/login/pages'));
const forms = area(() => import('./features/forms/pages'));
const recent = area(recentPages);
// The list alone, for /i/recent's first paint: the area's other screens come when opened.
const recentList = area(() => import('./features/recent/RecentLayout'));
const feeds = area(() => import('./features/feeds/pages'));
const calls = area(() => import('./features/calls/pages'));
const calendar = area(() => import('./features/calendar/pages'));
const dashboard = area(() => import('./features/dashboard/pages'));
const credits = area(() => import('./features/credits/pages'));
const account = area(() => import('./features/account/pages'));
const notes = area(() => import('./features/notes/pages'));
const settings = area(() => import('./features/settings/pages'));
const company = area(() => import('./features/company/pages'));
const telemedicine = area(() => import('./features/telemedicine/pages'));

const loginRoutes: RouteObject[] = [
  {
    path: 'login',
    children: [
      { index: true, element: login('LoginPage') },
      { path: 'entrar', element: login('EntryPage') },
      // The entry page: register a company (spec 2). Login paths pass the guard, so the page
      // itself sends anonymous visitors to sign in.
      { path: 'newpage', element: company('RegisterCompanyPage'), handle: requiresAuth },
      {
        path: 'mail',
        children: [
          { index: true, element: login('MailLoginPage') },
          { path: 'create', element: login('MailCreatePage') },
          { path: 'recovery', element: login('MailRecoveryPage') },
        ],
      },
      {
        path: 'phone',
        children: [
          { index: true, element: login('PhoneLoginPage') },
          { path: 'verify/:phone', element: login('PhoneVerifyPage') },
        ],
      },
    ],
  },
  { path: 'emailVerification', element: login('EmailVerificationPage') },
];

/** /i/recent: the default app page; its children open beside the recent chats. */
const recentRoute: RouteObject = {
  path: 'recent',
  element: recentList('RecentLayout'),
  children: [
    { index: true, element: recentList('RecentHome') },
    { path: 'sales/:id', element: recent('SalePage') },
    { path: 'budget/:id', element: recent('BudgetPage') },
    { path: 'customers/:id', element: recent('CustomerPage') },
    { path: 'customers/edit', element: recent('CustomerEditPage') },
    {
      path: 'chat/:id',
      element: recent('ConversationPage'),
      children: [
        { path: 'reply', element: recent('ReplyPage') },
        { path: 'details', element: recent('ConversationDetailsPage') },
        { path: 'transfer', element: recent('TransferPage') },
        { path: 'timesheet', element: recent('TimesheetPage') },
        { path: 'addParticipants', element: recent('AddParticipantsPage') },
        { path: 'concluir', element: recent('ConcludePage') },
        { path: 'anotacoes', element: recent('AnnotationsPage') },
      ],
    },
    {
      path: 'chat/:atId/form/:empId/:formId',
      children: [
        { index: true, element: forms('ConversationFormPage') },
        { path: 'print', element: forms('ConversationFormPrintPage') },
      ],
    },
    { path: 'feeds/:id', element: feeds('FeedPage') },
    { path: 'feed/:id', element: feeds('PostPage') },
    { path: ':id/live', element: calls('LivePage') },
    { path: 'live/:id', element: calls('LivePage') },
    { path: 'schedule/:id', element: calendar('AppointmentPage') },
    { path: 'queue/:id', element: recent('QueuePage') },
    { path: 'meeting/:id', element: calls('MeetingPage') },
    { path: ':id/messageDetails/:idMessage', element: recent('MessageDetailsPage') },
    {
      path: 'chamadoVinculado/:idVincular/:domVincular',
      children: [
        { index: true, element: recent('LinkedTicketPage') },
        { path: ':emp', element: recent('LinkedTicketCompanyPage') },
        { path: ':emp/direct', element: recent('LinkedTicketRequestPage') },
      ],
    },
  ],
};

const settingsRoute: RouteObject = {
  path: 'settings',
  element: settings('SettingsLayout'),
  children: [
    { index: true, element: settings('SettingsHome') },
    { path: 'doctors', element: settings('DoctorsPage') },
    { path: 'doctors/:id', element: settings('DoctorPage') },
    { path: 'members', element: settings('MembersPage') },
    { path: 'members/:id', element: settings('MemberPage') },
    { path: 'companyCostumers', element: settings('ClientCompaniesPage') },
    { path: 'companyCostumers/edit/:id', element: settings('ClientCompanyEditPage') },
    { path: 'companyCostumers/add', element: settings('ClientCompanyAddPage') },
    { path: 'companyCostumers/clientsViewer', element: settings('ClientsViewerPage') },
    { path: 'queues', element: settings('QueuesPage') },
    { path: 'queues/:id', element: settings('QueueSettingsPage') },
    { path: 'groups', element: settings('GroupsPage') },
    { path: 'groups/:id', element: settings('GroupPage') },
    { path: 'forms', element: settings('FormsSettingsPage') },
    { path: 'replies', element: settings('SavedRepliesPage') },
    { path: 'products', element: settings('ProductsPage') },
    { path: 'telegram', element: settings('TelegramSettingsPage') },
    { path: 'whatsapp', element: settings('WhatsAppSettingsPage') },
    // Not a route of the spec: its "integrations" screen (by text group), for the e-mail integration.
    { path: 'integrations', element: settings('EmailIntegrationPage') },
    { path: 'widget', element: settings('WidgetSettingsPage') },
    { path: 'configCompany', element: settings('CompanyAccountPage') },
    { path: 'configCompany/edit_page', element: settings('CompanyPageEditPage') },
    { path: 'configCompany/greetings', element: settings('GreetingsPage') },
    { path: 'configCompany/contactUs', element: settings('ContactUsSettingsPage') },
  ],
};

/** The signed-in app, inside the side navigation. */
const appRoutes: RouteObject[] = [
  recentRoute,
  settingsRoute,
  {
    path: 'schedule',
    children: [
      { index: true, element: calendar('SchedulePage') },
      { path: 'edit', element: calendar('ScheduleEditPage') },
    ],
  },
  { path: 'kanbansla', element: dashboard('SlaBoardPage') },
  {
    path: 'calendar',
    children: [
      { index: true, element: calendar('CalendarPage') },
      { path: 'newMeeting', element: calendar('NewMeetingPage') },
      { path: 'editMeeting', element: calendar('EditMeetingPage') },
    ],
  },
  { path: 'dashboard', element: dashboard('DashboardPage') },
  { path: 'doctordash', element: dashboard('DoctorDashboardPage') },
  {
    path: 'recarga',
    children: [
      { index: true, element: credits('TopUpPage') },
      { path: 'historico', element: credits('StatementPage') },
      { path: 'operator', element: credits('OperatorPage'), handle: requiresAuth },
    ],
  },
  { path: 'settingsUser', element: account('UserSettingsPage'), handle: requiresAuth },
  { path: 'invites', element: account('InvitesPage') },
  { path: 'notifications', element: account('NotificationsPage'), handle: requiresAuth },
  { path: 'myAccount', element: account('MyAccountPage'), handle: requiresAuth },
  {
    path: 'optionsList',
    children: [
      { index: true, element: recent('OptionsListPage') },
      { path: 'newChat', element: recent('NewConversationPage') },
      { path: 'newLive', element: calls('NewLivePage') },
      { path: 'inviteLink', element: recent('InviteLinkPage') },
    ],
  },
  { path: 'selectCompany', element: account('SelectCompanyPage') },
  {
    path: 'notes',
    children: [
      { index: true, element: notes('NotesPage') },
      { path: ':id', element: notes('NotePage') },
    ],
  },
];

/** /:emp/... — a company's public pages (CompanyLayout refuses what cannot be a domain). */
const companyRoute: RouteObject = {
  path: ':emp',
  element: company('CompanyLayout'),
  children: [
    { index: true, element: company('CompanyHomePage') },
    { path: 'feeds/:feedId', element: feeds('FeedPage') },
    { path: 'whatsapp', element: company('CompanyWhatsAppPage') },
    { path: 'newc/:id', element: company('CompanyInvitationLinkPage') },
    { path: 'direct', element: company('DirectRequestPage') },
    { path: 'direct/queue/:queue', element: company('DirectQueuePage') },
    { path: 'faleconosco', element: company('ContactUsPage') },
    { path: 'consultation', element: telemedicine('ConsultationPage') },
    { path: 'book', element: calendar('BookPage') },
    { path: 'book/cancel/:id', element: calendar('CancelBookingPage') },
    { path: 'ticket/:id', element: company('TicketPage') },
    { path: 'chat/:id', element: company('CustomerChatPage') },
    { path: 'chat/:id/call/:channel', element: calls('CallPage') },
    { path: 'invite', element: company('JoinCompanyPage'), handle: { blockExempt: true } satisfies RouteHandle },
    { path: 'invitation', element: company('InvitationPage') },
    { path: 'wait', element: company('WaitApprovalPage') },
    { path: 'live/:id', element: calls('LivePage') },
    { path: 'call/:id', element: calls('CallPage') },
    { path: 'call/:id/:key', element: calls('CallPage') },
    { path: 'block', element: company('BlockedPage') },
  ],
};

export const routes: RouteObject[] = [
  // The embeddable widget's iframe (/widget.js): no app frame, its own anonymous session (embed.ts).
  { path: ':emp/widget', element: <Suspense fallback={<Spinner />}>{company('WidgetPage')}</Suspense>, errorElement: <RouteError /> },
  {
    element: <RootLayout />,
    children: [
      {
        // Inside the layout, so a failing screen keeps the header, language picker and footer.
        errorElement: <RouteError />,
        // Every screen passes the route guard first (it reads each route's RouteHandle).
        element: <AuthGuard />,
        children: [
          { index: true, element: home('LandingPage') },
          {
            path: 'i',
            children: [
              { index: true, element: <Navigate to="/i/recent" replace /> },
              ...loginRoutes,
              { path: 'forma/:id', element: forms('FormPage') },
              { path: 'form/:id', element: forms('FormAnswersPage') },
              {
                path: 'notify/telegram/:id',
                element: account('TelegramNotifyPage'),
                handle: { auth: true, standalone: true } satisfies RouteHandle,
              },
              { element: <AppLayout />, children: appRoutes },
            ],
          },
          companyRoute,
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
