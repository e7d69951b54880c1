// @vitest-environment node
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { directStream, withDirectStreams } from './direct-streams';

// Issue 32 item 4: an event stream writes to its socket, after every middleware has seen its response.

const servers: ReturnType<typeof serve>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.close();
    if ('closeAllConnections' in s) s.closeAllConnections();
  }
});

async function listen(app: Hono, wrap = true): Promise<string> {
  const server = serve({
    fetch: wrap ? withDirectStreams(app.fetch) : app.fetch,
    port: 0,
    hostname: '127.0.0.1',
  });
  servers.push(server);
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A GET (or HEAD) read to its end over node:http: status, headers, body. */
function request(url: string, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((ok, fail) => {
    http
      .request(url, { method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', fail)
      .end();
  });
}

/** An app whose `/stream` writes two lines itself, behind a middleware that adds a header after the route. */
function streamingApp(log: string[]) {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    c.header('x-after-route', 'yes');
  });
  app.get('/stream', (c) => {
    c.header('content-type', 'text/event-stream');
    const direct = directStream(c);
    if (!direct) return c.text('no socket', 500);
    void direct.ready.then((ready) => {
      log.push(`ready ${ready}`);
      if (!ready) return;
      direct.outgoing.write('one\n');
      setTimeout(() => direct.outgoing.end('two\n'), 20);
    });
    return direct.response;
  });
  return app;
}

describe('withDirectStreams()', () => {
  it('sends the headers every middleware set, the ones set after the route too, then what the route writes', async () => {
    const log: string[] = [];
    const url = await listen(streamingApp(log));
    const got = await request(`${url}/stream`);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/event-stream');
    expect(got.headers['x-after-route']).toBe('yes');
    // The marker that tells the wrapper the response is still the route's never reaches the client.
    expect(Object.keys(got.headers).filter((h) => h.includes('direct'))).toEqual([]);
    expect(got.body).toBe('one\ntwo\n');
    expect(log).toEqual(['ready true']);
  });

  it('tells the route not to write when a middleware answered something else, and sends that answer', async () => {
    const log: string[] = [];
    const app = streamingApp(log);
    const outer = new Hono();
    outer.use(async (c, next) => {
      await next();
      c.res = new Response('replaced', { status: 503 });
    });
    outer.route('/', app);
    const url = await listen(outer);
    const got = await request(`${url}/stream`);
    expect(got).toMatchObject({ status: 503, body: 'replaced' });
    expect(log).toEqual(['ready false']);
  });

  it('answers a HEAD with the headers alone and tells the route not to write', async () => {
    const log: string[] = [];
    const url = await listen(streamingApp(log));
    const got = await request(`${url}/stream`, 'HEAD');
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('text/event-stream');
    expect(got.body).toBe('');
    expect(log).toEqual(['ready false']);
  });

  it('gives a route no socket where the app is served without the wrapper (it streams through Hono then)', async () => {
    const url = await listen(streamingApp([]), false);
    expect(await request(`${url}/stream`)).toMatchObject({ status: 500, body: 'no socket' });
  });
});
