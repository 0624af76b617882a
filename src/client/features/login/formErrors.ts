import { useLingui } from '@lingui/react';
import { useCallback, useMemo, useState } from 'react';
import { z } from 'zod';
import { IDENTITY_MESSAGES as M } from '../../../shared/schemas/identity';
import { translateServerMessage } from '../../guard/serverMessages';

/** Which field a server refusal is about, so it shows next to that field rather than on top. */
const FIELD_OF_MESSAGE: Record<string, string> = {
  [M.invalidEmail]: 'email',
  [M.emailInUse]: 'email',
  [M.userNotFound]: 'email',
  [M.invalidPassword]: 'password',
  [M.passwordTooShort]: 'password',
  [M.passwordsDiffer]: 'passwordConfirm',
  [M.invalidPhone]: 'phone',
  [M.invalidCode]: 'code',
  [M.codeExpired]: 'code',
};

export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  form: string | null;
}

/**
 * A form's errors, from checking its values with the server's own zod schema (so both sides say the
 * same thing) and from the server's answer; all translated.
 */
export function useFormErrors<F extends string>(fieldNames: readonly F[]) {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {}, form: null });

  const fromIssues = useCallback(
    (issues: Record<string, string[] | undefined>, fallback: string | null): FormErrors<F> => {
      const fields: Partial<Record<F, string>> = {};
      let form: string | null = null;
      for (const [name, messages] of Object.entries(issues)) {
        const first = messages?.[0];
        if (!first) continue;
        if ((fieldNames as readonly string[]).includes(name)) fields[name as F] = translateServerMessage(i18n, first);
        else form ??= translateServerMessage(i18n, first);
      }
      if (!form && Object.keys(fields).length === 0 && fallback) form = translateServerMessage(i18n, fallback);
      return { fields, form };
    },
    [fieldNames, i18n],
  );

  /** The parsed values when valid; otherwise shows why and answers null. */
  const validate = useCallback(
    <S extends z.ZodType>(schema: S, values: unknown): z.output<S> | null => {
      const result = schema.safeParse(values);
      if (result.success) {
        setErrors({ fields: {}, form: null });
        return result.data;
      }
      const flat = z.flattenError(result.error);
      setErrors(fromIssues(flat.fieldErrors as Record<string, string[]>, flat.formErrors[0] ?? null));
      return null;
    },
    [fromIssues],
  );

  const showServerError = useCallback(
    (error: { message: string; data?: { fieldErrors?: Record<string, string[] | undefined> } | null }) => {
      const fieldErrors = error.data?.fieldErrors;
      if (fieldErrors && Object.keys(fieldErrors).length > 0) {
        setErrors(fromIssues(fieldErrors, error.message));
        return;
      }
      const field = FIELD_OF_MESSAGE[error.message];
      const text = translateServerMessage(i18n, error.message);
      setErrors(
        field && (fieldNames as readonly string[]).includes(field)
          ? { fields: { [field]: text } as Partial<Record<F, string>>, form: null }
          : { fields: {}, form: text },
      );
    },
    [fieldNames, fromIssues, i18n],
  );

  const clear = useCallback(() => setErrors({ fields: {}, form: null }), []);
  return useMemo(() => ({ errors, validate, showServerError, clear }), [errors, validate, showServerError, clear]);
}
