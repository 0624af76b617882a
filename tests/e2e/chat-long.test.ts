/**
 * A long conversation in the browser (issue 22, target 6): its message list is virtualized. With
 * a few thousand messages the DOM keeps a bounded number of rows however far one scrolls back,
 * older pages still load on the way up, a reply's quote reaches an old message (loading the pages
 * in between), and new messages keep the view at the bottom only when the reader was there.
 * Real server, database, sockets and Chromium; the history is bulk-loaded with generate_series.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import type { TestServer } from '../helpers/server';
import { e2eSuite } from '../helpers/suite';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
const contexts = e2eSuite((started) => ({ server, browser } = started));

/** Messages already in the conversation when it is opened. */
const HISTORY = 3_000;
/** The old message a reply quotes. */
const QUOTED = 1_000;
/** Far fewer rows than the messages loaded on the way: the window in view and a margin. */
const MAX_ROWS = 120;

async function person(companyId: string, name: string, userId?: string) {
  const id = userId ?? (await createUser(server.db, { name })).id;
  if (!userId) await addMember(server.db, companyId, id);
  await server.db.user.update({ where: { id }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, id);
  return { userId: id, cookie };
}

async function call<T>(who: { cookie: string }, path: string, input: Record<string, unknown>, domain: string) {
  const res = await callProcedure(server.url, path, { domain, ...input }, { cookie: who.cookie, type: 'mutation' });
  if (res.error) throw new Error(res.error.message);
  return res.data as T;
}

/**
 * HISTORY messages, alternating authors, 10 minutes apart (so the list has day separators), the
 * last one at 23:59 UTC yesterday: the messages sent during the test are today's, so a day
 * separator sits right above them, in view at the bottom whatever the hour the test runs (the
 * page's clock is UTC too).
 */
async function seedHistory(conversationId: string, authors: [string, string]) {
  await server.db.$executeRawUnsafe(
    `INSERT INTO "Message" ("id", "conversationId", "seq", "authorId", "type", "text", "bytes", "mentions", "createdAt")
     SELECT gen_random_uuid(), $1::uuid, s, CASE WHEN s % 2 = 0 THEN $2::uuid ELSE $3::uuid END, 'texto',
            'Histórico ' || s || CASE WHEN s % 5 = 0 THEN ': uma linha mais longa, para que as alturas das linhas variem de verdade na lista' ELSE '' END,
            40, '{}', date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(mins => ($4::int - s) * 10 + 1)
     FROM generate_series(1, $4::int) s`,
    conversationId,
    authors[0],
    authors[1],
    HISTORY,
  );
  await server.db.conversation.update({ where: { id: conversationId }, data: { lastSeq: HISTORY, lastMessageAt: new Date() } });
  await server.db.participant.updateMany({ where: { conversationId }, data: { readSeq: HISTORY, deliveredSeq: HISTORY } });
}

const scroller = (page: Page) => page.locator('.message-scroller');
const rowCount = (page: Page) => page.locator('.message-list > li').count();
/** Whether a message's row is rendered and inside the scroller's visible box. */
const inView = (page: Page, seq: number) =>
  page.evaluate((seq) => {
    const el = document.getElementById(`msg-${seq}`);
    const box = document.querySelector('.message-scroller')?.getBoundingClientRect();
    if (!el || !box) return false;
    const r = el.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  }, seq);
const atBottom = (page: Page) => scroller(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 80);
/** The oldest message rendered (the list renders a window of what it loaded). */
const oldestRendered = (page: Page) =>
  page.evaluate(() => Math.min(...[...document.querySelectorAll('.message-list > li[id^="msg-"]')].map((li) => Number(li.id.slice(4)))));

describe('a long conversation', () => {
  it('keeps a bounded number of rows, loads older pages, jumps to a quote, sticks to the bottom only at the bottom', async () => {
    const ana = await createUser(server.db, { name: 'Ana Souza' });
    const company = await createCompany(server.db, ana.id);
    const a = await person(company.id, 'Ana Souza', ana.id);
    const b = await person(company.id, 'Bruno Lima');
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await seedHistory(conversationId, [a.userId, b.userId]);
    const quoted = await server.db.message.findFirstOrThrow({ where: { conversationId, seq: QUOTED } });
    const send = (text: string, replyToId?: string) =>
      call(b, 'chat.send', { conversationId, clientId: crypto.randomUUID(), text, ...(replyToId ? { replyToId } : {}) }, company.domain);
    await send('Sobre aquela mensagem antiga', quoted.id);

    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const [cookieName, value] = a.cookie.split('=') as [string, string];
    await context.addCookies([{ name: cookieName, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    const log = page.getByRole('log', { name: 'Messages' });

    // Opened at the newest message, with a day separator among the rows.
    await expect.poll(() => inView(page, HISTORY + 1)).toBe(true);
    await expect.poll(() => atBottom(page)).toBe(true);
    expect(await log.locator('.day-separator').count()).toBeGreaterThan(0);

    // At the bottom, what arrives is followed, and said by the live region (the log is not live).
    expect(await log.getAttribute('aria-live')).toBe('off');
    await send('Ainda aí?');
    await expect.poll(() => inView(page, HISTORY + 2)).toBe(true);
    await expect.poll(() => atBottom(page)).toBe(true);
    await page.locator('[aria-live="polite"]').getByText('Bruno Lima: Ainda aí?').waitFor({ state: 'attached' });

    // Scrolling back page after page: older messages load, the rows in the DOM stay few.
    let oldest = await oldestRendered(page);
    for (let i = 0; i < 6; i++) {
      await scroller(page).evaluate((el) => (el.scrollTop = 0));
      await expect.poll(async () => {
        await scroller(page).evaluate((el) => (el.scrollTop = 0));
        return oldestRendered(page);
      }).toBeLessThan(oldest);
      oldest = await oldestRendered(page);
      expect(await rowCount(page)).toBeLessThanOrEqual(MAX_ROWS);
    }
    expect(oldest).toBeLessThan(HISTORY - 250);

    // The page put above keeps what the reader sees in place.
    // The first row whose top is inside the scroller's box, once the virtualizer has rendered the
    // rows of the current scroll position (two frames after a scroll).
    const firstInView = () =>
      page.evaluate(async () => {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const box = document.querySelector('.message-scroller')!.getBoundingClientRect();
        const row = [...document.querySelectorAll('.message-list > li[id^="msg-"]')].find((li) => {
          const r = li.getBoundingClientRect();
          return r.top >= box.top && r.top < box.bottom;
        });
        return Number(row!.id.slice(4));
      });
    const height = await scroller(page).evaluate((el) => el.scrollHeight);
    await scroller(page).evaluate((el) => (el.scrollTop = 0));
    const top = await firstInView();
    await expect.poll(() => scroller(page).evaluate((el) => el.scrollHeight)).toBeGreaterThan(height + 1000);
    await expect.poll(() => scroller(page).evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
    // The rows put above are measured over the next frames and the virtualizer corrects the
    // offset as it does: the reader's row is in view once that settles.
    await expect.poll(() => inView(page, top)).toBe(true);

    // Up there, a new message does not pull the reader down; it is still said.
    await scroller(page).evaluate((el) => (el.scrollTop = 400));
    const reading = await firstInView();
    await send('Não precisa descer');
    await page.locator('[aria-live="polite"]').getByText('Bruno Lima: Não precisa descer').waitFor({ state: 'attached' });
    expect(await atBottom(page)).toBe(false);
    expect(await inView(page, reading)).toBe(true);

    // Back at the bottom, the quote of the reply goes to message 1000 (pages loaded on the way),
    // which gets the focus; the DOM still holds a window of rows.
    await expect.poll(async () => {
      await scroller(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
      return inView(page, HISTORY + 1);
    }).toBe(true);
    await log.locator(`#msg-${HISTORY + 1}`).getByRole('button', { name: 'Go to the message this replies to' }).click();
    await expect.poll(() => inView(page, QUOTED), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`msg-${QUOTED}`);
    expect(await rowCount(page)).toBeLessThanOrEqual(MAX_ROWS);
    expect(await atBottom(page)).toBe(false);

    // Keyboard: Tab from the focused message reaches its actions.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message actions');
  });
});
