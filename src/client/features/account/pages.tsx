export { MyAccountPage, UserSettingsPage } from './AccountPages';
export { InvitesPage, SelectCompanyPage } from './CompaniesPages';
export { NotificationsPage } from '../notifications/NotificationsPage';
/** Links the attendant's Telegram to a company bot for their notifications; without the app shell. */
export { TelegramNotifyPage } from '../channels/TelegramNotifyPage';
