import { z } from 'zod';
import { CONTACT_LIMITS } from '../domain/contacts';
import { domainSchema } from './company';

const id = z.uuid();
const inCompany = { domain: domainSchema };

/** What the contact form sends; the rules (e-mail, phone, additional fields) are checkContact's. */
const contactFields = {
  name: z.string().max(CONTACT_LIMITS.name * 2),
  email: z.string().max(CONTACT_LIMITS.email * 2).nullable().default(null),
  phone: z.string().max(60).nullable().default(null),
  organization: z.string().max(CONTACT_LIMITS.organization * 2).default(''),
  fields: z.record(z.string().max(60), z.string().max(CONTACT_LIMITS.field * 2)).default({}),
  tags: z.array(z.string().max(CONTACT_LIMITS.tag * 2)).max(CONTACT_LIMITS.tags * 2).default([]),
  notes: z.string().max(CONTACT_LIMITS.notes * 2).default(''),
};

export const contactsListInput = z.object({
  ...inCompany,
  q: z.string().trim().max(100).optional(),
  tag: z.string().trim().max(CONTACT_LIMITS.tag).optional(),
  cursor: id.optional(),
  limit: z.number().int().min(1).max(100).default(50),
});
export const contactInput = z.object({ ...inCompany, contactId: id });
/** The customer of a service conversation, beside it: their contact and their other requests. */
export const customerHistoryInput = z.object({ ...inCompany, userId: id, exceptConversationId: id.optional() });
export const contactCreateInput = z.object({ ...inCompany, ...contactFields });
export const contactUpdateInput = z.object({ ...inCompany, contactId: id, ...contactFields });
/** Keeps `keepId`, folds `mergeId` into it and removes it. */
export const contactMergeInput = z.object({ ...inCompany, keepId: id, mergeId: id });
export const contactImportInput = z.object({ ...inCompany, importId: id });
/** PUT /uploads/contacts/:domain/import?name= — the CSV as the raw body. */
export const contactImportQuery = z.object({ name: z.string().min(1).max(255).default('contacts.csv') });
