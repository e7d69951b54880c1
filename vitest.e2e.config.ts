import { defineConfig } from 'vitest/config';

// Browser specs: playwright-core drives Debian Chromium (/usr/bin/chromium) against the built `dist/` served by
// the real reference service and demo store. One browser per file; files run one at a time on a 2-core machine.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // One migrated database, dumped once, that every in-memory database of the run starts from.
    globalSetup: ['src/server/testing/memory-template-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
