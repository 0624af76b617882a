import cron from 'node-cron';
import type { AppDeps } from '../deps';
import { startReminders } from '../modules/calendar/reminders';
import { refreshSubscriptions } from '../modules/billing/subscriptions';
import { resumeImports } from '../modules/contacts/imports';
import { purgeStrayFeedFiles } from '../modules/feeds/service';
import { purgeUnreachableForms } from '../modules/forms/cleanup';
import { SIGN_IN_PAIR_PREFIX, SIGN_IN_THROTTLE } from '../modules/identity/rate-limit';
import { purgeExpiredGuests } from '../modules/identity/service';
import { emailOfflineParticipants, purgeOldNotifications } from '../modules/notifications/service';
import { startQueueAlarm } from '../modules/service/alarm';
import { startMailWatch } from '../modules/channels/mail-watch';
import { startChannelWorker } from '../modules/channels/outbox';
import { startTelegramPolling } from '../modules/channels/telegram-poll';

type JobDeps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'realtime' | 'mailer' | 'config' | 'storage'>;

/** Housekeeping that may run on every instance at once: each job is an idempotent delete. */
export const JOBS: { name: string; schedule: string; run(deps: JobDeps): Promise<number> }[] = [
  { name: 'purge expired guests', schedule: '*/10 * * * *', run: purgeExpiredGuests },
  {
    name: 'purge expired sessions',
    schedule: '17 * * * *',
    run: async ({ db, clock }) => (await db.session.deleteMany({ where: { expiresAt: { lte: clock.now() } } })).count,
  },
  {
    name: 'purge spent rate-limit windows and e-mail links',
    schedule: '23 * * * *',
    run: async ({ db, clock }) => {
      const now = clock.now();
      const [limits, tokens, codes] = await db.$transaction([
        // Sign-in throttles remember their failures a day past the wait, or the delays would not grow.
        db.rateLimit.deleteMany({
          where: {
            OR: [
              { key: { not: { startsWith: SIGN_IN_PAIR_PREFIX } }, resetAt: { lte: now } },
              { resetAt: { lte: new Date(now.getTime() - SIGN_IN_THROTTLE.forgetAfterMs) } },
            ],
          },
        }),
        db.authToken.deleteMany({ where: { expiresAt: { lte: now } } }),
        db.phoneCode.deleteMany({ where: { expiresAt: { lte: new Date(now.getTime() - 24 * 3_600_000) } } }),
      ]);
      return limits.count + tokens.count + codes.count;
    },
  },
  { name: 'purge notifications older than 7 days', schedule: '41 * * * *', run: purgeOldNotifications },
  { name: 'delete the files of forms whose conversation or template was deleted', schedule: '*/10 * * * *', run: purgeUnreachableForms },
  {
    name: 'e-mail participants with unread messages who are away',
    schedule: '* * * * *',
    run: (deps) => emailOfflineParticipants({ ...deps, publicUrl: deps.config.publicUrl }),
  },
  { name: 'remove feed files of posts never sent', schedule: '37 * * * *', run: purgeStrayFeedFiles },
  // Claims with FOR UPDATE SKIP LOCKED: each cut-short import is resumed by one instance.
  { name: 'resume contact imports cut short', schedule: '* * * * *', run: resumeImports },
  // pagConsultaPagtos: unpaid plan subscriptions asked again; past the grace period the plan is blocked.
  { name: 'query unpaid plan subscriptions and block overdue plans', schedule: '*/15 * * * *', run: refreshSubscriptions },
];

export function startJobs(deps: JobDeps): { stop(): Promise<void> } {
  const tasks = JOBS.map((job) =>
    cron.schedule(job.schedule, async () => {
      try {
        const count = await job.run(deps);
        if (count) deps.logger.info({ job: job.name, count }, 'job done');
      } catch (err) {
        deps.logger.error({ err, job: job.name }, 'job failed');
      }
    }),
  );
  // Timers on the app's clock rather than cron, so tests move time instead of waiting.
  const queueAlarm = startQueueAlarm(deps);
  const reminders = startReminders(deps);
  // Claims rows with FOR UPDATE SKIP LOCKED: every instance runs it.
  const channelWorker = startChannelWorker(deps);
  // Every instance watches the mailboxes (IDLE, polling as fallback); each mail is recorded by its Message-ID before it is applied.
  const mailPoller = startMailWatch(deps);
  // Bots with no webhook: every instance looks, one (the lease holder) polls each bot.
  const telegramPolling = startTelegramPolling(deps);
  return {
    stop: async () => {
      queueAlarm.stop();
      await reminders.stop();
      await channelWorker.stop();
      await mailPoller.stop();
      await telegramPolling.stop();
      for (const t of tasks) await t.stop();
    },
  };
}
