import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { normalizePhone } from '../domain/phone';

import { IDENTITY_MESSAGES } from '../messages/identity';
export { IDENTITY_MESSAGES } from '../messages/identity';

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email({ message: IDENTITY_MESSAGES.invalidEmail }));
export const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH, IDENTITY_MESSAGES.passwordTooShort).max(200);
const nameSchema = z.string().trim().min(1, IDENTITY_MESSAGES.fillAllFields).max(120);

/** Where to continue after an e-mailed link: a path of this site, never another origin. */
export const redirectSchema = z.string().max(500).regex(/^\/(?!\/)/, 'Invalid redirect');

export const signUpInput = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    passwordConfirm: z.string().max(200),
    redirect: redirectSchema.optional(),
  })
  .refine((v) => v.password === v.passwordConfirm, { message: IDENTITY_MESSAGES.passwordsDiffer, path: ['passwordConfirm'] });

export const signInInput = z.object({ email: emailSchema, password: z.string().min(1, IDENTITY_MESSAGES.fillAllFields).max(200) });

export const guestInput = z.object({ name: nameSchema });

export const recoveryRequestInput = z.object({ email: emailSchema });
export const tokenSchema = z.string().min(20).max(128);
export const resetPasswordInput = z
  .object({ token: tokenSchema, password: passwordSchema, passwordConfirm: z.string().max(200) })
  .refine((v) => v.password === v.passwordConfirm, { message: IDENTITY_MESSAGES.passwordsDiffer, path: ['passwordConfirm'] });

export const phoneSchema = z
  .string()
  .max(32)
  .transform((v, ctx) => {
    const phone = normalizePhone(v);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: IDENTITY_MESSAGES.invalidPhone });
      return z.NEVER;
    }
    return phone;
  });
export const phoneCodeRequestInput = z.object({ phone: phoneSchema });
export const phoneCodeVerifyInput = z.object({ phone: phoneSchema, code: z.string().regex(/^\d{6}$/, IDENTITY_MESSAGES.invalidCode) });
/** Adding or changing the account's phone: the code sent to the new number proves it. */
export const phoneChangeRequestInput = phoneCodeRequestInput;
export const phoneChangeConfirmInput = phoneCodeVerifyInput;

export const PRESENCES = ['online', 'occupied', 'beRightBack', 'invisible'] as const;
export const accountUpdateInput = z.object({
  name: nameSchema.optional(),
  phone: z.union([phoneSchema, z.literal('')]).optional(),
  language: z.enum(['en', 'pt', 'es', 'it', 'de']).optional(),
  presence: z.enum(PRESENCES).optional(),
  settings: z
    .object({ playMessagensReceive: z.boolean(), playFila: z.boolean(), playNotificationFila: z.boolean() })
    .partial()
    .strict()
    .optional(),
});
