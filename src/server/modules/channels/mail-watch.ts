/**
 * Keeps every enabled mailbox (plan `intmail`) watched: one IMAP connection per mailbox sits in
 * IDLE on the INBOX, and the server's EXISTS notice starts an import at once. The poll every
 * MAIL_POLL_MS stays as the fallback (a server without IDLE, a notice lost while reconnecting).
 * Each mailbox has its own connection and its own import chain, so a slow server delays only its
 * own mail. A dropped connection is opened again after 0.5 s, 1 s, 2 s … up to 5 min, and the
 * first import after it catches up on what arrived meanwhile. Every instance watches; the
 * Message-ID record (mailbox.ts) keeps a mail from being imported twice.
 */
import type { ImapFlow } from 'imapflow';
import type { AppDeps } from '../../deps';
import { planIncludes } from '../../../shared/domain/company';
import { imapClient, mailConnectionOf, type MailServer } from './email';
import { pollMailbox } from './mailbox';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger'>;

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5 * 60_000;

/** What the watcher of one mailbox is doing (read by tests and logs). */
export interface WatchState {
  idle: boolean;
  /** An import pass is running. */
  importing: boolean;
  /** How many times its IMAP connection was opened. */
  connections: number;
  imports: number;
}
const states = new Map<string, WatchState>();
export const mailWatchState = (settingId: string): WatchState | undefined => states.get(settingId);

/** Started watchers in this process: a saved setting asks them to look again at once. */
const running = new Set<{ refresh(): Promise<void> }>();
export function nudgeMailWatchers() {
  for (const r of running) void r.refresh();
}

function idleClient(s: MailServer) {
  return imapClient(s, {
    // IDLE is re-issued every 4 min (servers drop idle sessions after 30), well inside the socket watchdog.
    socketTimeout: 5 * 60_000,
    maxIdleTime: 4 * 60_000,
    // This connection does nothing but wait: IDLE right after the INBOX is opened.
    autoIdleDelay: 100,
  });
}

interface Box {
  id: string;
  /** The row's updatedAt: a save changes it (the cursor update does not), and the watcher starts over. */
  version: number;
  state: WatchState;
  chain: Promise<void> | null;
  again: boolean;
  stop(): void;
}

export function startMailWatch(deps: Deps): { stop(): Promise<void>; refresh(): Promise<void> } {
  let stopped = false;
  const boxes = new Map<string, Box>();

  /** One import at a time per mailbox; a notice during an import runs one more pass after it. */
  const importNow = (box: Box): Promise<void> => {
    if (box.chain) {
      box.again = true;
      return box.chain;
    }
    box.state.importing = true;
    box.chain = (async () => {
      do {
        box.again = false;
        try {
          box.state.imports += await pollMailbox(deps, box.id);
        } catch (err) {
          deps.logger.warn({ err, settingId: box.id }, 'mailbox import failed');
        }
      } while (box.again && !stopped);
    })().finally(() => {
      box.chain = null;
      box.state.importing = false;
    });
    return box.chain;
  };

  const watch = (box: Box, setting: Parameters<typeof mailConnectionOf>[1], companyName: string) => {
    let current: ImapFlow | null = null;
    let timer: NodeJS.Timeout | undefined;
    let attempt = 0;
    let ended = false;
    const retry = () => {
      if (ended || stopped || timer) return;
      const delay = Math.min(FIRST_RETRY_MS * 2 ** attempt++, MAX_RETRY_MS);
      timer = setTimeout(() => {
        timer = undefined;
        void open();
      }, delay);
    };
    const open = async () => {
      if (ended || stopped) return;
      const client = idleClient(mailConnectionOf(deps.config, setting, companyName).imap);
      current = client;
      // Events of a connection given up on (a late 'close') must not start a second one.
      const mine = () => current === client && !ended;
      client.on('error', (err: unknown) => deps.logger.debug({ err, settingId: box.id }, 'mailbox connection error'));
      client.on('exists', (d: { count: number; prevCount: number }) => {
        if (mine() && d.count > d.prevCount) void importNow(box);
      });
      client.on('close', () => {
        if (!mine()) return;
        box.state.idle = false;
        retry();
      });
      try {
        await client.connect();
        await client.mailboxOpen('INBOX');
        if (!mine()) return void client.close();
        attempt = 0;
        box.state.connections++;
        box.state.idle = true;
        // Whatever arrived while nobody was watching.
        void importNow(box);
      } catch (err) {
        deps.logger.warn({ err, settingId: box.id }, 'mailbox watch could not connect');
        client.close();
        if (mine()) retry();
      }
    };
    box.stop = () => {
      ended = true;
      clearTimeout(timer);
      box.state.idle = false;
      current?.close();
      current = null;
    };
    void open();
  };

  /** Starts watchers for new or changed mailboxes, ends those switched off, removed or off the plan. */
  const refreshOnce = async () => {
    if (stopped) return;
    const settings = await deps.db.channelSetting.findMany({ where: { channel: 'email', enabled: true }, include: { company: { select: { name: true, plan: true } } } });
    const wanted = settings.filter((s) => planIncludes(s.company.plan, 'intmail'));
    const ids = new Set(wanted.map((s) => s.id));
    for (const [id, box] of boxes) {
      const s = wanted.find((w) => w.id === id);
      if (!ids.has(id) || s!.updatedAt.getTime() !== box.version) {
        box.stop();
        boxes.delete(id);
        states.delete(id);
      }
    }
    for (const s of wanted) {
      if (stopped || boxes.has(s.id)) continue;
      const state: WatchState = { idle: false, importing: false, connections: 0, imports: 0 };
      const box: Box = { id: s.id, version: s.updatedAt.getTime(), state, chain: null, again: false, stop: () => undefined };
      boxes.set(s.id, box);
      states.set(s.id, state);
      watch(box, s, s.company.name);
    }
  };

  // One refresh at a time: an older read finishing last would bring back a replaced setting.
  let refreshing: Promise<void> = Promise.resolve();
  const refresh = () => (refreshing = refreshing.then(refreshOnce, refreshOnce));

  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await refresh();
      // The fallback poll: every mailbox on its own, none waits for another.
      for (const box of boxes.values()) void importNow(box);
    } catch (err) {
      deps.logger.error({ err }, 'mail watch failed');
    }
    if (!stopped) timer = setTimeout(tick, deps.config.channels.mailPollMs);
  };
  const handle = {
    refresh: () => refresh().catch((err) => deps.logger.error({ err }, 'mail watch refresh failed')),
    stop: async () => {
      stopped = true;
      running.delete(handle);
      clearTimeout(timer);
      for (const box of boxes.values()) {
        box.stop();
        states.delete(box.id);
      }
      await Promise.all([...boxes.values()].map((b) => b.chain));
      boxes.clear();
    },
  };
  running.add(handle);
  void tick();
  return handle;
}
