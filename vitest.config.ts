import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code. Browser-side code runs in happy-dom; server code opts into `node` with a
// `// @vitest-environment node` docblock. Browser behaviour proper is proved in Chromium by `e2e/`.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'demo/**/*.test.{ts,tsx}', 'scripts/**/*.test.{ts,mjs}'],
    // One migrated database, dumped once, that every in-memory database of the run starts from.
    globalSetup: ['src/server/testing/memory-template-setup.ts'],
    environment: 'happy-dom',
    restoreMocks: true,
    // Most files wait rather than compute (leases lapsing, Retry-After, long polls, child processes), so the default
    // (cores − 1: on the 2-core CI machine, one file at a time) left the cores idle. Each file is isolated (its own
    // PGlite, its own PostgreSQL schema, port 0), so they run side by side.
    maxWorkers: Math.min(8, Math.max(4, availableParallelism() * 2)),
    // Generous: suites start PGlite (WebAssembly PostgreSQL) in their hooks, which is slow on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
