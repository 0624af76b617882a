import { useLingui } from '@lingui/react/macro';
import { Monitor, Moon, Sun } from 'lucide-react';
import { lazy, Suspense, useRef, useState, useSyncExternalStore } from 'react';
import { ShellIconButton } from './ShellButtons';
import { storedTheme, subscribeTheme } from './theme';

const loadMenu = () => import('./ThemeMenu');
const ThemeMenu = lazy(loadMenu);

/**
 * Light, dark, or as the device is set: a menu in the header, remembered for the next visit.
 * The button is the shell's native one; the menu (React Aria) loads when the button is pointed
 * at or focused, and opens on Enter, Space, click or the down arrow.
 */
export function ThemeToggle() {
  const { t } = useLingui();
  const theme = useSyncExternalStore(subscribeTheme, storedTheme);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const icon = theme === 'dark' ? Moon : theme === 'light' ? Sun : Monitor;
  return (
    <>
      <ShellIconButton
        ref={trigger}
        label={t`Theme`}
        icon={icon}
        tooltipPlacement="bottom"
        aria-haspopup="menu"
        aria-expanded={open}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      />
      {open && (
        <Suspense fallback={null}>
          <ThemeMenu triggerRef={trigger} label={t`Theme`} theme={theme} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
