// @vitest-environment node
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  okText,
  type RecordingServer,
  SSRF_CASES,
  STAND_IN_PUBLIC_ADDRESS,
  startRecordingServer,
  testCertificate,
} from '../../testing/test-servers';
import {
  type GuardedFetchOptions,
  GuardedStreamError,
  guardedStream,
  type ResolveHost,
} from './guarded-fetch';

// guardedStream shares guardedFetch's checks and redirect loop (those are proven in guarded-fetch.test.ts); these
// tests cover what differs: the body arrives as a stream, a byte cap is an error, the deadline runs while it is read.

let tls: RecordingServer;
let plain: RecordingServer;
let ca: string;

beforeAll(async () => {
  ca = (await testCertificate()).cert;
  [tls, plain] = await Promise.all([startRecordingServer('https'), startRecordingServer('http')]);
});
afterAll(async () => {
  await Promise.all([tls.close(), plain.close()]);
});
beforeEach(() => {
  for (const server of [tls, plain]) {
    server.requests.length = 0;
    server.respond = okText;
  }
});

const resolvePublic: ResolveHost = async () => [{ address: STAND_IN_PUBLIC_ADDRESS, family: 4 }];
const asPublicHost = {
  resolve: resolvePublic,
  dialForTests: (address: string) => (address === STAND_IN_PUBLIC_ADDRESS ? '127.0.0.1' : address),
};
const options = (over: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
  method: 'GET',
  headers: {},
  timeoutMs: 2000,
  maxBytes: 64 * 1024,
  allowHttpLoopback: false,
  ca,
  ...over,
});

/** Reads the whole body; the error it fails with, if any. */
async function drain(body: Readable): Promise<{ bytes: number; chunks: number; error?: unknown }> {
  let bytes = 0;
  let chunks = 0;
  try {
    for await (const chunk of body) {
      bytes += (chunk as Buffer).length;
      chunks++;
    }
    return { bytes, chunks };
  } catch (error) {
    return { bytes, chunks, error };
  }
}

/** Writes `count` chunks of `size` bytes, one per tick, without a content-length. */
const chunked =
  (count: number, size: number, gapMs = 0) =>
  (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      if (sent === count) return void res.end();
      sent++;
      res.write(Buffer.alloc(size, 0x61));
      setTimeout(next, gapMs);
    };
    next();
  };

describe('guardedStream()', () => {
  it('answers at the headers and streams the body, across redirects, with the same checks', async () => {
    tls.respond = (req, res) => {
      if (req.pathname === '/old') return void res.writeHead(301, { location: '/feed.json' }).end();
      chunked(10, 1000)(req, res);
    };
    const res = await guardedStream(`https://shop.test:${tls.port}/old`, options(asPublicHost));
    if (!res.ok) throw new Error(res.error.message);
    expect(res.value).toMatchObject({ status: 200, finalUrl: `https://shop.test:${tls.port}/feed.json` });
    expect(res.value.headers['content-type']).toBe('application/json');
    const read = await drain(res.value.body);
    expect(read).toEqual({ bytes: 10_000, chunks: expect.any(Number) });
    expect(tls.requests.map((r) => r.pathname)).toEqual(['/old', '/feed.json']);
  });

  it.each(SSRF_CASES.slice(0, 6))('refuses $url before connecting, as guardedFetch does', async ({ url }) => {
    const res = await guardedStream(url.replace('{port}', String(tls.port)), options());
    expect(res).toMatchObject({ ok: false, error: { code: 'address_not_allowed' } });
    expect(tls.requests).toHaveLength(0);
  });

  it('refuses a declared content-length over the cap before reading a byte', async () => {
    plain.respond = (_req, res) => {
      res.writeHead(200, { 'content-length': String(200_000) });
      res.end(Buffer.alloc(200_000));
    };
    const res = await guardedStream(
      `${plain.url}/big`,
      options({ allowHttpLoopback: true, maxBytes: 100_000 }),
    );
    expect(res).toEqual({
      ok: false,
      error: { code: 'too_large', message: 'the body is 200000 bytes, more than the 100000 allowed' },
    });
  });

  it('fails the stream with too_large when a body without a length grows past the cap, never a silent cut', async () => {
    plain.respond = chunked(50, 4096);
    const res = await guardedStream(
      `${plain.url}/big`,
      options({ allowHttpLoopback: true, maxBytes: 100_000 }),
    );
    if (!res.ok) throw new Error(res.error.message);
    const read = await drain(res.value.body);
    expect(read.error).toBeInstanceOf(GuardedStreamError);
    expect(read.error).toMatchObject({ code: 'too_large' });
    expect(read.bytes).toBeLessThanOrEqual(100_000);
  });

  it('keeps the deadline running while the body is read', async () => {
    plain.respond = chunked(100, 10, 50);
    const res = await guardedStream(
      `${plain.url}/slow`,
      options({ allowHttpLoopback: true, timeoutMs: 300 }),
    );
    if (!res.ok) throw new Error(res.error.message);
    const started = Date.now();
    const read = await drain(res.value.body);
    expect(read.error).toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails the stream with network when the connection drops before the body is complete', async () => {
    plain.respond = (_req, res) => {
      res.writeHead(200, { 'content-length': '5000' });
      res.write(Buffer.alloc(1000));
      setTimeout(() => res.destroy(), 20);
    };
    const res = await guardedStream(`${plain.url}/cut`, options({ allowHttpLoopback: true }));
    if (!res.ok) throw new Error(res.error.message);
    const read = await drain(res.value.body);
    expect(read).toMatchObject({ bytes: 1000, error: { code: 'network' } });
  });

  it('stops on the caller signal, and closes the connection when the consumer destroys the body', async () => {
    plain.respond = chunked(1000, 10, 5);
    const controller = new AbortController();
    const res = await guardedStream(
      `${plain.url}/long`,
      options({ allowHttpLoopback: true, signal: controller.signal }),
    );
    if (!res.ok) throw new Error(res.error.message);
    setTimeout(() => controller.abort(), 50);
    expect((await drain(res.value.body)).error).toMatchObject({ code: 'aborted' });

    const again = await guardedStream(`${plain.url}/long`, options({ allowHttpLoopback: true }));
    if (!again.ok) throw new Error(again.error.message);
    const closed = new Promise((ok) => again.value.body.once('close', ok));
    again.value.body.destroy();
    await closed;
    expect(again.value.body.destroyed).toBe(true);
  });
});
