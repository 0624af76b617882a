/**
 * Plan flags in the browser: without kanban the SLA board is not in the navigation, without sla
 * the queue form has no SLA box; switching the flags on shows them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const sockets: ClientSocket[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

async function pageFor(person: Person): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

describe('plan features in the browser', () => {
  it('hides the SLA board and the queue SLA box while the plan lacks them, shows them once it has them', async () => {
    const c = await serviceCompany(server, sockets);
    await server.db.user.update({ where: { id: c.admin.userId }, data: { defaultCompanyId: c.company.id } });
    const page = await pageFor(c.admin);

    await page.goto(`${server.url}/i/settings/queues/${c.queue.id}`);
    await page.getByRole('checkbox', { name: 'Active (taking requests)' }).waitFor();
    // The form says so once the company's features arrived (the navigation reads the same query).
    await page.getByText('Your plan does not include SLA.').waitFor();
    expect(await page.getByRole('checkbox', { name: 'SLA: requests have a due date' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'SLA board' }).count()).toBe(0);

    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), sla: 1, kanban: 1 } } });
    await page.reload();
    await page.getByRole('checkbox', { name: 'SLA: requests have a due date' }).waitFor();
    await page.getByRole('link', { name: 'SLA board' }).click();
    await page.waitForURL('**/i/kanbansla');
  });
});
