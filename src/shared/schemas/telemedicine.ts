import { z } from 'zod';
import { BRAZILIAN_UFS, CRM_PATTERN, ENROLMENT_STATUSES } from '../domain/telemedicine';
import { domainSchema } from './company';

/** Texts of telemedicine beyond the spec's three (ENROLMENT_ERRORS). */
export const TELEMEDICINE_MESSAGES = {
  notTelemedicine: 'This company does not offer consultations',
  enrolmentNotFound: 'Enrolment not found',
  notAllowedMove: 'This enrolment cannot change to that status',
  notDoctor: 'Only an approved doctor can do this',
  offline: 'Go online to take patients',
  busy: 'Finish your current consultation first',
  nobodyWaiting: 'No patient is waiting',
  consultationNotFound: 'Consultation not found',
  notYourConsultation: 'Only the doctor of this consultation can do this',
  notInProgress: 'This consultation is not in progress',
  notWaiting: 'This consultation is no longer waiting',
  noDocument: 'No document was sent with this enrolment',
  documentLocked: 'The document can only be sent while the enrolment waits for approval',
  notPatient: 'Only the patient can do this',
} as const;

const enrolmentIdSchema = z.string().trim().min(4).max(20).regex(/^\d{1,10}\|[A-Z]{2}$/, 'Invalid enrolment id');

export const enrolInput = z.object({
  domain: domainSchema,
  crm: z.string().trim().regex(CRM_PATTERN, 'CRM: digits only'),
  uf: z.enum(BRAZILIAN_UFS),
  prefix: z.string().trim().max(20).default(''),
  speciality: z.string().trim().min(1).max(100),
  global: z.boolean().default(false),
});

export const enrolmentsInput = z.object({ domain: domainSchema, status: z.enum(ENROLMENT_STATUSES).optional() });
export const enrolmentInput = z.object({ domain: domainSchema, enrolmentId: enrolmentIdSchema });
/** status is optional in the shape so its absence gets the spec's text, not a zod one. */
export const setStatusInput = z.object({ domain: domainSchema, enrolmentId: enrolmentIdSchema, status: z.enum(ENROLMENT_STATUSES).optional() });
export const documentInput = z.object({ enrolmentId: enrolmentIdSchema });
export const configureInput = z.object({ domain: domainSchema, enabled: z.boolean(), acceptsGlobalDoctors: z.boolean() });
export const consultationInput = z.object({ consultationId: z.uuid() });
export const requestConsultationInput = z.object({ domain: domainSchema, name: z.string().trim().min(1).max(100).optional() });
export const noteInput = z.object({ consultationId: z.uuid(), text: z.string().trim().min(1).max(5000) });
export const consentInput = z.object({ consultationId: z.uuid(), consent: z.boolean() });
export const offeredInput = z.object({ domain: domainSchema });
export const callConsentInput = z.object({ callId: z.uuid() });
export const onlineInput = z.object({ online: z.boolean() });
export const uploadDocumentQuery = z.object({ name: z.string().trim().min(1).max(200) });
