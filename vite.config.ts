import { readdirSync } from 'node:fs';
import { Features } from 'lightningcss';
import { defineConfig, type Plugin } from 'vite';

/**
 * The published webhook schemas, one module per version: every `src/schemas/vYYYYMMDD.ts` becomes
 * `dist/schemas/vYYYYMMDD.js` (package export `service-widget/schemas/vYYYYMMDD`), so a new version is a new file.
 */
const schemaEntries = Object.fromEntries(
  readdirSync(new URL('./src/schemas/', import.meta.url))
    .filter((file) => /^v\d{8}\.ts$/.test(file))
    .map((file) => [`schemas/${file.slice(0, -3)}`, `src/schemas/${file}`]),
);

/**
 * Vite wraps each dynamic `import()` of a browser build in its preload helper, which fetches the chunk's CSS and
 * `modulepreload`s its imports. Here CSS is inlined (`?inline`) and `modulePreload` is off, so every call gets no
 * dependencies and the helper would only cost bytes (about 600 B brotli until the chat opens) and, shared by the npm
 * entry and the widget, pull the widget chunk into `dist/index.js`'s static imports. This one just imports.
 */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const plainDynamicImports: Plugin = {
  name: 'service:plain-dynamic-imports',
  enforce: 'pre',
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

/**
 * The browser build: `dist/widget.js` (the module the loader injects) and `dist/index.js` (the npm entry) share
 * their chunks, and so do the schema modules. The loader, the server and the demo SPA are built by
 * `scripts/build.mjs` with their own settings. `npm run dev` serves `index.html`, the playground.
 */
export default defineConfig({
  plugins: [plainDynamicImports],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // `color-scheme` (light, or dark under `.dark`) only sets the scheme of the widget's form controls and scrollbars:
  // lightningcss's `light-dark()` fallback variables (`--lightningcss-light`/`-dark`) would be bytes for a function
  // the widget never uses.
  css: { lightningcss: { exclude: Features.LightDark } },
  build: {
    target: 'es2022',
    // Terser's extra compress passes: about 1 KB brotli less than the default minifier on the widget, and the
    // widget's bytes are a budget (≤ 20 KB brotli until the chat is open).
    minify: 'terser',
    terserOptions: {
      module: true,
      // Never `pure_getters: true`: a signal's `.value` getter subscribes the running effect, so a read whose result
      // looks unused must stay (terser dropped one and an effect stopped seeing personalization changes).
      // ES2020 output (the build's target is ES2022): terser may then use the shorter syntax.
      compress: { passes: 3, pure_getters: false, ecma: 2020 },
      format: { comments: false, ecma: 2020 },
    },
    outDir: 'dist',
    emptyOutDir: false,
    modulePreload: false,
    rollupOptions: {
      input: {
        widget: 'src/widget/boot.ts',
        index: 'src/index.ts',
        client: 'src/client/index.ts',
        ...schemaEntries,
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        // Six characters of hash (36 bits), not eight: a chunk name is told apart only from the same chunk's other
        // versions, and each first chunk names about 16 others, whose random characters brotli cannot shrink (58 B
        // less until the chat opens). The service serves these names as immutable (src/server/http/static-sdk.ts).
        chunkFileNames: 'chunks/[name]-[hash:6].js',
        // Two shared chunks, named so: `version` (the protocol's names and the version, which the npm entry needs at
        // once) and `mount` (the widget, which the npm entry loads on `load()`). The script-tag boot goes into `mount`
        // too, so `dist/widget.js` is a single import: about 10 bytes of brotli less on the script-tag widget than an
        // entry that holds the boot and imports both chunks (issue: ≤ 20 KB until the chat opens).
        codeSplitting: {
          groups: [
            {
              // With the (one-line) dynamic-import helper above, which both entries use: in `mount`, it would make
              // `dist/index.js` import the whole widget at once.
              name: 'version',
              test: /\/src\/(protocol\/(constants|events)|widget\/version)\.ts$|vite\/preload-helper/,
              priority: 2,
            },
            { name: 'mount', test: /\/src\/widget\/script-boot\.ts$/, priority: 1 },
          ],
        },
      },
    },
  },
});
