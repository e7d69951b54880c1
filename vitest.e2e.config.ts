import { defineConfig } from 'vitest/config';

// Browser specs: playwright-core drives Debian Chromium (/usr/bin/chromium) against the built `dist/` served by
// the real reference service and demo store. One browser per file; two files at a time on a 2-core machine: each file
// waits on its browser and services most of its time, and one at a time the e2e took 11 of CI's 19 minutes.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // One migrated database, dumped once, that every in-memory database of the run starts from.
    globalSetup: ['src/server/testing/memory-template-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
