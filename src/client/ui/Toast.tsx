import { useLingui } from '@lingui/react/macro';
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { ShellButton, ShellIconButton } from './ShellButtons';

/**
 * Toasts: short notes that something happened, from anywhere (a component, a socket handler, a
 * mutation's onError): `toast.ok('Saved')`, `toast.error(message)`, `toast.show({...})`. One
 * <ToastRegion> (in RootLayout) shows them. A toast stays while hovered or focused, and danger
 * ones stay until dismissed unless given a timeout.
 *
 * Our own small queue rather than React Aria's: its toast API is still UNSTABLE_ and renders each
 * toast as an alertdialog, which interrupts more than a polite note should.
 */
export type ToastTone = 'info' | 'ok' | 'warn' | 'danger';

export interface ToastOptions {
  title?: string;
  message: ReactNode;
  tone?: ToastTone;
  /** Milliseconds before it goes away; 0 keeps it until dismissed. Default 5 s (danger: 8 s). */
  timeout?: number;
  /** One button in the toast (e.g. 'Open'); pressing it also closes the toast. */
  action?: { label: string; onAction: () => void };
  /** A toast with the same key replaces the earlier one instead of piling up. */
  key?: string;
}

export interface QueuedToast extends ToastOptions {
  id: number;
}

/** At most this many on screen; the oldest goes first. */
const MAX_VISIBLE = 4;

let toasts: QueuedToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

function show(options: ToastOptions): number {
  const id = nextId++;
  const rest = options.key ? toasts.filter((t) => t.key !== options.key) : toasts;
  toasts = [...rest, { ...options, id }].slice(-MAX_VISIBLE);
  emit();
  return id;
}

function dismiss(id: number) {
  const before = toasts.length;
  toasts = toasts.filter((t) => t.id !== id);
  if (toasts.length !== before) emit();
}

type Shortcut = (message: ReactNode, options?: Omit<ToastOptions, 'message' | 'tone'>) => number;
const withTone =
  (tone: ToastTone): Shortcut =>
  (message, options) =>
    show({ ...options, message, tone });

export const toast = {
  show,
  dismiss,
  info: withTone('info'),
  ok: withTone('ok'),
  warn: withTone('warn'),
  error: withTone('danger'),
  /** Removes every toast (tests, sign-out). */
  clear() {
    toasts = [];
    emit();
  },
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly QueuedToast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}

const ICONS = { info: Info, ok: CheckCircle2, warn: AlertTriangle, danger: XCircle };

/** Where toasts appear: mount once, near the root. */
export function ToastRegion() {
  const { t } = useLingui();
  const list = useToasts();
  return (
    <section className="toast-region" aria-label={t`Notices`}>
      {list.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </section>
  );
}

function ToastItem({ item }: { item: QueuedToast }) {
  const { t } = useLingui();
  const tone = item.tone ?? 'info';
  const Icon = ICONS[tone];
  const timeout = item.timeout ?? (tone === 'danger' ? 8000 : 5000);
  const paused = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const start = () => {
    clearTimeout(timer.current);
    if (timeout > 0 && !paused.current) timer.current = setTimeout(() => dismiss(item.id), timeout);
  };
  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // The timer belongs to this toast: it starts once, and again after a pause.
  }, []);
  const pause = () => {
    paused.current = true;
    clearTimeout(timer.current);
  };
  const resume = () => {
    paused.current = false;
    start();
  };

  return (
    <div
      className={`toast toast-${tone}`}
      // Errors interrupt; everything else waits for the screen reader to finish.
      role={tone === 'danger' ? 'alert' : 'status'}
      onMouseEnter={pause}
      onMouseLeave={resume}
      onFocus={pause}
      onBlur={resume}
    >
      <Icon className="toast-icon" aria-hidden="true" />
      <div className="toast-body">
        {item.title && <strong className="toast-title">{item.title}</strong>}
        <div>{item.message}</div>
        {item.action && (
          <ShellButton
            size="small"
            variant="secondary"
            className="toast-action"
            onClick={() => {
              item.action!.onAction();
              dismiss(item.id);
            }}
          >
            {item.action.label}
          </ShellButton>
        )}
      </div>
      <ShellIconButton label={t`Dismiss`} icon={X} onClick={() => dismiss(item.id)} />
    </div>
  );
}
