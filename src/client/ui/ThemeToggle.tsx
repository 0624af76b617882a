import { useLingui } from '@lingui/react/macro';
import { Monitor, Moon, Sun } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { MenuButton, MenuItem } from './Menu';
import { chooseTheme, isTheme, storedTheme, subscribeTheme } from './theme';

/** Light, dark, or as the device is set: a menu in the header, remembered for the next visit. */
export function ThemeToggle() {
  const { t } = useLingui();
  const theme = useSyncExternalStore(subscribeTheme, storedTheme);
  const icon = theme === 'dark' ? Moon : theme === 'light' ? Sun : Monitor;
  return (
    <MenuButton label={t`Theme`} icon={icon} selectedKey={theme} onSelect={(key) => isTheme(key) && chooseTheme(key)}>
      <MenuItem id="system" icon={Monitor}>
        {t`As the device`}
      </MenuItem>
      <MenuItem id="light" icon={Sun}>
        {t`Light`}
      </MenuItem>
      <MenuItem id="dark" icon={Moon}>
        {t`Dark`}
      </MenuItem>
    </MenuButton>
  );
}
