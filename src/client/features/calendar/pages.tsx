import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const CalendarPage = placeholderPage(msg`Calendar`);
export const NewMeetingPage = placeholderPage(msg`New meeting`);
export const EditMeetingPage = placeholderPage(msg`Edit meeting`);
// Scheduled appointments (/i/schedule...).
export const SchedulePage = placeholderPage(msg`Appointments`);
export const ScheduleEditPage = placeholderPage(msg`Edit appointments`);
export const AppointmentPage = placeholderPage(msg`Appointment`);
