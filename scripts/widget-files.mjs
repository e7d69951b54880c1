// Which built files a browser fetches for the widget, read from the import statements in dist/: what the size script
// measures (scripts/size.mjs) and what e2e/lazy-parts.e2e.ts checks against the requests Chromium really makes.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;

/**
 * The relative specifiers a built module imports: `static` (`import"./x.js"`, `from"./x.js"`), fetched before it
 * runs, and `dynamic` (`import("./x.js")`), fetched when the code gets there.
 */
export function importsOf(code) {
  const specs = (re) => [...new Set([...code.matchAll(re)].map((m) => m[1]))];
  return { static: specs(STATIC_IMPORT), dynamic: specs(DYNAMIC_IMPORT) };
}

/** The files reachable from `entries` (absolute paths), through static imports, and dynamic ones too if asked. */
export function reachable(entries, { dynamic = false } = {}) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const found = importsOf(readFileSync(file, 'utf8'));
    for (const spec of dynamic ? [...found.static, ...found.dynamic] : found.static) {
      visit(resolve(dirname(file), spec));
    }
  };
  for (const entry of entries) visit(entry);
  return [...seen];
}

/** The chat's chunk (src/widget/chat-view.tsx), which the first chunk imports at idle after ready or at the first open. */
const CHAT_CHUNK = /\/chat-view-[\w-]+\.js$/;

/** The chat chunk among the files `files` import dynamically. */
function chatChunks(files) {
  return files.flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .dynamic.map((spec) => resolve(dirname(file), spec))
      .filter((path) => CHAT_CHUNK.test(path)),
  );
}

/** Chunks only a page's call loads (see `onDemand` below). */
const ON_DEMAND = /\/chunks\/(nudge|resume-link)-[\w-]+\.js$/;

/** The widget's languages besides English: one chunk each (src/widget/locales/<tag>.ts, `all.ts` aside). */
export const widgetLanguages = () =>
  readdirSync(resolve(import.meta.dirname, '../src/widget/locales'))
    .filter((file) => /^[a-z]{2,3}\.ts$/.test(file) && file !== 'all.ts')
    .map((file) => file.slice(0, -3));

/**
 * The widget's files in `dist`, as absolute paths:
 * - `untilReady`: what runs until `service:ready`: the static graph of the entry (the launcher's code).
 * - `untilOpen`: what a browser fetches from loading the widget to the chat open and empty: that, plus the chat's chunk
 *   and its static imports (fetched at idle after ready, or at the first open). The npm entry: the static graph of
 *   `index.js` and of the chunk `load()` imports, plus the chat's chunk.
 * - `everything`: all the widget can ever load in English, dynamic imports (the lazy parts) included.
 * - `languages`: each other language's chunk by its tag (`de`), fetched with the first chunk for a shopper in that
 *   language (until ready, so until open too), and never otherwise: not part of `everything`.
 * - `onDemand`: chunks of `everything` fetched only when the page asks for them, never prefetched: the proactive
 *   bubble's (src/widget/nudge.tsx, on the first `Service.showMessage` or a reply written while the shopper was away),
 *   and the resume link's (src/widget/resume-link.ts, on a page opened from an email's link).
 */
export function widgetFiles(dist, languages = widgetLanguages()) {
  const widget = resolve(dist, 'widget.js');
  const index = resolve(dist, 'index.js');
  const loaded = importsOf(readFileSync(index, 'utf8')).dynamic.map((spec) => resolve(dist, spec));
  const untilReady = reachable([widget]);
  const npmUntilReady = reachable([index, ...loaded]);
  const tagOf = (file) => languages.find((tag) => basename(file).startsWith(`${tag}-`));
  const byLanguage = Object.fromEntries(
    reachable([widget], { dynamic: true })
      .filter((file) => dirname(file) === resolve(dist, 'chunks') && tagOf(file))
      .map((file) => [tagOf(file), file]),
  );
  const withoutLanguages = (files) => files.filter((file) => !Object.values(byLanguage).includes(file));
  return {
    script: {
      untilReady,
      untilOpen: reachable([widget, ...chatChunks(untilReady)]),
      everything: withoutLanguages(reachable([widget], { dynamic: true })),
      languages: byLanguage,
      onDemand: reachable([widget], { dynamic: true }).filter((file) => ON_DEMAND.test(file)),
    },
    npm: {
      untilReady: npmUntilReady,
      untilOpen: reachable([index, ...loaded, ...chatChunks(npmUntilReady)]),
      everything: withoutLanguages(reachable([index], { dynamic: true })),
      languages: byLanguage,
      onDemand: reachable([index], { dynamic: true }).filter((file) => ON_DEMAND.test(file)),
    },
  };
}
