// @vitest-environment node
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createStoreApp, findPackageRoot, startStoreServer } from './store-server';

const SERVICE = 'http://127.0.0.1:8787';
const app = createStoreApp({ rootDir: findPackageRoot(), getServiceUrl: () => SERVICE });

const noncesIn = (html: string) => [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);

describe('store pages', () => {
  it('serves / with the loader tag pointing at the service and the settings script inlined', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`<script async src="${SERVICE}/sdk/loader.js" data-widget-id="demo"`);
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
      expect(html).toContain(`src="${SERVICE}/sdk/loader.js"`);
    } finally {
      await store.close();
    }
  });
});
