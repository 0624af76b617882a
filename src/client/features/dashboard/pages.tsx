import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export { DashboardPage } from '../reports/DashboardPage';
export const DoctorDashboardPage = placeholderPage(msg`Doctor dashboard`);
export { SlaBoardPage } from '../service/SlaBoardPage';
