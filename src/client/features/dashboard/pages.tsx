export { DashboardPage } from '../reports/DashboardPage';
export { DoctorDashboardPage } from '../telemedicine/DoctorDashboardPage';
export { SlaBoardPage } from '../service/SlaBoardPage';
