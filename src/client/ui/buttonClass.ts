export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger';
export type ButtonSize = 'md' | 'small';

/** The kit's button look, for React Aria's buttons (Button.tsx) and the shell's native ones (ShellButtons.tsx). */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra?: string) {
  return ['button', variant !== 'primary' && `button-${variant}`, size === 'small' && 'button-small', extra].filter(Boolean).join(' ');
}
