import { z } from 'zod';
import { DOMAIN_PATTERN } from '../domain/domain-name';
import { DOMAIN_MAX_LENGTH, DOMAIN_MIN_LENGTH, LOCALES } from '../constants';

/** dominio: the tenant key. 3 to 15 lowercase letters or digits, no spaces (spec 5). */
export const domainSchema = z
  .string()
  .trim()
  .regex(
    DOMAIN_PATTERN,
    `The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`,
  );

export const companyInput = z.object({ domain: domainSchema });

import { COMPANY_MESSAGES } from '../messages/company';
export { COMPANY_MESSAGES } from '../messages/company';

export const companyNameSchema = z.string().trim().min(1, COMPANY_MESSAGES.fillAllFields).max(80);
const bioSchema = z.string().trim().max(1000);

export const checkDomainInput = z.object({ domain: domainSchema });
export const registerCompanyInput = z.object({
  domain: domainSchema,
  name: companyNameSchema,
  bio: bioSchema.optional(),
  /** The admin's interface language: the company's starting texts are written in it. */
  language: z.enum(LOCALES).optional(),
});
/** Asking to join: names the company it wants to enter (callable by non-members, see procedures.ts). */
export const joinCompanyInput = z.object({ domain: domainSchema });

export const contactUsFieldSchema = z.object({
  key: z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/),
  label: z.string().trim().min(1).max(80),
  required: z.boolean(),
  validateEmail: z.boolean(),
  readOnly: z.boolean(),
  minSize: z.number().int().min(0).max(10_000),
  maxSize: z.number().int().min(1).max(10_000),
}).refine((f) => f.minSize <= f.maxSize, { message: 'The minimum size cannot exceed the maximum', path: ['minSize'] });

export const contactUsInput = z.object({
  name: z.string().trim().min(1, COMPANY_MESSAGES.fillAllFields).max(80),
  pageTitle: z.string().trim().max(120),
  blocked: z.boolean(),
  defaultQueueKey: z.string().trim().min(1).max(60),
  fields: z.array(contactUsFieldSchema).max(40).refine((fs) => new Set(fs.map((f) => f.key)).size === fs.length, 'Field keys must be unique'),
});

export const publicPageInput = z.object({
  name: companyNameSchema,
  bio: bioSchema.default(''),
  website: z.string().trim().max(300).optional().nullable(),
  /** network -> handle or URL; empty values are dropped on save. */
  socialNetworks: z.record(z.string().trim().min(1).max(40), z.string().max(300).nullable()).default({}),
});

export const callSettingsInput = z.object({ allowCallRecording: z.boolean() });

export const greetingInput = z.object({ greeting: z.string().trim().min(1, COMPANY_MESSAGES.fillAllFields).max(1500) });

export const clientInviteInput = z.object({ clientDomain: domainSchema, email: z.string().trim().toLowerCase().max(254).pipe(z.email({ message: 'Invalid email' })) });
export const clientAcceptInput = z.object({ originDomain: domainSchema });
export const clientRemoveInput = z.object({ clientDomain: domainSchema });
