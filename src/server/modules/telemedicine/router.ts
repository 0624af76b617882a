/**
 * Telemedicine (/i/settings/doctors, /i/settings/doctors/{id}, /i/doctordash).
 * Company admins (domain): settings, configure, enrolments, enrolment, setStatus, accessLog.
 * Anyone signed in, towards a company by domain (participant level, like customer.request):
 *   enrol m {domain, crm, uf, prefix, speciality, global} -> the enrolment (WAITING_APROVATION)
 *   request m {domain, name?} -> the patient's consultation, its place and estimated wait
 * Public: offered {domain} (the company's page shows the way in). The person's own: mine, document {enrolmentId}; doctors: setOnline, dashboard, takeNext, callAgain, end;
 * the consultation's doctor and patient: consultation, leave, consent, notes, addNote, recordings,
 * transcript (every read of health data is logged).
 *   PUT /uploads/doctor/:enrolmentId?name=  raw body: the CRM document (pathCRM)
 * Socket: telemedicine:position, telemedicine:changed, telemedicine:presence.
 */
import {
  callConsentInput,
  configureInput,
  consentInput,
  consultationInput,
  documentInput,
  enrolInput,
  enrolmentInput,
  enrolmentsInput,
  noteInput,
  offeredInput,
  onlineInput,
  requestConsultationInput,
  setStatusInput,
} from '../../../shared/schemas/telemedicine';
import { adminProcedure, authedProcedure, memberProcedure, participantProcedure, publicProcedure, router } from '../../trpc';
import * as enrolment from './enrolment';
import * as health from './health-data';
import * as tele from './service';

export const telemedicineRouter = router({
  settings: memberProcedure.query(({ ctx }) => tele.companySettings(ctx)),
  configure: adminProcedure.input(configureInput).mutation(({ ctx, input }) => tele.configure(ctx, input)),
  enrolments: adminProcedure.input(enrolmentsInput).query(({ ctx, input }) => enrolment.listEnrolments(ctx, input.status)),
  enrolment: adminProcedure.input(enrolmentInput).query(({ ctx, input }) => enrolment.getEnrolment(ctx, input.enrolmentId)),
  setStatus: adminProcedure.input(setStatusInput).mutation(({ ctx, input }) => enrolment.setStatus(ctx, input)),
  accessLog: adminProcedure.query(({ ctx }) => health.accessLog(ctx)),

  enrol: participantProcedure.meta({ rate: 'joinRequests' }).input(enrolInput).mutation(({ ctx, input }) => enrolment.enrol(ctx, ctx.user, input)),
  request: participantProcedure.meta({ rate: 'conversations' }).input(requestConsultationInput).mutation(({ ctx, input }) => tele.requestConsultation(ctx, ctx.user, input)),

  offered: publicProcedure.input(offeredInput).query(({ ctx, input }) => tele.offered(ctx, input.domain)),
  mine: authedProcedure.query(({ ctx }) => enrolment.myEnrolments(ctx, ctx.user)),
  document: authedProcedure.input(documentInput).query(({ ctx, input }) => enrolment.documentLink(ctx, ctx.user, input.enrolmentId)),
  setOnline: authedProcedure.meta({ rate: 'presence' }).input(onlineInput).mutation(({ ctx, input }) => tele.setOnline(ctx, ctx.user, input.online)),
  dashboard: authedProcedure.query(({ ctx }) => tele.dashboard(ctx, ctx.user)),
  takeNext: authedProcedure.mutation(({ ctx }) => tele.takeNext(ctx, ctx.user)),
  callAgain: authedProcedure.input(consultationInput).mutation(({ ctx, input }) => tele.callAgain(ctx, ctx.user, input.consultationId)),
  end: authedProcedure.input(consultationInput).mutation(({ ctx, input }) => tele.endConsultation(ctx, ctx.user, input.consultationId)),

  consultation: authedProcedure.input(consultationInput).query(({ ctx, input }) => tele.getConsultation(ctx, ctx.user, input.consultationId)),
  leave: authedProcedure.input(consultationInput).mutation(({ ctx, input }) => tele.leaveQueue(ctx, ctx.user, input.consultationId)),
  callConsent: participantProcedure.input(callConsentInput).query(({ ctx, input }) => tele.callConsent(ctx, ctx.user, input.callId)),
  consent: authedProcedure.input(consentInput).mutation(({ ctx, input }) => tele.setRecordingConsent(ctx, ctx.user, input.consultationId, input.consent)),
  notes: authedProcedure.input(consultationInput).query(({ ctx, input }) => health.listNotes(ctx, ctx.user, input.consultationId)),
  addNote: authedProcedure.input(noteInput).mutation(({ ctx, input }) => health.addNote(ctx, ctx.user, input.consultationId, input.text)),
  recordings: authedProcedure.input(consultationInput).query(({ ctx, input }) => health.recordings(ctx, ctx.user, input.consultationId)),
  transcript: authedProcedure.input(consultationInput).query(({ ctx, input }) => health.transcript(ctx, ctx.user, input.consultationId)),
});
