import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export { MyAccountPage, UserSettingsPage } from './AccountPages';
export { InvitesPage, SelectCompanyPage } from './CompaniesPages';
export { NotificationsPage } from '../notifications/NotificationsPage';
/** Links a Telegram chat to the user's notifications; opened from Telegram, without the app shell. */
export const TelegramNotifyPage = placeholderPage(msg`Telegram notifications`);
