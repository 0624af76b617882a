import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Link as AriaLink,
  Tooltip,
  TooltipTrigger,
  type ButtonProps as AriaButtonProps,
} from 'react-aria-components';
import { Link, useHref, type LinkProps, type RelativeRoutingType } from 'react-router-dom';
import { buttonClass, type ButtonSize, type ButtonVariant } from './buttonClass';

export { buttonClass, type ButtonSize, type ButtonVariant };

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children' | 'style'> {
  /** primary: the one thing to do here; secondary; quiet: in toolbars and rows; danger: destroys something. */
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A lucide icon before the label. */
  icon?: LucideIcon;
  className?: string;
  children?: ReactNode;
}

/**
 * The app's button (React Aria: press, keyboard and focus handled alike everywhere). `isPending`
 * keeps it focusable, says it is busy and ignores presses: a double click sends one request.
 */
export function Button({ variant, size, icon: Icon, className, children, isPending, ...props }: ButtonProps) {
  return (
    <AriaButton {...props} isPending={isPending} aria-busy={isPending || undefined} className={buttonClass(variant, size, className)}>
      {isPending ? <span className="button-busy" aria-hidden="true" /> : Icon && <Icon aria-hidden="true" />}
      {children}
    </AriaButton>
  );
}

/** A link (it goes somewhere) that looks like a button. */
export function ButtonLink({
  variant,
  size,
  icon: Icon,
  className,
  children,
  ...props
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize; icon?: LucideIcon }) {
  return (
    <Link {...props} className={buttonClass(variant, size, typeof className === 'string' ? className : undefined)}>
      {Icon && <Icon aria-hidden="true" />}
      {children}
    </Link>
  );
}

interface IconButtonBase {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: LucideIcon;
  className?: string;
  danger?: boolean;
  /** Where the tooltip goes; 'top' by default. */
  tooltipPlacement?: 'top' | 'bottom' | 'start' | 'end';
}

/** An icon-only button: its label is its accessible name and its tooltip (hover or keyboard focus). */
export function IconButton({ label, icon: Icon, className, danger, tooltipPlacement = 'top', ...props }: IconButtonBase & Omit<AriaButtonProps, 'className' | 'children' | 'style'>) {
  return (
    <TooltipTrigger delay={400} closeDelay={0}>
      <AriaButton {...props} aria-label={label} className={['icon-button', danger && 'icon-button-danger', className].filter(Boolean).join(' ')}>
        <Icon aria-hidden="true" />
      </AriaButton>
      <Tooltip className="tooltip" placement={tooltipPlacement} offset={6}>
        {label}
      </Tooltip>
    </TooltipTrigger>
  );
}

/** An icon-only link (router paths, relative ones too), with the same tooltip. */
export function IconLink({
  label,
  icon: Icon,
  className,
  danger,
  tooltipPlacement = 'top',
  to,
  relative,
}: IconButtonBase & { to: string; relative?: RelativeRoutingType }) {
  const href = useHref(to, { relative });
  return (
    <TooltipTrigger delay={400} closeDelay={0}>
      <AriaLink href={href} aria-label={label} className={['icon-button', danger && 'icon-button-danger', className].filter(Boolean).join(' ')}>
        <Icon aria-hidden="true" />
      </AriaLink>
      <Tooltip className="tooltip" placement={tooltipPlacement} offset={6}>
        {label}
      </Tooltip>
    </TooltipTrigger>
  );
}
