/**
 * client-lists: what the browser does with long lists. Chromium (playwright-core) opens, signed in,
 * a conversation of 10,000 messages and the recents of a person with 10,000 conversations, and
 * times the first rendered rows; then a scripted scroll (up through older messages, down through
 * the recents, loading pages as a reader would) records every animation frame's duration and the
 * rows left in the DOM. Baseline: the same pages for a person with 100 conversations and a
 * conversation of 100 messages, in the same run. Data bulk-loaded with generate_series.
 *
 * Before/after in one run: BENCH_CLIENT_BEFORE=<a dist/client built from an earlier commit> adds
 * a pass over the large data where the browser gets that build's page and scripts (the same
 * server answers everything else), so both clients meet the same data, server and load.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../tests/helpers/browser';
import { SESSION_COOKIE } from '../../src/server/modules/identity/sessions';
import { pgConnectionFields } from '../../src/server/db/url';
import { usersWithSessions } from '../lib/http';
import { startBenchServer, type BenchServer } from '../lib/server';
import { fmt, ratio, summarize, type Benchmark } from '../lib/stats';

/** One person with `conversations` chats of 2 messages each, plus one chat of `messages` messages. */
export async function seed(server: BenchServer, companyId: string, colleague: string, conversations: number, messages: number, label: string) {
  const [me] = await usersWithSessions(server.db, 1, label);
  await server.db.member.create({ data: { companyId, userId: me!.id, profile: 'M01', inviteAccepted: true, joinedAt: new Date() } });
  await server.db.user.update({ where: { id: me!.id }, data: { defaultCompanyId: companyId } });
  const client = new pg.Client(pgConnectionFields(server.database.url));
  await client.connect();
  let long: string;
  try {
    // The long conversation is the most recent one (first in the recents).
    const ids = await client.query<{ id: string; lastSeq: number }>(
      `INSERT INTO "Conversation" ("id", "companyId", "type", "state", "title", "protocol", "creatorId", "lastSeq", "lastMessageAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1::uuid, 3, 1, $2 || ' ' || i, lpad((800000000000000 + i + $5::int)::text, 15, '0'), $3::uuid,
              CASE WHEN i = 1 THEN $4::int ELSE 2 END, now() - make_interval(mins => i), now() - interval '90 days', now()
       FROM generate_series(1, $6::int) i
       RETURNING "id", "lastSeq"`,
      [companyId, label, me!.id, messages, Math.floor(Math.random() * 1e8), conversations],
    );
    long = ids.rows.reduce((a, r) => (r.lastSeq > a.lastSeq ? r : a)).id;
    await client.query(
      `INSERT INTO "Participant" ("id", "conversationId", "userId", "readSeq", "deliveredSeq", "joinedAt")
       SELECT gen_random_uuid(), c."id", u, c."lastSeq", c."lastSeq", now() - interval '90 days'
       FROM "Conversation" c CROSS JOIN unnest(ARRAY[$1::uuid, $2::uuid]) u WHERE c."creatorId" = $1::uuid`,
      [me!.id, colleague],
    );
    await client.query(
      `INSERT INTO "Message" ("id", "conversationId", "seq", "authorId", "type", "text", "bytes", "mentions", "createdAt")
       SELECT gen_random_uuid(), c."id", s, CASE WHEN s % 3 = 0 THEN $1::uuid ELSE $2::uuid END, 'texto',
              'Mensagem ' || s || CASE WHEN s % 4 = 0 THEN ': pode confirmar a entrega do pedido de amanhã, com a nota fiscal e o boleto em anexo?' ELSE ', ok' END,
              60, '{}', c."lastMessageAt" - make_interval(secs => (c."lastSeq" - s) * 45)
       FROM "Conversation" c CROSS JOIN LATERAL generate_series(1, c."lastSeq") s
       WHERE c."creatorId" = $1::uuid`,
      [me!.id, colleague],
    );
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
  return { me: me!, long };
}

/**
 * In the page: from the next press (pointerdown) to the element with this id in the document
 * (a MutationObserver sees it in the task that put it there), as `window.__pressToRow`, a promise
 * (the expression itself answers undefined: evaluate would otherwise wait for that promise).
 */
const pressToRow = (id: string) => `window.__pressToRow = new Promise((resolve) => {
  document.addEventListener('pointerdown', () => {
    const t0 = performance.now();
    const seen = () => document.getElementById(${JSON.stringify(id)}) && (resolve(performance.now() - t0), true);
    if (seen()) return;
    const observer = new MutationObserver(() => seen() && observer.disconnect());
    observer.observe(document.body, { childList: true, subtree: true });
  }, { capture: true, once: true });
}), undefined`;

/**
 * Records every animation frame's duration while the list scrolls. Passed as source text: tsx
 * would wrap named functions in a helper that does not exist in the page.
 */
async function scrolled(page: Page, scrollerOf: string, direction: 1 | -1, ms: number, rowSelector: string) {
  const args = JSON.stringify({ scrollerOf, direction, ms, rowSelector });
  return (await page.evaluate(`(async ({ scrollerOf, direction, ms, rowSelector }) => {
    let el = document.querySelector(scrollerOf);
    while (el && !(el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
    const scroller = el ?? document.scrollingElement;
    const frames = [];
    let last = performance.now();
    const t0 = last;
    await new Promise((resolve) => {
      function tick(now) {
        frames.push(now - last);
        last = now;
        // A reader flicking: 600 px a frame, as far as the list goes (pages load on the way).
        scroller.scrollTop += direction * 600;
        if (now - t0 < ms) requestAnimationFrame(tick);
        else resolve();
      }
      requestAnimationFrame(tick);
    });
    const rows = [...document.querySelectorAll(rowSelector)];
    // Messages carry their number: the oldest one rendered tells how far back the scroll went.
    const seqs = rows.map((r) => /^msg-([0-9]+)$/.exec(r.id)).filter(Boolean).map((m) => Number(m[1]));
    const minSeq = seqs.length ? Math.min(...seqs) : 0;
    // A virtualized list renders a window of what it holds: its rows carry their index.
    const indexed = rows.map((r) => Number(r.getAttribute('data-index'))).filter((n) => Number.isFinite(n) && n >= 0);
    const loaded = indexed.length ? Math.max(rows.length, ...indexed.map((n) => n + 1)) : rows.length;
    return { frames: frames.slice(1), rows: rows.length, loaded, minSeq, nodes: document.getElementsByTagName('*').length };
  })(${args})`)) as { frames: number[]; rows: number; loaded: number; minSeq: number; nodes: number };
}

/**
 * The browser of this context gets the page and scripts of another client build (`dir`, a
 * dist/client); the server still answers the API, the socket and the page's headers.
 */
async function serveClientFrom(context: BrowserContext, dir: string) {
  await context.route((url) => !/^\/(trpc|socket\.io|api|uploads)\b/.test(url.pathname), async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (request.resourceType() === 'document') {
      const response = await route.fetch();
      return route.fulfill({ response, body: fs.readFileSync(path.join(dir, 'index.html'), 'utf8') });
    }
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)));
    if (file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()) return route.fulfill({ path: file });
    return route.continue();
  });
}

const bench: Benchmark = {
  name: 'client-lists',
  description: 'Chromium: a 10,000-message conversation and 10,000 recents: first rows, scroll frame times',
  async run({ quick, log }) {
    const big = quick ? { conversations: 1_000, messages: 1_000 } : { conversations: 10_000, messages: 10_000 };
    const small = { conversations: 100, messages: 100 };
    const scrollMs = quick ? 1_500 : 8_000;
    const beforeDir = process.env.BENCH_CLIENT_BEFORE ? path.resolve(process.env.BENCH_CLIENT_BEFORE) : null;
    if (beforeDir && !fs.existsSync(path.join(beforeDir, 'index.html'))) throw new Error(`BENCH_CLIENT_BEFORE: no index.html in ${beforeDir}`);
    const server = await startBenchServer();
    const browser = await launchBrowser();
    try {
      const [owner, colleague] = await usersWithSessions(server.db, 2, 'Dona');
      const company = await server.db.company.create({ data: { domain: `cl${Date.now().toString(36)}`, name: 'Client Lists', creatorId: owner!.id } });
      await server.db.member.createMany({
        data: [owner!, colleague!].map((u, i) => ({ companyId: company.id, userId: u.id, isAdmin: i === 0, profile: i === 0 ? 'A01' : 'M01', inviteAccepted: true, joinedAt: new Date() })),
      });
      const t0 = performance.now();
      const people = {
        baseline: await seed(server, company.id, colleague!.id, small.conversations, small.messages, 'Base'),
        large: await seed(server, company.id, colleague!.id, big.conversations, big.messages, 'Grande'),
      };
      log(`seeded ${big.conversations} + ${small.conversations} conversations in ${fmt((performance.now() - t0) / 1000)} s`);

      const results: Record<string, Record<string, number>> = {};
      const rows: (string | number)[][] = [];
      // The earlier client first on the same large data, when asked for.
      const passes: [string, (typeof people)['large'], typeof big, string | null][] = [
        ['baseline', people.baseline, small, null],
        ...(beforeDir ? [['before', people.large, big, beforeDir] as [string, (typeof people)['large'], typeof big, string]] : []),
        ['large', people.large, big, null],
      ];
      for (const [key, person, size, clientDir] of passes) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        if (clientDir) await serveClientFrom(context, clientDir);
        await context.addCookies([{ name: SESSION_COOKIE, value: person.me.cookie.split('=')[1]!, domain: '127.0.0.1', path: '/' }]);
        const page = await context.newPage();
        // Warm the HTTP cache and the server's first queries, as a second visit would be.
        await page.goto(`${server.url}/i/recent`);
        await page.locator('.recent-item').first().waitFor();

        let t = performance.now();
        await page.goto(`${server.url}/i/recent`);
        await page.locator('.recent-item').first().waitFor();
        const recentsFirst = performance.now() - t;
        const recentsScroll = await scrolled(page, '.recent-list', 1, scrollMs, '.recent-item');

        // Opening the conversation as a reader does: from the recents, a click on it (it is the
        // most recent), until its newest message is on screen.
        await page.goto(`${server.url}/i/recent`);
        await page.locator('.recent-item').first().waitFor();
        // Timed twice: by the harness (the click's own checks and round trips to the browser
        // included) and in the page, from the press to the newest message in the document.
        await page.evaluate(pressToRow(`msg-${size.messages}`));
        t = performance.now();
        await page.locator(`a.recent-link[href$="${person.long}"]`).click();
        await page.locator(`#msg-${size.messages}`).waitFor();
        const chatFirst = performance.now() - t;
        const chatPress = (await page.evaluate('window.__pressToRow')) as number;
        // Opening it by its address (a reload, a link from elsewhere): the app boots on it.
        t = performance.now();
        await page.goto(`${server.url}/i/recent/chat/${person.long}`);
        await page.locator(`#msg-${size.messages}`).waitFor();
        const chatNavigate = performance.now() - t;
        const chatScroll = await scrolled(page, '.message-scroller', -1, scrollMs, '.message-list > li');
        await context.close();

        const r = summarize(recentsScroll.frames);
        const c = summarize(chatScroll.frames);
        results[key] = {
          recentsFirstMs: recentsFirst, recentsFrameP50: r.p50, recentsFrameP95: r.p95, recentsFrameMax: r.max, recentsRows: recentsScroll.rows, recentsLoaded: recentsScroll.loaded, recentsNodes: recentsScroll.nodes,
          chatFirstMs: chatFirst, chatPressMs: chatPress, chatNavigateMs: chatNavigate, chatFrameP50: c.p50, chatFrameP95: c.p95, chatFrameMax: c.max, chatRows: chatScroll.rows,
          chatLoaded: chatScroll.minSeq ? size.messages - chatScroll.minSeq + 1 : chatScroll.loaded, chatNodes: chatScroll.nodes,
        };
        log(`${key}: recents first rows ${fmt(recentsFirst, 0)} ms, chat first rows ${fmt(chatFirst, 0)} ms (${fmt(chatPress, 0)} ms in the page from the press)`);
      }
      const b = results.baseline!;
      const l = results.large!;
      const p = results.before;
      const line = (label: string, k: string, digits = 1) =>
        rows.push([label, fmt(l[k]!, digits), fmt(b[k]!, digits), ratio(l[k]!, b[k]!), ...(p ? [fmt(p[k]!, digits), ratio(l[k]!, p[k]!)] : [])]);
      line('recents: page load (app boot) to the first rendered row, ms', 'recentsFirstMs', 0);
      line(`recents: scroll down ${scrollMs / 1000} s, frame p50 ms`, 'recentsFrameP50');
      line('recents: scroll, frame p95 ms', 'recentsFrameP95');
      line('recents: scroll, longest frame ms', 'recentsFrameMax');
      line('recents: furthest row reached (rows loaded on the way)', 'recentsLoaded', 0);
      line('recents: rows in the DOM after the scroll', 'recentsRows', 0);
      line('conversation: click in the recents to its newest message rendered, ms', 'chatFirstMs', 0);
      line('conversation: press in the recents to its newest message in the page (timed in the page), ms', 'chatPressMs', 0);
      line('conversation: navigation to its address to its newest message rendered, ms', 'chatNavigateMs', 0);
      line(`conversation: scroll up ${scrollMs / 1000} s, frame p50 ms`, 'chatFrameP50');
      line('conversation: scroll, frame p95 ms', 'chatFrameP95');
      line('conversation: scroll, longest frame ms', 'chatFrameMax');
      line('conversation: messages scrolled back through (pages loaded on the way)', 'chatLoaded', 0);
      line('conversation: rows in the DOM after the scroll', 'chatRows', 0);
      line('DOM elements after the conversation scroll', 'chatNodes', 0);
      return {
        tables: [
          {
            title: `client-lists: ${big.conversations} recents / ${big.messages} messages against ${small.conversations} / ${small.messages} (Chromium, 1280x900)`,
            columns: ['measure', 'large', 'baseline', 'large / baseline', ...(p ? ['large, client before', 'after / before'] : [])],
            rows,
          },
        ],
        notes: ['Frames are requestAnimationFrame intervals (16.7 ms at 60 Hz when nothing is late) while the list scrolls 600 px a frame.'],
        summary: { sizes: { large: big, baseline: small }, scrollMs, results, clientBefore: beforeDir },
      };
    } finally {
      await browser.close();
      await server.close();
    }
  },
};
export default bench;
