import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const DashboardPage = placeholderPage(msg`Dashboard`);
export const DoctorDashboardPage = placeholderPage(msg`Doctor dashboard`);
export { SlaBoardPage } from '../service/SlaBoardPage';
