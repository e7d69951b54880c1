import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code. Browser-side code runs in happy-dom; server code opts into `node` with a
// `// @vitest-environment node` docblock. Browser behaviour proper is proved in Chromium by `e2e/`.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'demo/**/*.test.{ts,tsx}', 'scripts/**/*.test.{ts,mjs}'],
    environment: 'happy-dom',
    restoreMocks: true,
    // Generous: suites start PGlite (WebAssembly PostgreSQL) in their hooks, which is slow on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
