import { defineConfig } from 'vitest/config';

/**
 * Time budgets scale with one setting: TEST_TIME_SCALE (default 1). A loaded or slow machine (CI
 * sets 3) gets proportionally longer budgets; the tests themselves wait for conditions, never for
 * fixed sleeps, so a higher scale only changes how long a real failure takes to be reported.
 */
const scale = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Each file gets its own database and server; two at a time fits these 2-core machines.
    maxWorkers: 2,
    testTimeout: 30_000 * scale,
    hookTimeout: 60_000 * scale,
    pool: 'forks',
    // Polls wait for something to happen (a row written, a list re-rendered), not for a deadline:
    // on a loaded 2-core CI machine 1 s (the default) is not enough.
    expect: { poll: { timeout: 10_000 * scale, interval: 100 } },
    projects: [
      { extends: true, test: { name: 'server', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**'] } },
      // One browser file at a time: two Chromium instances with their servers starve each other
      // (and the server tests beside them) on 2 cores.
      { extends: true, test: { name: 'browser', include: ['tests/e2e/**/*.test.ts'], fileParallelism: false } },
    ],
  },
});
