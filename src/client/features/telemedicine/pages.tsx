/** Telemedicine's screens, one lazily loaded chunk (the settings and dashboard chunks re-export theirs). */
export { ConsultationPage } from './ConsultationPage';
