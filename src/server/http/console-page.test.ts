// @vitest-environment node
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consolePageRoutes, PREVIEW_CSP } from './console-page';

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dist, 'console', 'assets'), { recursive: true });
  mkdirSync(join(dist, 'server'));
  writeFileSync(join(dist, 'console', 'assets', 'console.js'), 'console.log("console")');
  writeFileSync(join(dist, 'console', 'assets', 'console.css'), 'body{}');
  writeFileSync(join(dist, 'console', 'assets', 'notes.txt'), 'x');
  writeFileSync(join(dist, 'server', 'cli.js'), 'secret');
});

// Mounted as the service mounts it.
const page = () => new Hono().route('/', consolePageRoutes(dist));

describe('GET /console', () => {
  it('serves the shell with its own script and stylesheet and no data, under a strict CSP', async () => {
    const res = await page().request('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'self'; img-src 'self' https: http:; style-src 'self'; script-src 'self'; " +
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/console/assets/console.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/console/assets/console.css">');
    // Nothing inline for the CSP to block: one script element, with a src; no style element or attribute.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  it('answers /console/ the same', async () => {
    const res = await page().request('/console/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  });
});

describe("GET /console/preview, the chat preview's frame page", () => {
  it('may be framed by the console (same origin) only, runs its own script and nothing inline', async () => {
    const res = await page().request('/console/preview');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(PREVIEW_CSP);
    expect(PREVIEW_CSP).toContain("frame-ancestors 'self'");
    expect(PREVIEW_CSP).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/console/assets/preview-frame.js"></script>');
    expect(html).toContain('<div id="preview-chat"></div>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  it('leaves the console itself unframeable', async () => {
    const res = await page().request('/console');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe("GET /inbox, the console's old address", () => {
  it.each(['/inbox', '/inbox/', '/inbox/assets/inbox.js', '/inbox/anything?key=x'])(
    'redirects %s to /console, carrying nothing of the old path',
    async (path) => {
      const res = await page().request(path);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe('/console');
    },
  );
});

describe('GET /console/assets/{file}', () => {
  it.each([
    ['console.js', 'text/javascript; charset=utf-8', 'console.log("console")'],
    ['console.css', 'text/css; charset=utf-8', 'body{}'],
  ])('serves %s from dist/console/assets', async (file, type, body) => {
    const res = await page().request(`/console/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(body);
  });

  it.each([
    'missing.js',
    'notes.txt',
    '..%2F..%2Fserver%2Fcli.js',
    '..%2Fassets%2Fconsole.js',
    '%2E%2E%2Fserver%2Fcli.js',
    '.hidden.js',
  ])('answers 404 for %s', async (file) => {
    const res = await page().request(`/console/assets/${file}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No such file.' } });
  });
});
