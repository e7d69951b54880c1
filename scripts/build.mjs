// One command for every artefact: `dist/loader.js`, `dist/widget.js` + `dist/index.js` (+ chunks, + .d.ts),
// `dist/server/*` (the reference service and the demo), `dist/console/` (the agents' console), `dist/demo-spa/`
// (the npm-use demo).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { build } from 'vite';
import { compressBrotli, compressGzip } from './size.mjs';

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

// `service-widget/react` and `service-widget/vue` (issue 36), built apart from the browser build above so that the npm
// entry's chunks and bytes stay what they are for a page that imports neither. Each imports its framework and the npm
// entry (`./index.js`: one `load()`, so one widget, per page) at run time, and is left readable for the storefront's
// bundler; what both use is a chunk under dist/frameworks/, which /sdk/ does not serve.
await buildFrameworkEntries();

// The files the service serves under /sdk/ (the loader, the widget and its chunks), each beside its brotli and gzip
// forms, compressed once here with the size script's settings so that the bytes on the wire are the budgets' bytes.
for (const rel of sdkFiles(resolve(root, 'dist'))) {
  const path = resolve(root, 'dist', rel);
  const body = readFileSync(path);
  writeFileSync(`${path}.br`, compressBrotli(body));
  writeFileSync(`${path}.gz`, compressGzip(body));
}

// Types for the npm entry.
execFileSync(
  process.execPath,
  [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
addDeclarationExtensions(resolve(root, 'dist'));

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
        // Imports only Node: bin/service-widget.js runs it before anything that needs the service's runtime.
        'runtime-packages': 'src/server/platform/runtime-packages.ts',
        // The `task` command alone: the task client, no service runtime.
        'task-cli': 'src/server/task-cli.ts',
        'demo-start': 'demo/start.ts',
        'demo-servers': 'demo/demo-servers.ts',
        'bench-service-entry': 'scripts/bench-service-entry.ts',
        'bench-catalog-entry': 'scripts/bench-catalog-entry.ts',
        'bench-tasks-entry': 'scripts/bench-tasks-entry.ts',
        'eval-entry': 'scripts/eval-entry.ts',
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});

// The agents' console (`/console`): one module and one stylesheet under fixed names, which the service serves from
// dist/console/assets/ behind a strict CSP (no inline code, so no module-preload polyfill).
await build({
  ...quiet,
  ...jsx,
  build: {
    target: 'es2020',
    outDir: 'dist/console',
    emptyOutDir: false,
    modulePreload: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { console: 'src/console/main.tsx' },
      output: {
        format: 'es',
        entryFileNames: 'assets/[name].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});

// The chat preview's page (`/console/preview`, framed by the Settings section): its own small module, built apart so
// it shares no chunk with the console's; it loads the real widget from /sdk/.
await build({
  ...quiet,
  build: {
    target: 'es2020',
    outDir: 'dist/console',
    emptyOutDir: false,
    modulePreload: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { 'preview-frame': 'src/console/preview-frame/preview-frame.ts' },
      output: { format: 'es', entryFileNames: 'assets/[name].js', assetFileNames: 'assets/[name][extname]' },
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

/** The framework entries: dist/react.js and dist/vue.js (their types are tsconfig.build.json's). */
async function buildFrameworkEntries() {
  const npmEntry = resolve(root, 'src/index.ts');
  await build({
    ...quiet,
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: false,
      // Readable for the storefront's bundler, which minifies it, but without the doc comments: their `@example`
      // imports would read as imports to scripts/widget-files.mjs, and the types carry them.
      minify: 'terser',
      terserOptions: { compress: false, mangle: false, format: { comments: false, beautify: true } },
      modulePreload: false,
      copyPublicDir: false,
      rollupOptions: {
        input: { react: 'src/frameworks/react.ts', vue: 'src/frameworks/vue.ts' },
        preserveEntrySignatures: 'strict',
        external: (id) => id === npmEntry || /^(react|vue)(\/|$)/.test(id),
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: 'frameworks/[name]-[hash:6].js',
          paths: { [npmEntry]: './index.js' },
          // Next.js's App Router renders a module without this directive as a Server Component, where hooks fail; a
          // directive in the source would be dropped by the bundler, so it is added to the built file.
          banner: (chunk) => (chunk.isEntry && chunk.name === 'react' ? "'use client';" : ''),
        },
      },
    },
  });
}

/** Mirrors `sdkFileList` in src/server/http/static-sdk.ts: what `/sdk/` serves. */
function sdkFiles(dist) {
  const chunks = existsSync(resolve(dist, 'chunks')) ? readdirSync(resolve(dist, 'chunks')) : [];
  return ['loader.js', 'widget.js', ...chunks.filter((f) => /\.(js|css)$/.test(f)).map((f) => `chunks/${f}`)];
}

/**
 * tsc writes relative specifiers as they are in the source (`./request`); under `moduleResolution: node16` a
 * consumer's TypeScript resolves them only with the extension Node would need (`./request.js`). Rewrites them in every
 * emitted `.d.ts`, to `./x.js` or `./x/index.js`, whichever file exists.
 */
function addDeclarationExtensions(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['server', 'demo-spa', 'console', 'chunks'].includes(entry.name)) addDeclarationExtensions(path);
      continue;
    }
    if (!entry.name.endsWith('.d.ts')) continue;
    const text = readFileSync(path, 'utf8');
    const fixed = text.replace(
      /(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]*?)\2/g,
      (match, lead, quote, spec) => {
        if (/\.(js|mjs|cjs|json)$/.test(spec)) return match;
        const base = resolve(dirname(path), spec);
        if (existsSync(`${base}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`;
        if (existsSync(resolve(base, 'index.d.ts'))) return `${lead}${quote}${spec}/index.js${quote}`;
        return match;
      },
    );
    if (fixed !== text) writeFileSync(path, fixed);
  }
}
