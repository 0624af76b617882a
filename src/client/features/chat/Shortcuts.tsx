import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
// Deferred: this help is the only modal of the shell, and React Aria is not in the first download.
import { Button, ModalDialog } from '../../ui/deferred';
import { useRecentsList } from './ChatProvider';

/**
 * The desk's keyboard shortcuts. Actions that belong to a control on screen (take, conclude,
 * transfer, search) press the control marked `data-shortcut="<name>"`, so a shortcut does
 * exactly what the button does, with its rules and confirmation, and nothing when the button is
 * not there. Letters work when no text field has the focus; Alt+arrows work everywhere.
 */
const SHORTCUTS: readonly { keys: string[]; label: MessageDescriptor }[] = [
  { keys: ['Alt', '↓'], label: msg`Next conversation` },
  { keys: ['Alt', '↑'], label: msg`Previous conversation` },
  { keys: ['J'], label: msg`Next conversation` },
  { keys: ['K'], label: msg`Previous conversation` },
  { keys: ['/'], label: msg`Search conversations` },
  { keys: ['Q'], label: msg`Go to the queue` },
  { keys: ['T'], label: msg`Take (the first request in the queue, or this one)` },
  { keys: ['C'], label: msg`Conclude this service` },
  { keys: ['R'], label: msg`Transfer this service` },
  { keys: ['N'], label: msg`New chat` },
  { keys: ['?'], label: msg`Show these shortcuts` },
];

export const SHOW_SHORTCUTS_EVENT = 'desk:shortcuts';

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Presses the control marked for a shortcut, if one is on screen and enabled. */
function press(name: string): boolean {
  const control = document.querySelector<HTMLElement>(`[data-shortcut="${name}"]:not([disabled])`);
  if (!control) return false;
  if (name === 'search') control.focus();
  else control.click();
  return true;
}

export function DeskShortcuts() {
  const [help, setHelp] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const recents = useRecentsList();

  useEffect(() => {
    const ids = (recents.data?.pages ?? []).flatMap((p) => p.items.map((i) => i.conversationId));
    const current = /^\/i\/recent\/chat\/([^/]+)/.exec(pathname)?.[1];
    const step = (by: number) => {
      if (!ids.length) return;
      const at = current ? ids.indexOf(current) : -1;
      const next = ids[Math.max(0, Math.min(ids.length - 1, at < 0 ? 0 : at + by))]!;
      if (next !== current) void navigate(`/i/recent/chat/${next}`);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey) return;
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        step(e.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      // Letters never steal typing, nor act behind an open dialog.
      if (e.altKey || typingIn(e.target) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const act: Record<string, () => unknown> = {
        j: () => step(1),
        k: () => step(-1),
        '/': () => press('search') || navigate('/i/recent', { state: { focusSearch: true } }),
        q: () => navigate('/i/recent/queue/all'),
        t: () => press('take'),
        c: () => press('conclude'),
        r: () => press('transfer'),
        n: () => navigate('/i/optionsList/newChat'),
        '?': () => setHelp(true),
      };
      const action = act[e.key.toLowerCase()];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [recents.data, pathname, navigate]);

  // The help's button (the conversation list's head) asks through the window, wherever it is.
  useEffect(() => {
    const open = () => setHelp(true);
    window.addEventListener(SHOW_SHORTCUTS_EVENT, open);
    return () => window.removeEventListener(SHOW_SHORTCUTS_EVENT, open);
  }, []);

  return help ? <ShortcutsHelp onClose={() => setHelp(false)} /> : null;
}

function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <ModalDialog
      title={t`Keyboard shortcuts`}
      onCancel={onClose}
      actions={
        <Button autoFocus onPress={onClose}>
          <Trans>Close</Trans>
        </Button>
      }
    >
      <table className="shortcuts-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys.join('+') + s.label.id}>
              <th scope="row">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' + '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{i18n._(s.label)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ModalDialog>
  );
}
