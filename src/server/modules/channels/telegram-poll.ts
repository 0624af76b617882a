/**
 * Telegram long polling, for a bot with no webhook (no PUBLIC_URL Telegram could reach, or the
 * admin chose polling). Telegram allows one getUpdates at a time per bot (a second one ends the
 * first with 409), so one instance polls each bot: the one holding its lease, a TelegramPoll row
 * claimed with a conditional upsert and renewed before every request. The offset is stored after
 * each applied update; updates go through the webhook's own inbound path, where the update_id
 * record makes a repeat (a crash between applying and storing the offset, a lease taken over
 * mid-request) do nothing.
 */
import { randomUUID } from 'node:crypto';
import type { ChannelSetting } from '../../../generated/prisma/client';
import type { AppDeps } from '../../deps';
import { channelFor, connectionOf, telegramPolls } from './connections';
import { applyEvents } from './inbound';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger'>;

/** Beyond one long poll: a lease outlives the request it covers, and a dead holder's runs out. */
const leaseSeconds = (timeoutS: number) => timeoutS + 30;

/** Takes or renews the bot's lease; its stored offset when this instance holds it, else null. */
async function claim(deps: Deps, settingId: string, me: string): Promise<number | null> {
  const seconds = leaseSeconds(deps.config.channels.telegramPollTimeoutS);
  // The database's clock, not the app's: every instance compares leases on the same one.
  const rows = await deps.db.$queryRaw<{ offset: bigint }[]>`
    INSERT INTO "TelegramPoll" ("settingId", "owner", "leaseUntil")
    VALUES (${settingId}::uuid, ${me}, now() + make_interval(secs => ${seconds}))
    ON CONFLICT ("settingId") DO UPDATE SET "owner" = EXCLUDED."owner", "leaseUntil" = EXCLUDED."leaseUntil"
    WHERE "TelegramPoll"."owner" = ${me} OR "TelegramPoll"."owner" IS NULL OR "TelegramPoll"."leaseUntil" < now()
    RETURNING "offset"`;
  return rows[0] ? Number(rows[0].offset) : null;
}

async function release(deps: Deps, settingId: string, me: string) {
  await deps.db.$executeRaw`UPDATE "TelegramPoll" SET "owner" = NULL, "leaseUntil" = NULL WHERE "settingId" = ${settingId}::uuid AND "owner" = ${me}`;
}

function pause(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** Polls one bot while this instance holds its lease and the bot still wants polling. */
async function pollBot(deps: Deps, settingId: string, me: string, signal: AbortSignal) {
  let failures = 0;
  while (!signal.aborted) {
    const offset = await claim(deps, settingId, me);
    if (offset === null) return; // another instance polls it
    const setting: ChannelSetting | null = await deps.db.channelSetting.findUnique({ where: { id: settingId } });
    if (!setting?.enabled || !telegramPolls(deps.config, setting)) return;
    try {
      const updates = await channelFor(deps.config, 'telegram').poll!(connectionOf(deps.config, setting), offset, deps.config.channels.telegramPollTimeoutS, signal);
      for (const u of updates) {
        await applyEvents(deps, setting, u.events);
        await deps.db.$executeRaw`UPDATE "TelegramPoll" SET "offset" = ${u.id + 1} WHERE "settingId" = ${settingId}::uuid AND "owner" = ${me} AND "offset" <= ${u.id}`;
      }
      failures = 0;
    } catch (err) {
      if (signal.aborted) return;
      failures++;
      deps.logger.warn({ err, settingId, failures }, 'telegram polling failed; trying again');
      await pause(Math.min(60_000, deps.config.channels.retryBaseMs * 2 ** Math.min(failures - 1, 12)), signal);
    }
  }
}

/** On every instance: finds bots that poll and polls those whose lease it gets. */
export function startTelegramPolling(deps: Deps): { stop(): Promise<void> } {
  const me = randomUUID();
  const bots = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> | null = null;
  const scan = async () => {
    const settings = await deps.db.channelSetting.findMany({ where: { channel: 'telegram', enabled: true } });
    for (const s of settings) {
      if (stopped || bots.has(s.id) || !telegramPolls(deps.config, s)) continue;
      const abort = new AbortController();
      const done = pollBot(deps, s.id, me, abort.signal)
        .catch((err) => deps.logger.error({ err, settingId: s.id }, 'telegram polling stopped'))
        .finally(async () => {
          await release(deps, s.id, me).catch(() => undefined);
          bots.delete(s.id);
        });
      bots.set(s.id, { abort, done });
    }
  };
  const tick = () => {
    if (stopped) return;
    scanning = scan()
      .catch((err) => deps.logger.error({ err }, 'telegram polling scan failed'))
      .then(() => {
        scanning = null;
        // A bot switched to polling, or a lease another instance let go, is picked up here.
        if (!stopped) timer = setTimeout(tick, deps.config.channels.pollMs * 5);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await scanning;
      for (const b of bots.values()) b.abort.abort();
      await Promise.all([...bots.values()].map((b) => b.done));
    },
  };
}
