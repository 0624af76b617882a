export { AvailabilityPage as ScheduleEditPage } from './AvailabilityPage';
export { CalendarPage } from './CalendarPage';
export { EditMeetingPage, NewMeetingPage } from './MeetingForm';
export { BookPage, CancelBookingPage } from './PublicBooking';
// Scheduled appointments (/i/schedule, /i/schedule/edit, /i/recent/schedule/{id}).
export { AppointmentPage, SchedulePage } from './SchedulePages';
