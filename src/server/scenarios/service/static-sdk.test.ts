// @vitest-environment node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { makeTestDist, rawGet, WIDGET } from '../../testing/test-dist';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  widgets: [{ id: 'demo', allowedOrigins: ['*'] }],
});
if (!config.ok) throw new Error(config.error);

let service: RunningService;
let dist: string;
beforeAll(async () => {
  dist = makeTestDist();
  service = await startService({ config: config.value, port: 0, distDir: dist });
});
afterAll(() => service.close());

const get = (path: string, headers: Record<string, string> = {}) => rawGet(service.url, path, headers);

describe('GET /sdk/* encodings', () => {
  it('sends the brotli file the build wrote when the client takes br, byte for byte', async () => {
    const res = await get('/sdk/widget.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.equals(readFileSync(join(dist, 'widget.js.br')))).toBe(true);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('sends gzip to a client without brotli, and to one that refuses br with q=0', async () => {
    for (const accept of ['gzip', 'gzip, br;q=0', 'br;q=0.1, gzip;q=0.9']) {
      const res = await get('/sdk/widget.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.body.equals(readFileSync(join(dist, 'widget.js.gz'))), accept).toBe(true);
    }
  });

  it('sends the plain file without Accept-Encoding or when every encoding is refused, still with Vary', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', '*;q=0']) {
      const res = await get('/sdk/widget.js', accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.body.toString(), accept).toBe(WIDGET);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
    }
  });
});

describe('GET /sdk/* validators and caching', () => {
  it('gives each encoding its own ETag and answers 304 without a body to a matching If-None-Match', async () => {
    const br = await get('/sdk/widget.js', { 'accept-encoding': 'br' });
    const gz = await get('/sdk/widget.js', { 'accept-encoding': 'gzip' });
    const plain = await get('/sdk/widget.js');
    const tags = [br, gz, plain].map((r) => r.headers.etag);
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Set(tags).size).toBe(3);

    const again = await get('/sdk/widget.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers['cache-control']).toBe('public, no-cache');
    expect(again.headers.vary).toBe('Accept-Encoding');

    // The brotli tag does not validate the gzip form.
    const other = await get('/sdk/widget.js', {
      'accept-encoding': 'gzip',
      'if-none-match': br.headers.etag!,
    });
    expect(other.status).toBe(200);
    expect(other.body.equals(readFileSync(join(dist, 'widget.js.gz')))).toBe(true);
  });

  it('caches content-hashed chunks for a year and revalidates the stable names', async () => {
    const chunk = await get('/sdk/chunks/mount-BXb58IcT.js', { 'accept-encoding': 'br' });
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const name of ['loader.js', 'widget.js']) {
      const res = await get(`/sdk/${name}`, { 'accept-encoding': 'br' });
      expect(res.headers['cache-control'], name).toBe('public, no-cache');
    }
  });

  it('lets any page load the files as module scripts (CORS, cross-origin resource policy, nosniff)', async () => {
    const res = await get('/sdk/loader.js', { origin: 'https://shop.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
