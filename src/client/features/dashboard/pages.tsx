import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const DashboardPage = placeholderPage(msg`Dashboard`);
export { DoctorDashboardPage } from '../telemedicine/DoctorDashboardPage';
export { SlaBoardPage } from '../service/SlaBoardPage';
