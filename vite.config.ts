import { defineConfig } from 'vite';

/**
 * The browser build: `dist/widget.js` (the module the loader injects) and `dist/index.js` (the npm entry) share
 * their chunks. The loader, the server and the demo SPA are built by `scripts/build.mjs` with their own settings.
 * `npm run dev` serves `index.html`, the playground.
 */
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    target: 'es2020',
    outDir: 'dist',
    emptyOutDir: false,
    modulePreload: false,
    rollupOptions: {
      input: { widget: 'src/widget/boot.ts', index: 'src/index.ts', client: 'src/client/index.ts' },
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
});
