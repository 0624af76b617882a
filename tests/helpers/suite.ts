/**
 * A test file's prologue: the real server (and for e2e the real Chromium) started before its
 * tests and closed after them, with what the tests opened on the way. Called at the file's top
 * level; `started` hands the file what it runs against:
 *
 *   let server: TestServer;
 *   const sockets = serverSuite((s) => (server = s));
 */
import fs from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { createCompany, createUser, signIn } from './fixtures';
import { startTestServer, type TestServer } from './server';
import type { ClientSocket } from './service';

/** A server for API and realtime tests; the sockets the tests push here are disconnected after. */
export function serverSuite(started: (server: TestServer) => void): ClientSocket[] {
  const sockets: ClientSocket[] = [];
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    started(server);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.close();
  });
  return sockets;
}

/**
 * A server serving the built browser app (dist/client) and a Chromium; the browser contexts the
 * tests push here are closed after (a test that fails leaves none open).
 */
export function e2eSuite(started: (running: { server: TestServer; browser: Browser }) => void, opts: { env?: Record<string, string> } = {}): BrowserContext[] {
  const contexts: BrowserContext[] = [];
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!fs.existsSync('dist/client/index.html')) {
      throw new Error('dist/client is missing: build the browser app first (npm run build, or npm test)');
    }
    [server, browser] = await Promise.all([startTestServer({ env: opts.env }), launchBrowser()]);
    started({ server, browser });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });
  return contexts;
}

/** A new company's owner, signed in in a fresh US-English profile (closed with the suite), the company selected. */
export async function ownerContext(running: { server: TestServer; browser: Browser }, contexts: BrowserContext[], userName: string) {
  const { server, browser } = running;
  const user = await createUser(server.db, { name: userName });
  const company = await createCompany(server.db, user.id);
  await server.db.user.update({ where: { id: user.id }, data: { defaultCompanyId: company.id } });
  const [name, value] = (await signIn(server.db, user.id)).split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name, value, url: server.url }]);
  return { user, company, context };
}
