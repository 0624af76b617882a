import { z } from 'zod';
import { PERMISSION_KEYS, type Permission } from '../domain/profiles';

const permissionsSchema = z.strictObject(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<Permission, z.ZodBoolean>,
);

const profileFields = {
  name: z.string().trim().min(1, 'Fill in all fields').max(80),
  type: z.enum(['internal', 'admin']),
  queueIds: z.array(z.uuid()).max(200),
  permissions: permissionsSchema,
  reportProfiles: z.array(z.string().trim().min(1).max(10)).max(100),
};

export const createProfileInput = z.object({ ...profileFields, queueIds: profileFields.queueIds.default([]), reportProfiles: profileFields.reportProfiles.default([]) });
export const updateProfileInput = z.object({ profileId: z.uuid(), ...z.object(profileFields).partial().shape });
export const profileIdInput = z.object({ profileId: z.uuid() });

const additionalFieldFields = z.object({
  name: z.string().trim().min(1, 'Fill in all fields').max(80),
  /** The TAG that templates and integrations use: letters, digits, _ and -. */
  tag: z.string().trim().min(1, 'Fill in all fields').max(40).regex(/^[A-Za-z0-9_-]+$/, 'The TAG may only have letters, digits, _ and -'),
  multipleChoice: z.boolean().default(false),
  options: z.array(z.string().trim().min(1).max(120)).max(100).default([]),
});
const optionsRule = (v: { multipleChoice?: boolean; options?: string[] }) => !v.multipleChoice || (v.options?.length ?? 0) > 0;
const optionsIssue = { message: 'A multiple-choice field needs at least one option', path: ['options'] };

export const createAdditionalFieldInput = additionalFieldFields.refine(optionsRule, optionsIssue);
export const updateAdditionalFieldInput = additionalFieldFields.extend({ fieldId: z.uuid() }).refine(optionsRule, optionsIssue);
export const additionalFieldIdInput = z.object({ fieldId: z.uuid() });
