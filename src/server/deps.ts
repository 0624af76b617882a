import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import type { MediaStatus } from './media/status';
import type { Realtime } from './realtime';
import type { SmsSender } from './sms';
import type { ObjectStore } from './storage';

/** What the process builds once at boot and every request can use. Services never read globals. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  storage: ObjectStore;
  media: { status(): MediaStatus };
  realtime: Realtime;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
}
