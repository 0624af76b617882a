import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export { CalendarPage } from './CalendarPage';
export { EditMeetingPage, NewMeetingPage } from './MeetingForm';
// Scheduled appointments (/i/schedule...).
export const SchedulePage = placeholderPage(msg`Appointments`);
export const ScheduleEditPage = placeholderPage(msg`Edit appointments`);
export const AppointmentPage = placeholderPage(msg`Appointment`);
