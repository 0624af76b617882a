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
  },
});
