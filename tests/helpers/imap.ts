/**
 * A real IMAP server for the e-mail integration's tests: Debian's Dovecot (`dovecot-imapd`), run
 * in the foreground from a generated configuration in a temporary directory (no system service,
 * no TLS, plain logins from a passwd-file, Maildir storage). Mails are put in a mailbox with IMAP
 * APPEND, as a delivery agent would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { budget } from './time';

export const DOVECOT_BIN = process.env.DOVECOT_BIN ?? '/usr/sbin/dovecot';
export const hasDovecot = () => existsSync(DOVECOT_BIN);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

async function accepting(port: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`dovecot did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ImapUser {
  user: string;
  pass: string;
}

/** Starts Dovecot with these accounts; `close()` stops it and removes its directory. */
export async function startImapServer(users: ImapUser[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-dovecot-'));
  // Dovecot's auth and mail processes run as other users: they must reach the passwd-file and Maildir.
  chmodSync(dir, 0o755);
  const port = await freePort();
  // Dovecot refuses to access mail as root: as root, mail belongs to `nobody`.
  const root = process.getuid?.() === 0;
  const uid = root ? 65534 : process.getuid!();
  const gid = root ? 65534 : process.getgid!();
  const mail = path.join(dir, 'mail');
  mkdirSync(mail);
  mkdirSync(path.join(dir, 'run'));
  if (root) chownSync(mail, uid, gid);
  writeFileSync(path.join(dir, 'users'), users.map((u) => `${u.user}:{PLAIN}${u.pass}`).join('\n') + '\n');
  const me = root ? '' : (process.env.USER ?? 'nobody');
  writeFileSync(
    path.join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password is the tests' own doing: no 2 s penalty.
auth_failure_delay = 0
mail_location = maildir:${mail}/%u
${root ? 'default_internal_user = dovecot\ndefault_login_user = dovenull' : `default_internal_user = ${me}\ndefault_login_user = ${me}`}
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${mail}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT_BIN, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      accepting(port, budget(10_000)),
      exited.then(() => {
        throw new Error(`dovecot exited: ${output}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  async function client(u: ImapUser) {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: u.user, pass: u.pass }, logger: false });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  }

  return {
    host: '127.0.0.1',
    port,
    /** Delivers a raw RFC 5322 message into the account's INBOX. */
    async deliver(u: ImapUser, raw: string | Buffer) {
      const c = await client(u);
      try {
        await c.append('INBOX', raw);
      } finally {
        await c.logout().catch(() => undefined);
      }
    },
    /** The number of messages in the account's INBOX. */
    async count(u: ImapUser) {
      const c = await client(u);
      try {
        return (await c.mailboxOpen('INBOX', { readOnly: true })).exists;
      } finally {
        await c.logout().catch(() => undefined);
      }
    },
    async close() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A mail as a customer's client would write it (MIME built by nodemailer's composer). */
export async function composeMail(m: {
  from: string;
  to: string;
  subject: string;
  /** Leave out for an HTML-only mail. */
  text?: string;
  html?: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  attachments?: { filename: string; content: Buffer; contentType?: string }[];
}): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: `<${m.messageId}>`,
    inReplyTo: m.inReplyTo ? `<${m.inReplyTo}>` : undefined,
    references: m.references?.map((r) => `<${r}>`),
    attachments: m.attachments,
  });
  return composer.compile().build();
}

/**
 * A TCP relay in front of the IMAP server, so a test can cut the app's connections the way a
 * network or a server restart would (`drop`), and keep new ones out for a while (`refuse`).
 */
export async function startTcpRelay(target: { host: string; port: number }) {
  const open = new Set<import('node:net').Socket>();
  let refusing = false;
  const srv = createServer((inbound) => {
    if (refusing) return void inbound.destroy();
    const outbound = connect(target.port, target.host);
    open.add(inbound);
    open.add(outbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (srv.address() as { port: number }).port,
    /** How many connections pass through now (each has two sockets). */
    connections: () => open.size / 2,
    drop() {
      for (const s of open) s.destroy();
    },
    refuse(on: boolean) {
      refusing = on;
    },
    async close() {
      this.drop();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}
