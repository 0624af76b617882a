import { Check, MoreHorizontal, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  MenuTrigger,
  Popover,
  Separator,
  Tooltip,
  TooltipTrigger,
  type MenuItemProps as AriaMenuItemProps,
} from 'react-aria-components';
import { buttonClass, type ButtonVariant } from './Button';

/**
 * A button that opens a menu of actions (arrow keys move, Enter picks, Escape closes and focus
 * returns to the button). The trigger is an icon button (`icon`, '…' by default) named by
 * `label`, or a labelled button when `showLabel`.
 */
export function MenuButton({
  label,
  icon: Icon = MoreHorizontal,
  showLabel,
  variant = 'secondary',
  placement = 'bottom end',
  className,
  selectedKey,
  onSelect,
  children,
}: {
  label: string;
  /** A menu of choices (menuitemradio): the chosen item's id, and what picking one does. */
  selectedKey?: string;
  onSelect?: (key: string) => void;
  icon?: LucideIcon;
  showLabel?: boolean;
  variant?: ButtonVariant;
  placement?: 'bottom start' | 'bottom end' | 'top start' | 'top end';
  className?: string;
  children: ReactNode;
}) {
  const trigger = showLabel ? (
    <AriaButton className={buttonClass(variant, 'md', className)}>
      <Icon aria-hidden="true" />
      {label}
    </AriaButton>
  ) : (
    <TooltipTrigger delay={400} closeDelay={0}>
      <AriaButton aria-label={label} className={className ? `icon-button ${className}` : 'icon-button'}>
        <Icon aria-hidden="true" />
      </AriaButton>
      <Tooltip className="tooltip" offset={6}>
        {label}
      </Tooltip>
    </TooltipTrigger>
  );
  return (
    <MenuTrigger>
      {trigger}
      <Popover className="popover" placement={placement} offset={4}>
        <AriaMenu
          className="menu"
          aria-label={label}
          {...(onSelect
            ? {
                selectionMode: 'single' as const,
                disallowEmptySelection: true,
                selectedKeys: selectedKey ? [selectedKey] : [],
                onSelectionChange: (keys: 'all' | Set<unknown>) => {
                  const [key] = keys === 'all' ? [] : [...keys];
                  if (typeof key === 'string') onSelect(key);
                },
              }
            : {})}
        >
          {children}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}

/** One action of a menu: `onAction` runs it, `href` goes somewhere; `danger` for destructive ones. */
export function MenuItem({
  icon: Icon,
  danger,
  children,
  ...props
}: Omit<AriaMenuItemProps, 'className' | 'children'> & { icon?: LucideIcon; danger?: boolean; children: ReactNode }) {
  const text = typeof children === 'string' ? children : undefined;
  return (
    <AriaMenuItem {...props} textValue={props.textValue ?? text} className={danger ? 'menu-item menu-item-danger' : 'menu-item'}>
      {({ isSelected }) => (
        <>
          {Icon && <Icon aria-hidden="true" />}
          <span>{children}</span>
          {isSelected && <Check className="menu-item-check" aria-hidden="true" />}
        </>
      )}
    </AriaMenuItem>
  );
}

export function MenuSeparator() {
  return <Separator className="menu-separator" />;
}
