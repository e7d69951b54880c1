// The demo storefront: a few static pages that embed the widget the way a merchant would, served with fresh CSP
// nonces, plus the Vite-built SPA at /spa/ that uses the npm entry. Not part of the package.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { SignJWT } from 'jose';
import { createCart } from './store-cart';
import { catalogLinks, html, productPageValues } from './store-catalog-pages';

/** The CSP of /csp.html; `connect-src` and `img-src` fall back to nothing (no `default-src`), so both are open. */
export const strictCsp = (nonce: string): string =>
  `script-src 'nonce-${nonce}' 'strict-dynamic'; style-src 'self'; object-src 'none'; base-uri 'none'`;

const CSP_PAGES = new Set(['csp.html']);

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The package root, found from wherever this file runs: `demo/` from source (vitest, tsx) or `dist/server/` and
 * `dist/server/chunks/` once bundled by `scripts/build.mjs`.
 */
export function findPackageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'service-widget')
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`demo: no service-widget package.json above ${from}`);
    dir = parent;
  }
}

export interface StoreServerOptions {
  port?: number;
  host?: string;
  /** Package root; default: found from this file. */
  rootDir?: string;
  /** The reference service's URL, substituted for `%SERVICE_URL%`; can be set later with `setServiceUrl`. */
  serviceUrl?: string;
  log?: boolean;
  /** The secret the store's "back end" signs identity tokens with (`?customer=` on a page); off without. */
  identitySecret?: string;
}

export interface StoreServer {
  /** `http://{host}:{port}` as listened on. */
  url: string;
  port: number;
  /** Both loopback spellings of the store's origin, for the widget's `allowedOrigins`. */
  origins: string[];
  setServiceUrl(url: string): void;
  close(): Promise<void>;
}

/** Resolves `rel` under `base`, or `null` when it would escape it. */
function safeJoin(base: string, rel: string): string | null {
  const path = normalize(join(base, decodeURIComponent(rel)));
  return path === base || path.startsWith(base + sep) ? path : null;
}

async function readFileIfExists(path: string): Promise<Buffer | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * Fills a page template: `<!--#include _file-->` (in markup) or `/*#include _file*\/` (inside a script) with a file
 * from the same folder, then `%SERVICE_URL%`, `%NONCE%` and each `%KEY%` of `markup` (HTML the server built and
 * escaped: the cart count, the catalog, a product's fields). Includes come first so included files can use the
 * placeholders too.
 */
export async function renderTemplate(
  source: string,
  folder: string,
  values: { serviceUrl: string; nonce: string; identityToken?: string; markup?: Record<string, string> },
): Promise<string> {
  const includes = [...source.matchAll(/(?:<!--|\/\*)#include (_[\w.-]+)(?:-->|\*\/)/g)];
  let out = source;
  for (const [directive, name] of includes) {
    const path = safeJoin(folder, name);
    const body = path ? await readFileIfExists(path) : null;
    if (!body) throw new Error(`demo: missing include ${name}`);
    out = out.replace(directive, body.toString('utf8').trimEnd());
  }
  out = out
    .replaceAll('%SERVICE_URL%', values.serviceUrl)
    .replaceAll('%NONCE%', values.nonce)
    .replaceAll('%IDENTITY_TOKEN%', values.identityToken ?? '');
  // One pass over the page: a value that holds `%KEY%` text is never filled in again.
  const markup = values.markup ?? {};
  return out.replace(/%([A-Z][A-Z_]*)%/g, (whole, key: string) =>
    Object.hasOwn(markup, key) ? markup[key] : whole,
  );
}

/**
 * What a store's back end does for a signed-in customer (docs/security.md "Identity"): an HS256 JWT with their id, valid for two
 * hours. The demo "signs in" whoever `?customer=` names (letters, digits, `-`, `_`); a real store uses its session.
 */
export async function demoIdentityToken(
  secret: string | undefined,
  customer: string | undefined,
): Promise<string> {
  if (!secret || !customer || !/^[\w-]{1,64}$/.test(customer)) return '';
  return new SignJWT({ sub: customer, email: `${customer}@example.com`, name: customer })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(secret));
}

/**
 * The header's account line (issue 31 item 7, the demo's two ways to see an order): a signed-in customer's name with
 * a way out, or the guest's way in. Orders are shown to their customer, or to whoever gives the order's email.
 */
function accountLine(customer: string | undefined): string {
  return customer
    ? `<p class="account">Signed in as <strong>${html(customer)}</strong> (${html(customer)}@example.com): ` +
        'ask about your orders by number. <a href="?">Sign out</a></p>'
    : '<p class="account">Guest: ask about an order with its number and the email from your order confirmation. ' +
        '<a href="?customer=ada">Sign in as Ada</a> (demo)</p>';
}

/** The Hono app of the store, without a listener (tests can call `app.request`). */
export function createStoreApp(options: {
  rootDir: string;
  getServiceUrl: () => string;
  log?: boolean;
  identitySecret?: string;
}): Hono {
  const storeDir = resolve(options.rootDir, 'demo/store');
  const spaDir = resolve(options.rootDir, 'dist/demo-spa');
  const app = new Hono();
  if (options.log) {
    app.use('*', async (c, next) => {
      await next();
      console.error(`store ${c.req.method} ${c.req.path} ${c.res.status}`);
    });
  }

  const cart = createCart();
  const catalog = catalogLinks();
  app.route('/', cart.routes);

  /** `c`: the request, whose `?customer=` signs in and whose cart cookie fills the header's count. */
  const page = async (
    folder: string,
    file: string,
    c?: Context,
    markup: Record<string, string> = {},
    status = 200,
  ): Promise<Response | null> => {
    const path = safeJoin(folder, file);
    const source = path ? await readFileIfExists(path) : null;
    if (!source) return null;
    const nonce = randomBytes(16).toString('base64');
    const customer = c?.req.query('customer');
    const identityToken = await demoIdentityToken(options.identitySecret, customer);
    const html = await renderTemplate(source.toString('utf8'), folder, {
      serviceUrl: options.getServiceUrl(),
      nonce,
      identityToken,
      markup: {
        CART_COUNT: String(c ? cart.countOf(c) : 0),
        CATALOG_LINKS: catalog,
        ACCOUNT: accountLine(identityToken ? customer : undefined),
        ...markup,
      },
    });
    const headers: Record<string, string> = {
      'content-type': MIME['.html'],
      'cache-control': 'no-store',
    };
    if (CSP_PAGES.has(file)) headers['content-security-policy'] = strictCsp(nonce);
    return new Response(html, { status, headers });
  };

  const asset = async (folder: string, file: string): Promise<Response | null> => {
    const path = safeJoin(folder, file);
    const body = path ? await readFileIfExists(path) : null;
    if (!path || !body) return null;
    return new Response(new Uint8Array(body), {
      headers: {
        'content-type': MIME[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      },
    });
  };

  app.get('/spa', (c) => c.redirect('/spa/'));
  app.get('/spa/*', async (c) => {
    const rel = c.req.path.slice('/spa/'.length);
    if (rel && rel !== 'index.html') {
      const file = await asset(spaDir, rel);
      if (file) return file;
      // A missing asset is a 404; any other path is a client-side route.
      if (extname(rel)) return c.notFound();
    }
    return (
      (await page(spaDir, 'index.html')) ?? c.text('dist/demo-spa/ is missing: run `npm run build`.', 503)
    );
  });

  // A page per catalog product (issue 20): the product, its own "Add to cart", and the page context it gives the widget.
  app.get('/product.html', async (c) => {
    const values = productPageValues(c.req.query('id') ?? '');
    if (!values) return (await page(storeDir, '_missing-product.html', c, {}, 404)) ?? c.notFound();
    return (await page(storeDir, 'product.html', c, values)) ?? c.notFound();
  });

  app.get('/*', async (c) => {
    const rel = c.req.path === '/' ? 'index.html' : c.req.path.slice(1);
    // `_` files are fragments for includes, not pages.
    if (rel.split('/').some((part) => part.startsWith('_') || part.startsWith('.'))) return c.notFound();
    if (extname(rel) === '.html') return (await page(storeDir, rel, c)) ?? c.notFound();
    return (await asset(storeDir, rel)) ?? c.notFound();
  });

  return app;
}

/**
 * Starts the store on `port` (0: a free one).
 * @example
 * const store = await startStoreServer({ port: 0 });
 * store.setServiceUrl('http://127.0.0.1:8787');
 * console.log(store.url); // http://127.0.0.1:41234
 */
export async function startStoreServer(options: StoreServerOptions = {}): Promise<StoreServer> {
  const host = options.host ?? '127.0.0.1';
  const trimSlash = (url: string) => url.replace(/\/+$/, '');
  let serviceUrl = trimSlash(options.serviceUrl ?? '');
  const app = createStoreApp({
    rootDir: options.rootDir ?? findPackageRoot(),
    getServiceUrl: () => serviceUrl,
    log: options.log,
    identitySecret: options.identitySecret,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolveServer(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    origins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
    setServiceUrl(url) {
      serviceUrl = trimSlash(url);
    },
    close: () =>
      new Promise<void>((done, fail) => {
        // Keep-alive sockets from the browser would hold `close` open.
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
