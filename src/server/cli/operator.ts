/**
 * `npm run operator -- grant|revoke <e-mail>` and `npm run operator -- list`: who may use the
 * operator console, kept in the Operator table (OPERATOR_EMAILS grants it too, by configuration).
 * Reads the same settings as the server: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR
 * (started for the command when the server is not running).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { closeDb, createDb } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded';
import { createLogger } from '../logger';

async function main(args: string[]) {
  const [command, email] = args;
  if (!command || !['grant', 'revoke', 'list'].includes(command) || (command !== 'list' && !email)) {
    console.error('usage: npm run operator -- grant <e-mail> | revoke <e-mail> | list');
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger('warn');
  let stop = async () => {};
  let url: string;
  if (config.database.kind === 'external') url = config.database.url;
  else if (fs.existsSync(path.join(config.database.dir, 'postmaster.pid'))) url = `postgresql://postgres:atende@127.0.0.1:${config.database.port}/atende`;
  else {
    const pg = await startEmbeddedPostgres({ ...config.database, logger });
    url = pg.url;
    stop = () => pg.stop();
  }
  const db = createDb(url, { poolSize: 1 });
  try {
    if (command === 'list') {
      const rows = await db.operator.findMany({ orderBy: { grantedAt: 'asc' } });
      const users = await db.user.findMany({ where: { id: { in: rows.map((r) => r.userId) } }, select: { id: true, email: true, name: true } });
      for (const r of rows) {
        const u = users.find((x) => x.id === r.userId);
        console.log(`${u?.email ?? r.userId}\t${u?.name ?? ''}\tsince ${r.grantedAt.toISOString()}`);
      }
      for (const e of config.operatorEmails) console.log(`${e}\t(OPERATOR_EMAILS)`);
      return 0;
    }
    const user = await db.user.findFirst({ where: { email: { equals: email!.trim(), mode: 'insensitive' } } });
    if (!user) {
      console.error(`No user with the e-mail ${email}: they must sign up first.`);
      return 1;
    }
    if (command === 'grant') await db.operator.upsert({ where: { userId: user.id }, update: {}, create: { userId: user.id } });
    else await db.operator.deleteMany({ where: { userId: user.id } });
    console.log(`${command === 'grant' ? 'Granted' : 'Revoked'} the operator role ${command === 'grant' ? 'to' : 'from'} ${user.email}.`);
    return 0;
  } finally {
    await closeDb(db);
    await stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
