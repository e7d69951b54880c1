// @vitest-environment node
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOX_CSP, inboxPageRoutes } from './inbox-page';

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'inbox-'));
  mkdirSync(join(dist, 'inbox', 'assets'), { recursive: true });
  mkdirSync(join(dist, 'server'));
  writeFileSync(join(dist, 'inbox', 'assets', 'inbox.js'), 'console.log("inbox")');
  writeFileSync(join(dist, 'inbox', 'assets', 'inbox.css'), 'body{}');
  writeFileSync(join(dist, 'inbox', 'assets', 'notes.txt'), 'x');
  writeFileSync(join(dist, 'server', 'cli.js'), 'secret');
});

// Mounted as the service mounts it.
const page = () => new Hono().route('/', inboxPageRoutes(dist));

describe('GET /inbox', () => {
  it('serves the shell with its own script and stylesheet and no data, under a strict CSP', async () => {
    const res = await page().request('/inbox');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'self'; img-src 'self' https: http:; style-src 'self'; script-src 'self'; " +
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(res.headers.get('content-security-policy')).toBe(INBOX_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/inbox/assets/inbox.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/inbox/assets/inbox.css">');
    // Nothing inline for the CSP to block: one script element, with a src; no style element or attribute.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  it('answers /inbox/ the same', async () => {
    const res = await page().request('/inbox/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(INBOX_CSP);
  });
});

describe('GET /inbox/assets/{file}', () => {
  it.each([
    ['inbox.js', 'text/javascript; charset=utf-8', 'console.log("inbox")'],
    ['inbox.css', 'text/css; charset=utf-8', 'body{}'],
  ])('serves %s from dist/inbox/assets', async (file, type, body) => {
    const res = await page().request(`/inbox/assets/${file}`);
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
    '..%2Fassets%2Finbox.js',
    '%2E%2E%2Fserver%2Fcli.js',
    '.hidden.js',
  ])('answers 404 for %s', async (file) => {
    const res = await page().request(`/inbox/assets/${file}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No such file.' } });
  });
});
