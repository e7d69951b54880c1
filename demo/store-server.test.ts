// @vitest-environment node
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from './integrator/catalog';
import { type CartView, createCart } from './store-cart';
import { createStoreApp, findPackageRoot, type StoreServer, startStoreServer } from './store-server';

const SERVICE = 'http://127.0.0.1:8787';
const app = createStoreApp({ rootDir: findPackageRoot(), getServiceUrl: () => SERVICE });

const noncesIn = (html: string) => [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);

describe('store pages', () => {
  it("serves / with the snippet that adds the service's loader after the load event, and the settings script inlined", async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`s.src = '${SERVICE}/sdk/loader.js';`);
    expect(html).toContain("addEventListener('load', later)");
    expect(html).toContain('window.serviceSettings = settings');
    expect(html).not.toMatch(/%SERVICE_URL%|%NONCE%|%IDENTITY_TOKEN%|#include/);
  });

  it("signs in ?customer= with an identity token from the store's secret, and puts no token on other pages", async () => {
    const secret = 'store-test-identity-secret-0123456789abcdef';
    const signing = createStoreApp({
      rootDir: findPackageRoot(),
      getServiceUrl: () => SERVICE,
      identitySecret: secret,
    });
    const html = await (await signing.request('/index.html?customer=ada')).text();
    const token = /const identityToken = '([^']+)'/.exec(html)?.[1] ?? '';
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    expect(payload).toMatchObject({ sub: 'ada', email: 'ada@example.com' });
    expect(await (await signing.request('/index.html')).text()).toContain("const identityToken = '';");
    expect(await (await signing.request('/index.html?customer=%3Cscript%3E')).text()).toContain(
      "const identityToken = '';",
    );
    expect(await (await app.request('/index.html?customer=ada')).text()).toContain(
      "const identityToken = '';",
    );
  });

  it('says in the header who is signed in, and how a guest sees an order (issue 31 item 7)', async () => {
    const signing = createStoreApp({
      rootDir: findPackageRoot(),
      getServiceUrl: () => SERVICE,
      identitySecret: 'store-test-identity-secret-0123456789abcdef',
    });
    const account = async (path: string) =>
      /<p class="account">(.*?)<\/p>/.exec(await (await signing.request(path)).text())?.[1] ?? '';
    expect(await account('/help.html?customer=ada')).toMatch(/^Signed in as <strong>ada<\/strong>.*Sign out/);
    expect(await account('/index.html')).toMatch(/^Guest: ask about an order with its number and the email/);
    // A name the store does not sign in is no customer, and never markup.
    expect(await account('/index.html?customer=%3Cb%3Ex%3C%2Fb%3E')).toMatch(/^Guest:/);
  });

  it('gives every request a fresh base64 nonce', async () => {
    const [a, b] = await Promise.all([app.request('/index.html'), app.request('/index.html')]);
    const [nonceA, nonceB] = [noncesIn(await a.text())[0], noncesIn(await b.text())[0]];
    expect(nonceA).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceA).not.toBe(nonceB);
  });

  it('sends /csp.html with a strict CSP whose nonce is the one on every script', async () => {
    const res = await app.request('/csp.html');
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toBe(
      `script-src 'nonce-${nonce}' 'strict-dynamic'; style-src 'self'; object-src 'none'; base-uri 'none'`,
    );
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).not.toMatch(/<style|style="/);
  });

  it('sends no CSP on the other pages', async () => {
    for (const path of ['/', '/hostile.html', '/iframe.html']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toBeNull();
    }
  });

  it('serves the stylesheets as CSS', async () => {
    for (const path of ['/store.css', '/hostile.css']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    }
  });

  it('refuses include fragments, unknown files and paths that leave the folder', async () => {
    for (const path of [
      '/_settings.js',
      '/_products.html',
      '/_missing-product.html',
      '/_cart.js',
      '/nope.html',
      '/..%2fstore-server.ts',
      '/%2e%2e/package.json',
    ]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });
});

describe('/spa/', () => {
  const root = mkdtempSync(join(tmpdir(), 'store-'));
  mkdirSync(join(root, 'dist/demo-spa/assets'), { recursive: true });
  writeFileSync(
    join(root, 'dist/demo-spa/index.html'),
    "<script>window.__DEMO_SERVICE_URL__='%SERVICE_URL%'</script>",
  );
  writeFileSync(join(root, 'dist/demo-spa/assets/app.js'), 'export {}');
  const spa = createStoreApp({ rootDir: root, getServiceUrl: () => SERVICE });

  it('serves built assets and falls back to index.html for client-side routes', async () => {
    expect((await spa.request('/spa/assets/app.js')).headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/spa/', '/spa/about', '/spa/checkout']) {
      const res = await spa.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(`<script>window.__DEMO_SERVICE_URL__='${SERVICE}'</script>`);
    }
    expect((await spa.request('/spa/assets/missing.js')).status).toBe(404);
    expect((await spa.request('/spa')).headers.get('location')).toBe('/spa/');
  });
});

describe('startStoreServer()', () => {
  it('listens on a free port and lists both loopback origins', async () => {
    const store = await startStoreServer({ port: 0, serviceUrl: `${SERVICE}/` });
    try {
      expect(store.origins).toEqual([`http://127.0.0.1:${store.port}`, `http://localhost:${store.port}`]);
      const html = await (await fetch(`${store.url}/`)).text();
      expect(html).toContain(`'${SERVICE}/sdk/loader.js'`);
    } finally {
      await store.close();
    }
  });
});

describe('the cart (issue 20), over HTTP', () => {
  let store: StoreServer;
  beforeAll(async () => {
    store = await startStoreServer({ port: 0, serviceUrl: SERVICE });
  });
  afterAll(() => store.close());

  /** One visitor: a cookie jar of one cookie. */
  const visitor = () => {
    let cookie = '';
    const call = async (method: string, path: string, body?: string, type = 'application/json') => {
      const headers: Record<string, string> = {};
      if (cookie) headers.cookie = cookie;
      if (body !== undefined) headers['content-type'] = type;
      const res = await fetch(`${store.url}${path}`, { method, headers, body });
      const set = res.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0];
      const text = await res.text();
      return {
        status: res.status,
        setCookie: set,
        body: text && type !== 'text/html' ? tryJson(text) : text,
      };
    };
    return {
      call,
      add: (body: unknown) => call('POST', '/cart/items', JSON.stringify(body)),
      cart: async () => (await call('GET', '/cart')).body as CartView,
      setCookie: (value: string) => {
        cookie = value;
      },
    };
  };
  const tryJson = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };

  it('adds by SKU and by the catalog URL, counts pieces, and keeps one cart per visitor in an HttpOnly cookie', async () => {
    const ada = visitor();
    expect(await ada.cart()).toEqual({ items: [], count: 0, total: '€0.00' });
    const first = await ada.add({ id: 'STR-TEMPO-3' });
    expect(first.status).toBe(201);
    expect(first.setCookie).toMatch(/^store_cart=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(
      (await ada.add({ url: 'https://demo-store.example/p/strider-tempo-3', quantity: 2 })).body,
    ).toMatchObject({
      count: 3,
    });
    expect((await ada.add({ id: 'nl-merino-blk' })).status).toBe(201);
    expect(await ada.cart()).toEqual({
      items: [
        {
          id: 'STR-TEMPO-3',
          name: 'Strider Tempo 3',
          url: '/product.html?id=STR-TEMPO-3',
          price: '€119.00',
          quantity: 3,
        },
        {
          id: 'NL-MERINO-BLK',
          name: 'Northline Merino Tee, black',
          url: '/product.html?id=NL-MERINO-BLK',
          price: '€49.00',
          quantity: 1,
        },
      ],
      count: 4,
      total: '€406.00',
    });
    // The header shows the count on every page.
    expect(await ada.call('GET', '/', undefined, 'text/html').then((r) => r.body)).toContain(
      'Cart (<span data-cart-count>4</span>)',
    );
    // Another visitor has their own (empty) cart.
    expect((await visitor().cart()).count).toBe(0);
    // Emptied with DELETE.
    expect((await ada.call('DELETE', '/cart')).status).toBe(204);
    expect((await ada.cart()).count).toBe(0);
  });

  it('refuses a product that is out of stock with 409, and the cart stays as it was', async () => {
    const bo = visitor();
    await bo.add({ id: 'PF-EASY' });
    const refused = await bo.add({ id: 'STR-RACE-2' });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { code: 'out_of_stock', message: 'Strider Race Flat 2 is out of stock.' } },
    });
    expect((await bo.cart()).items.map((i) => i.id)).toEqual(['PF-EASY']);
  });

  it.each([
    ['an unknown product', { id: 'NO-SUCH-SKU' }, 404, 'unknown_product'],
    ['an unknown URL', { url: 'https://evil.example/p/strider-tempo-3' }, 404, 'unknown_product'],
    ['neither id nor url', { quantity: 1 }, 400, 'invalid_request'],
    ['a quantity of 0', { id: 'PF-EASY', quantity: 0 }, 400, 'invalid_request'],
    ['a fractional quantity', { id: 'PF-EASY', quantity: 1.5 }, 400, 'invalid_request'],
    ['a quantity of 100', { id: 'PF-EASY', quantity: 100 }, 400, 'invalid_request'],
    ['a quantity as text', { id: 'PF-EASY', quantity: '2' }, 400, 'invalid_request'],
    ['an id of the wrong type', { id: ['PF-EASY'] }, 400, 'invalid_request'],
    ['an unknown field', { id: 'PF-EASY', price: '0.01' }, 400, 'invalid_request'],
  ])('refuses %s', async (_, body, status, code) => {
    const eve = visitor();
    const res = await eve.add(body);
    expect(res).toMatchObject({ status, body: { error: { code } } });
    expect(res.setCookie).toBeNull();
    expect((await eve.cart()).count).toBe(0);
  });

  it('refuses hostile bodies with a clear error: huge (64 KB against a 4 KB cap), not JSON, malformed JSON, __proto__', async () => {
    const eve = visitor();
    const huge = await eve.call(
      'POST',
      '/cart/items',
      JSON.stringify({ id: 'PF-EASY', pad: 'x'.repeat(64_000) }),
    );
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'body_too_large' } } });
    expect(
      await eve.call('POST', '/cart/items', 'id=PF-EASY', 'application/x-www-form-urlencoded'),
    ).toMatchObject({
      status: 415,
      body: { error: { code: 'unsupported_media_type' } },
    });
    expect(await eve.call('POST', '/cart/items', '{"id":"PF-EASY",')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_json' } },
    });
    const proto = await eve.call('POST', '/cart/items', '{"id":"PF-EASY","__proto__":{"polluted":true}}');
    expect(proto).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await eve.cart()).count).toBe(0);
  });

  it('caps one product at 99 pieces', async () => {
    const max = visitor();
    expect((await max.add({ id: 'PF-EASY', quantity: 99 })).status).toBe(201);
    expect(await max.add({ id: 'PF-EASY' })).toMatchObject({
      status: 409,
      body: { error: { code: 'quantity_limit' } },
    });
    expect((await max.cart()).count).toBe(99);
  });

  it('gives a forged or stale cookie no cart: the next add starts a new one under a new cookie', async () => {
    const mallory = visitor();
    mallory.setCookie('store_cart=00000000000000000000000000000000');
    expect((await mallory.cart()).count).toBe(0);
    const added = await mallory.add({ id: 'PF-EASY' });
    expect(added.setCookie).toMatch(/^store_cart=[0-9a-f]{32};/);
    expect(added.setCookie).not.toContain('00000000000000000000000000000000');
  });
});

describe('createCart()', () => {
  it('keeps at most maxCarts carts, dropping the least recently used', async () => {
    const cart = createCart({ maxCarts: 2 });
    const add = (cookie = '') =>
      cart.routes.request('/cart/items', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: '{"id":"PF-EASY"}',
      });
    const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0];
    const count = async (cookie: string) =>
      ((await (await cart.routes.request('/cart', { headers: { cookie } })).json()) as CartView).count;
    const a = cookieOf(await add());
    const b = cookieOf(await add());
    await add(a); // a is now the most recently used
    const c = cookieOf(await add());
    expect([await count(a), await count(b), await count(c)]).toEqual([2, 0, 1]);
  });
});

describe('product pages (issue 20)', () => {
  it('serves a page per catalog product, with the product as the page context wants it', async () => {
    const res = await app.request('/product.html?id=NL-MERINO-BLK');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Northline Merino Tee, black · Ridgeline Outfitters</title>');
    expect(html).toContain('<p class="price">€49.00</p>');
    expect(html).toContain('data-add-to-cart data-id="NL-MERINO-BLK"');
    // The other colour of its group, linked.
    expect(html).toContain('<a href="/product.html?id=NL-MERINO-NVY">Navy, L</a>');
    const attribute = /data-product="([^"]*)"/.exec(html)?.[1] ?? '';
    const json = attribute
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    expect(JSON.parse(json)).toEqual({
      id: 'NL-MERINO-BLK',
      url: 'https://demo-store.example/p/northline-merino-tee-black',
      name: 'Northline Merino Tee, black',
      price: '€49.00',
      description: 'Soft 150 g merino wool t-shirt that stays fresh for days on the trail.',
    });
    expect(html).toContain('window.Service.setPageContext(context)');
    expect(html).not.toMatch(/%[A-Z_]+%|#include/);
  });

  it('names a variant of a size group by its size, and a product range "from"', async () => {
    const lumo = await (await app.request('/product.html?id=STR-LUMO-42')).text();
    expect(lumo).toContain('<a aria-current="page" href="/product.html?id=STR-LUMO-42">Size 42</a>');
    expect(lumo).toContain('<a href="/product.html?id=STR-LUMO-44">Size 44</a>');
    expect(await (await app.request('/product.html?id=RW-HILLWALKER')).text()).toContain(
      '<p class="price">from €99.00</p>',
    );
  });

  it('answers 404 for an unknown id, without echoing it', async () => {
    for (const id of ['', 'NOPE', '<script>alert(1)</script>', '../package.json']) {
      const res = await app.request(`/product.html?id=${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(404);
      const html = await res.text();
      expect(html).toContain('No such product');
      expect(html).not.toContain('<script>alert(1)');
    }
  });

  it('links every catalog product from the front page', async () => {
    const html = await (await app.request('/')).text();
    const links = [...html.matchAll(/href="\/product\.html\?id=([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(links)).toEqual(new Set(CATALOG.map((p) => p.sku)));
    for (const p of CATALOG) expect((await app.request(`/product.html?id=${p.sku}`)).status, p.sku).toBe(200);
  });

  it('serves the cart page and the help page with the chat inline in #chat', async () => {
    const cart = await (await app.request('/cart.html')).text();
    expect(cart).toContain('data-cart-items');
    const help = await (await app.request('/help.html')).text();
    expect(help).toContain('<div id="chat" class="chat-container"></div>');
    expect(help.indexOf("window.serviceSettings.container = '#chat';")).toBeGreaterThan(
      help.indexOf('window.serviceSettings = settings'),
    );
    expect(help.indexOf("window.serviceSettings.container = '#chat';")).toBeLessThan(
      help.indexOf("addEventListener('load', later)"),
    );
  });
});
