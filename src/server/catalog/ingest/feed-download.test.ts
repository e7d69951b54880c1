// @vitest-environment node
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFeed, type FeedDownloadOptions } from './feed-download';

// Downloads from a real local feed server: the body lands on disk byte for byte, and every way a download fails is
// reported with the text the feed's report shows.

const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
let server: Server;
let base: string;
let dir: string;
const options: FeedDownloadOptions = { allowHttpLoopback: true, maxBytes: 1_000_000, timeoutMs: 5_000 };

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'feed-download-test-'));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
const file = () => join(dir, `${++n}.json`);

describe('downloadFeed()', () => {
  it('stores the body byte for byte, multi-byte characters cut across writes included, with the token sent as is', async () => {
    const body = Buffer.from(
      '[{"name":"caf\u00e9 \u2615 \\"quoted\\"","x":"<script>alert(1)</script>"}]\n',
      'utf8',
    );
    let authorization: string | undefined;
    routes.set('/ok.json', (req, res) => {
      authorization = req.headers.authorization;
      res.writeHead(200, { 'content-type': 'application/json' });
      // One byte at a time: a character's bytes arrive in separate writes.
      let i = 0;
      const next = () => (i < body.length ? res.write(body.subarray(i, ++i), next) : res.end());
      next();
    });
    const target = file();
    expect(await downloadFeed({ url: `${base}/ok.json`, token: 'Token s3cret' }, target, options)).toEqual({
      ok: true,
    });
    expect(await readFile(target)).toEqual(body);
    expect(authorization).toBe('Token s3cret');
  });

  it('sends no Authorization header without a token', async () => {
    let seen: string | undefined = 'unset';
    routes.set('/open.json', (req, res) => {
      seen = req.headers.authorization;
      res.writeHead(200).end('[]');
    });
    expect(await downloadFeed({ url: `${base}/open.json` }, file(), options)).toEqual({ ok: true });
    expect(seen).toBeUndefined();
  });

  it('fails a body over the byte cap, whether it says so in content-length or grows past it', async () => {
    routes.set('/declared.json', (_req, res) =>
      res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)),
    );
    routes.set('/growing.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
      res.end();
    });
    const small = { ...options, maxBytes: 4000 };
    for (const path of ['/declared.json', '/growing.json']) {
      expect(await downloadFeed({ url: `${base}${path}` }, file(), small)).toEqual({
        ok: false,
        error: 'the feed is larger than 4000 bytes',
      });
    }
  });

  it('fails an HTTP error status, a connection cut halfway and a server that stalls past the deadline', async () => {
    routes.set('/down.json', (_req, res) => res.writeHead(503).end('busy'));
    routes.set('/cut.json', (_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('[{"name":"half');
      setTimeout(() => res.destroy(), 20);
    });
    routes.set('/stall.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    });
    expect(await downloadFeed({ url: `${base}/down.json` }, file(), options)).toEqual({
      ok: false,
      error: 'the feed answered HTTP 503',
    });
    expect(await downloadFeed({ url: `${base}/cut.json` }, file(), options)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^network: /),
    });
    expect(
      await downloadFeed({ url: `${base}/stall.json` }, file(), { ...options, timeoutMs: 300 }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^timeout: /),
    });
  });

  it('refuses SSRF targets and non-http urls before any request', async () => {
    const strict = { ...options, allowHttpLoopback: false };
    for (const url of [`${base}/ok.json`, 'https://127.0.0.1/feed.json', 'https://169.254.169.254/latest']) {
      expect(await downloadFeed({ url }, file(), strict)).toMatchObject({ ok: false });
    }
    expect(await downloadFeed({ url: 'javascript:alert(1)' }, file(), options)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^(invalid_url|scheme_not_allowed): /),
    });
  });

  it('reports a file it cannot write as its own error', async () => {
    routes.set('/fine.json', (_req, res) => res.writeHead(200).end('[]'));
    expect(
      await downloadFeed({ url: `${base}/fine.json` }, join(dir, 'missing', 'x.json'), options),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the feed could not be stored/),
    });
  });
});
