import { useLingui } from '@lingui/react/macro';
import { Monitor, Moon, Sun } from 'lucide-react';
import type { RefObject } from 'react';
import { Menu as AriaMenu, Popover } from 'react-aria-components';
import { MenuItem } from './Menu';
import { chooseTheme, isTheme, type Theme } from './theme';

/**
 * The theme menu that ThemeToggle opens: its own chunk, loaded when the button is pointed at,
 * focused or pressed, so React Aria's menu is not part of the first download. The same menu as
 * MenuButton's (arrow keys move, Enter picks, Escape closes, focus returns to the button).
 */
export default function ThemeMenu({ triggerRef, label, theme, onClose }: { triggerRef: RefObject<HTMLButtonElement | null>; label: string; theme: Theme; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Popover triggerRef={triggerRef} isOpen onOpenChange={(open) => !open && onClose()} className="popover" placement="bottom end" offset={4}>
      <AriaMenu
        className="menu"
        aria-label={label}
        autoFocus
        onClose={onClose}
        selectionMode="single"
        disallowEmptySelection
        selectedKeys={[theme]}
        onSelectionChange={(keys) => {
          const [key] = keys === 'all' ? [] : [...keys];
          if (isTheme(key)) chooseTheme(key);
          onClose();
        }}
      >
        <MenuItem id="system" icon={Monitor}>
          {t`As the device`}
        </MenuItem>
        <MenuItem id="light" icon={Sun}>
          {t`Light`}
        </MenuItem>
        <MenuItem id="dark" icon={Moon}>
          {t`Dark`}
        </MenuItem>
      </AriaMenu>
    </Popover>
  );
}
