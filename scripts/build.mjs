// One command for every artefact: `dist/loader.js`, `dist/widget.js` + `dist/index.js` (+ chunks, + .d.ts),
// `dist/server/*` (the reference service and the demo), `dist/inbox/` (the agents' inbox page), `dist/demo-spa/`
// (the npm-use demo).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const quiet = { logLevel: 'warn', configFile: false, root };
const jsx = { oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } } };

rmSync(resolve(root, 'dist'), { recursive: true, force: true });

// The loader: one self-contained classic script, no imports at run time.
await build({
  ...quiet,
  build: {
    target: 'es2017',
    outDir: 'dist',
    emptyOutDir: false,
    lib: {
      entry: 'src/loader/index.ts',
      formats: ['iife'],
      name: 'serviceLoader',
      fileName: () => 'loader.js',
    },
  },
});

// The widget module and the npm entry.
await build({ root, logLevel: 'warn', configFile: resolve(root, 'vite.config.ts') });

// Types for the npm entry.
execFileSync(
  process.execPath,
  [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

// The reference service and the demo servers: Node ESM, dependencies left as imports.
await build({
  ...quiet,
  ...jsx,
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/server',
    emptyOutDir: false,
    rollupOptions: {
      input: {
        cli: 'src/server/cli.ts',
        'demo-start': 'demo/start.ts',
        'demo-servers': 'demo/demo-servers.ts',
        'bench-service-entry': 'scripts/bench-service-entry.ts',
        'bench-catalog-entry': 'scripts/bench-catalog-entry.ts',
        'bench-tasks-entry': 'scripts/bench-tasks-entry.ts',
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});

// The agents' inbox page (`/inbox`): one module and one stylesheet under fixed names, which the service serves from
// dist/inbox/assets/ behind a strict CSP (no inline code, so no module-preload polyfill).
await build({
  ...quiet,
  ...jsx,
  build: {
    target: 'es2020',
    outDir: 'dist/inbox',
    emptyOutDir: false,
    modulePreload: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { inbox: 'src/inbox/main.tsx' },
      output: {
        format: 'es',
        entryFileNames: 'assets/[name].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});

// The single-page storefront that uses the npm entry, as a merchant's SPA would.
await build({
  ...quiet,
  root: resolve(root, 'demo/spa'),
  base: '/spa/',
  resolve: { alias: { 'service-widget': resolve(root, 'dist/index.js') } },
  build: { target: 'es2020', outDir: resolve(root, 'dist/demo-spa'), emptyOutDir: true },
});

console.log('build: dist/ ready');
