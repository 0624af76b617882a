import { QUEUE_ALARM_INTERVAL_MS } from '../../../shared/constants';
import type { Logger } from '../../logger';
import { waitingPerAttendant } from './service';
import type { ServiceDeps } from './shared';

/** Instances tick at slightly different moments: a claim this much early still counts as due. */
const CLAIM_SLACK_MS = 5_000;

/**
 * The queue alarm (spec 9: every 60 s while people wait): each company with waiting requests is
 * claimed for this interval (one instance wins the conditional upsert), then each attendant who
 * can see a waiting request is told how many; the browser plays the queue sound unless they turned
 * it off (playFila).
 */
export async function ringQueueAlarms(deps: ServiceDeps): Promise<number> {
  const now = deps.clock.now();
  const due = new Date(now.getTime() - QUEUE_ALARM_INTERVAL_MS + CLAIM_SLACK_MS);
  const companies = await deps.db.conversation.groupBy({ by: ['companyId'], where: { inQueue: true } });
  let rung = 0;
  for (const { companyId } of companies) {
    const claimed = await deps.db.$queryRaw<{ companyId: string }[]>`
      INSERT INTO "QueueAlarm" ("companyId", "lastAt") VALUES (${companyId}::uuid, ${now})
      ON CONFLICT ("companyId") DO UPDATE SET "lastAt" = EXCLUDED."lastAt" WHERE "QueueAlarm"."lastAt" <= ${due}
      RETURNING "companyId"`;
    if (claimed.length === 0) continue;
    const company = await deps.db.company.findUnique({ where: { id: companyId }, select: { domain: true } });
    if (!company) continue;
    for (const a of await waitingPerAttendant(deps.db, companyId)) {
      deps.realtime.toUser(a.userId, 'queue:alarm', { domain: company.domain, waiting: a.waiting });
      rung++;
    }
  }
  return rung;
}

/** Rings every QUEUE_ALARM_INTERVAL_MS on the app's clock (tests move it). */
export function startQueueAlarm(deps: ServiceDeps & { logger: Logger }): { stop(): void } {
  let stopped = false;
  let cancel = () => {};
  const schedule = () => {
    cancel = deps.clock.setTimeout(() => {
      ringQueueAlarms(deps)
        .catch((err) => deps.logger.error({ err }, 'queue alarm failed'))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, QUEUE_ALARM_INTERVAL_MS);
  };
  schedule();
  return {
    stop: () => {
      stopped = true;
      cancel();
    },
  };
}
