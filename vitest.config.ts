import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Each file gets its own database and server; two at a time fits these 2-core machines.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Polls wait for something to happen (a row written, a list re-rendered), not for a deadline:
    // on a loaded 2-core CI machine 1 s (the default) is not enough.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
