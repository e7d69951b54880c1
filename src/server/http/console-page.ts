import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Context, Hono } from 'hono';
import { errorResponse } from './error-response';

/**
 * The page's policy: its own script and stylesheet only (no inline code, no `eval`), product pictures from anywhere
 * on the web, never framed, no forms posted anywhere (the key form is handled by script), no referrer leaked.
 */
export const CONSOLE_CSP =
  "default-src 'self'; img-src 'self' https: http:; style-src 'self'; script-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
};

const ASSET_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** Built by `scripts/build.mjs` from `src/console/main.tsx` (and the CSS it imports) into `dist/console/assets/`. */
const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Console · service-widget</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/console.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`;

/**
 * The chat preview's page: framed by the console only (same origin), its own script and the widget's from `/sdk/`,
 * the widget's requests to this origin's `/preview/…` routes, product pictures from anywhere.
 */
export const PREVIEW_CSP =
  "default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self'; " +
  "frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

const PREVIEW_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  'content-security-policy': PREVIEW_CSP,
  'x-frame-options': 'SAMEORIGIN',
};

/** Built by `scripts/build.mjs` from `src/console/preview-frame/`; the widget id and base URL come in its fragment. */
const PREVIEW_SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Chat preview · service-widget</title>
<link rel="stylesheet" href="/console/assets/preview-frame.css">
<script type="module" src="/console/assets/preview-frame.js"></script>
</head>
<body>
<div id="preview-chat"></div>
</body>
</html>
`;

/**
 * `GET /console`: the agents' console, a static shell whose script asks for the agent's key and reads the admin JSON
 * API with it (a browser cannot send a Bearer header on navigation, so the page itself is public and holds no data).
 * `GET /console/assets/{console.js,console.css}`: its built files, from `{distDir}/console/assets/`. `/inbox` and
 * everything under it, the console's old address, redirects to `/console`. Mounted at the root.
 */
export function consolePageRoutes(distDir: string): Hono {
  const assets = resolve(distDir, 'console', 'assets');
  const app = new Hono();
  const page = (c: Context) => c.html(SHELL, 200, PAGE_HEADERS);
  app.get('/console', page);
  app.get('/console/', page);
  // The Settings section's chat preview, in a frame: the real widget, mounted as a store's page mounts it.
  app.get('/console/preview', (c) => c.html(PREVIEW_SHELL, 200, PREVIEW_HEADERS));
  // Bookmarks of the inbox this console replaced (issue 21); nothing of the old path is carried over.
  app.get('/inbox', (c) => c.redirect('/console', 301));
  app.get('/inbox/*', (c) => c.redirect('/console', 301));
  app.get('/console/assets/:file', async (c) => {
    // A plain file name of a known type: no path separators, no `..`, nothing but what the build writes.
    const match = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.(js|css)$/.exec(c.req.param('file'));
    if (!match) return errorResponse(c, 404, 'not_found', 'No such file.');
    let body: Buffer;
    try {
      body = await readFile(resolve(assets, match[0]));
    } catch {
      return errorResponse(c, 404, 'not_found', 'No such file.');
    }
    return c.body(new Uint8Array(body), 200, {
      'content-type': ASSET_TYPES[match[1]],
      'x-content-type-options': 'nosniff',
      // Fixed names, so a browser must revalidate to pick up a new build.
      'cache-control': 'no-cache',
    });
  });
  return app;
}
