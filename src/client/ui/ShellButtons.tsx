import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from './buttonClass';

/**
 * The light buttons of what the first page of the signed-in app shows (header, side navigation,
 * recent chats, toasts): native <button>s with the kit's look, keyboard and focus of the browser.
 * They keep React Aria (~95 KiB gzip) out of the first download (issue 22, target 6); screens use
 * `Button` / `IconButton`. `onClick` instead of `onPress`; `isPending` says it is busy and ignores
 * clicks while it stays focusable, as `Button` does.
 */
type NativeProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'children'>;

export function ShellButton({
  variant,
  size,
  icon: Icon,
  className,
  children,
  isPending,
  onClick,
  ref,
  ...props
}: NativeProps & { variant?: ButtonVariant; size?: ButtonSize; icon?: LucideIcon; className?: string; children?: ReactNode; isPending?: boolean; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type="button"
      {...props}
      ref={ref}
      aria-busy={isPending || undefined}
      className={buttonClass(variant, size, className)}
      onClick={(event) => {
        if (!isPending) onClick?.(event);
      }}
    >
      {isPending ? <span className="button-busy" aria-hidden="true" /> : Icon && <Icon aria-hidden="true" />}
      {children}
    </button>
  );
}

/**
 * An icon-only native button: `label` is its accessible name and its tooltip, which CSS shows on
 * hover and on keyboard focus (styles/overlays.css, `.shell-tip`).
 */
export function ShellIconButton({
  label,
  icon: Icon,
  className,
  danger,
  tooltipPlacement = 'top',
  ref,
  ...props
}: NativeProps & { label: string; icon: LucideIcon; className?: string; danger?: boolean; tooltipPlacement?: 'top' | 'bottom'; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      type="button"
      {...props}
      ref={ref}
      aria-label={label}
      className={['icon-button', 'shell-tip-anchor', danger && 'icon-button-danger', className].filter(Boolean).join(' ')}
    >
      <Icon aria-hidden="true" />
      <span className={`tooltip shell-tip shell-tip-${tooltipPlacement}`} aria-hidden="true">
        {label}
      </span>
    </button>
  );
}
