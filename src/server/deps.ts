import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import type { WorkerPool } from './media/rooms';
import type { CallsHub } from './modules/calls/hub';
import type { Realtime } from './realtime';
import type { SmsSender } from './sms';
import type { ObjectStore } from './storage';

/** What the process builds once at boot and every request can use. Services never read globals. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  storage: ObjectStore;
  media: WorkerPool;
  /** The calls this process hosts: media rooms, timers, recordings (modules/calls). */
  calls: CallsHub;
  realtime: Realtime;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
}
