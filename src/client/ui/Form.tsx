import type { ReactNode } from 'react';
import { Button } from './Button';

/** A form-wide error, at the top of the form where the eye starts. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

/** A notice that something worked (e.g. "sent to …"). */
export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <p className="form-notice" role="status">
      {children}
    </p>
  );
}

/** The form's button: busy while its request runs, so a double click sends one request. */
export function SubmitButton({ pending, children, variant }: { pending: boolean; children: ReactNode; variant?: 'primary' | 'danger' }) {
  return (
    <Button type="submit" variant={variant} isPending={pending}>
      {children}
    </Button>
  );
}
