// @vitest-environment node
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyCap } from './body-cap';

// The body cap decides a sized body from its Content-Length and counts a chunked one as it arrives (Hono's bodyLimit).

let server: ReturnType<typeof serve>;
let port: number;
beforeAll(async () => {
  const app = new Hono();
  app.use(bodyCap({ maxSize: 100, onError: (c) => c.text('too large', 413) }));
  app.post('/echo', async (c) => c.text(`got ${(await c.req.text()).length}`));
  app.get('/echo', (c) => c.text('get'));
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((done) => server.close(() => done(undefined))));

/** A request over node:http: with `chunks`, the body goes out chunked (no Content-Length). */
function send(method: string, body?: string, chunks?: string[]) {
  return new Promise<{ status: number; body: string }>((ok, fail) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/echo',
        method,
        headers: body === undefined ? {} : { 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', fail);
    if (chunks) for (const chunk of chunks) req.write(chunk);
    req.end(body);
  });
}

describe('bodyCap()', () => {
  it('lets a body within the cap through, from its Content-Length', async () => {
    expect(await send('POST', 'x'.repeat(100))).toEqual({ status: 200, body: 'got 100' });
  });

  it('attack: refuses a body whose Content-Length is over the cap, before reading it', async () => {
    expect(await send('POST', 'x'.repeat(101))).toEqual({ status: 413, body: 'too large' });
  });

  it('attack: refuses a chunked body (no Content-Length) once it grows past the cap, and passes a small one', async () => {
    expect(await send('POST', undefined, ['x'.repeat(60), 'x'.repeat(60)])).toEqual({
      status: 413,
      body: 'too large',
    });
    expect(await send('POST', undefined, ['x'.repeat(30), 'x'.repeat(30)])).toEqual({
      status: 200,
      body: 'got 60',
    });
  });

  it('passes a GET', async () => {
    expect(await send('GET')).toEqual({ status: 200, body: 'get' });
  });
});
