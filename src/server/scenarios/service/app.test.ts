// @vitest-environment node
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { parseConfig } from '../../config/service-config';
import { silentLogger } from '../../platform/logger';
import { openRuntime, type Runtime } from '../../runtime';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  widgets: [
    { id: 'demo', allowedOrigins: ['http://shop.test'], greeting: 'Hello there', themeColor: '#112233' },
    { id: 'open', allowedOrigins: ['*'] },
    {
      id: 'shop',
      allowedOrigins: ['*'],
      cart: true,
      starters: ['Where is my order?', 'Do you ship abroad?'],
      themeMode: 'dark',
    },
  ],
});
if (!config.ok) throw new Error(config.error);

let dist: string;
let runtime: Runtime;
afterAll(() => runtime.close());
beforeAll(async () => {
  runtime = await openRuntime({ config: config.value, logger: silentLogger });
  dist = mkdtempSync(join(tmpdir(), 'sdk-'));
  mkdirSync(join(dist, 'chunks'));
  mkdirSync(join(dist, 'server'));
  writeFileSync(join(dist, 'loader.js'), 'console.log(1)');
  writeFileSync(join(dist, 'chunks', 'a-AbCd1234.js'), 'export {}');
  writeFileSync(join(dist, 'server', 'cli.js'), 'secret');
  writeFileSync(join(dist, 'notes.txt'), 'x');
});

const app = () => createApp({ config: config.value, distDir: dist, maxBodyBytes: 1024, runtime });

describe('GET /v0/widget/:id/config', () => {
  it("answers the widget's presentation config to an allowed origin with CORS headers", async () => {
    const res = await app().request('/v0/widget/demo/config', { headers: { origin: 'http://shop.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://shop.test');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(await res.json()).toEqual({
      title: 'Shopping assistant',
      greeting: 'Hello there',
      theme: { color: '#112233' },
      launcherPosition: 'bottom-right',
      linkTarget: '_self',
      hideUrls: [],
      cart: false,
      starters: [],
    });
  });

  it('answers cart, starters and theme.mode as the config sets them (issue 20)', async () => {
    const res = await app().request('/v0/widget/shop/config');
    expect(await res.json()).toMatchObject({
      theme: { color: '#1f6feb', mode: 'dark' },
      cart: true,
      starters: ['Where is my order?', 'Do you ship abroad?'],
    });
  });

  it('refuses a browser request from an origin the widget does not allow, readably for that page', async () => {
    const res = await app().request('/v0/widget/demo/config', { headers: { origin: 'http://evil.test' } });
    expect(res.status).toBe(403);
    // Issue 36: the page's widget reads the refusal and tells its developer which setting to change.
    expect(res.headers.get('access-control-allow-origin')).toBe('http://evil.test');
    expect(await res.json()).toEqual({
      error: {
        code: 'origin_not_allowed',
        message:
          "this page's origin http://evil.test is not in the widget's allowedOrigins: add it to the widget's config",
      },
    });
  });

  it("answers that origin's preflight, so its POST meets the readable 403 and no handler", async () => {
    const pre = await app().request('/v0/widget/demo/conversations', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://evil.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    const post = await app().request('/v0/widget/demo/conversations', {
      method: 'POST',
      headers: { origin: 'http://evil.test', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(403);
    expect(await post.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
  });

  it('answers a CORS preflight from an allowed origin and any origin for a "*" widget', async () => {
    const pre = await app().request('/v0/widget/demo/config', {
      method: 'OPTIONS',
      headers: { origin: 'http://shop.test', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    const open = await app().request('/v0/widget/open/config', {
      headers: { origin: 'http://anything.test' },
    });
    expect(open.status).toBe(200);
  });

  it('answers 404 with the error shape for an unknown widget, including hostile ids', async () => {
    for (const id of ['nope', '%3Cscript%3E', '..%2F..%2Fetc']) {
      const res = await app().request(`/v0/widget/${id}/config`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'unknown_widget' } });
    }
  });
});

describe('GET /sdk/*', () => {
  it('serves the built scripts with a JS type, CORS for module loading, and immutable caching for chunks', async () => {
    const loader = await app().request('/sdk/loader.js');
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(loader.headers.get('access-control-allow-origin')).toBe('*');
    expect(await loader.text()).toBe('console.log(1)');
    const chunk = await app().request('/sdk/chunks/a-AbCd1234.js');
    expect(chunk.headers.get('cache-control')).toContain('immutable');
  });

  it('refuses path traversal, the server bundle and files of other types', async () => {
    for (const p of [
      '/sdk/../package.json',
      '/sdk/%2e%2e/%2e%2e/etc/passwd',
      '/sdk/server/cli.js',
      '/sdk/notes.txt',
    ]) {
      const res = await app().request(p);
      expect(res.status, p).toBe(404);
    }
  });
});

describe('request limits', () => {
  it('answers 413 with the error shape for a body over the cap', async () => {
    const res = await app().request('/v0/widget/open/config', {
      method: 'POST',
      body: 'x'.repeat(5000),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await app().request('/nothing/here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('GET /favicon.ico', () => {
  it('answers 204 (no icon), so the pages the service serves log no 404 in the browser', async () => {
    const res = await app().request('/favicon.ico');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});
