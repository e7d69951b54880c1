// @vitest-environment node
import { Hono } from 'hono';
import { type RequestIdVariables, requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { createLogger, type LogLevel } from '../platform/logger';
import { requestIdOf, requestLog } from './request-log';

/** A small app with the service's request id and access line, and the kinds of answer the service gives. */
function loggedApp(level: LogLevel = 'info') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, write: (line) => lines.push(JSON.parse(line)) });
  let background: Promise<void> = Promise.resolve();
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId({ headerName: '', generator: requestIdOf }), requestLog(logger));
  app.get('/json', (c) => {
    logger.warn('inside the handler');
    // Work that goes on after the answer (a turn): its lines belong to the request too.
    background = new Promise<void>((done) => setTimeout(done, 10)).then(() =>
      logger.info('after the answer'),
    );
    return c.json({ ok: true });
  });
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', (c) => c.json({ ready: false }, 503));
  app.get('/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  app.get('/stream', () => new Response(new ReadableStream({ start: (s) => s.close() })));
  app.get('/preview/:token/config', (c) => c.json({ ok: true }));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.onError((e, c) => {
    logger.error('unhandled', { error: e.message });
    return c.json({ error: 'internal' }, 500);
  });
  return { app, lines, background: () => background };
}

describe('requestLog()', () => {
  it('keeps a well-formed x-request-id from the caller and answers it', async () => {
    const { app, lines } = loggedApp();
    for (const id of ['a', 'req-42.retry_1', 'x'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e']) {
      const res = await app.request('/json', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(lines.at(-1)).toMatchObject({ msg: 'request', reqId: id, status: 200 });
    }
  });

  it('replaces a malformed or too long x-request-id with a new one (log injection, header splitting)', async () => {
    const { app } = loggedApp();
    const seen = new Set<string>();
    for (const id of ['', 'x'.repeat(129), 'a b', 'a=b', 'a/b', '{"level":"fatal"}', 'é', 'a\tb']) {
      const res = await app.request('/json', { headers: { 'x-request-id': id } });
      const answered = res.headers.get('x-request-id') ?? '';
      expect(answered, JSON.stringify(id)).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      seen.add(answered);
    }
    expect(seen.size).toBe(8);
  });

  it('makes an id for a request without one, different each time, on every kind of answer', async () => {
    const { app } = loggedApp();
    const ids = [];
    for (const path of ['/json', '/raw', '/stream', '/boom', '/nowhere']) {
      const res = await app.request(path);
      ids.push(res.headers.get('x-request-id'));
    }
    expect(ids).toEqual(ids.map(() => expect.stringMatching(/^[0-9a-f-]{36}$/)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts the id on every line of the request: the handler, the error handler, work after the answer, the access line', async () => {
    const { app, lines, background } = loggedApp();
    await app.request('/json', { headers: { 'x-request-id': 'one' } });
    await background();
    await app.request('/boom', { headers: { 'x-request-id': 'two' } });
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['inside the handler', 'one'],
      ['request', 'one'],
      ['after the answer', 'one'],
      ['unhandled', 'two'],
      ['request', 'two'],
    ]);
    expect(lines[1]).toMatchObject({ method: 'GET', path: '/json', status: 200 });
    expect(lines[4]).toMatchObject({ status: 500 });
    expect(typeof lines[1].ms).toBe('number');
  });

  it("writes a preview's path without its token", async () => {
    const { app, lines } = loggedApp();
    const token = 'pv_Qm9vZm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg';
    expect((await app.request(`/preview/${token}/config`)).status).toBe(200);
    expect(lines.at(-1)?.path).toBe('/preview/pv_[redacted]/config');
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('at debug, logs the headers that came in with their credentials redacted', async () => {
    const { app, lines } = loggedApp('debug');
    const secrets = [
      'Bearer key-1234567890',
      'sid=cookie-secret',
      'pv_Qm9vZm9vYmFyYmF6cXV4',
      'proxy-secret',
      'api-secret',
    ];
    await app.request('/raw', {
      headers: {
        authorization: secrets[0],
        cookie: secrets[1],
        referer: `https://svc.test/preview/${secrets[2]}/x`,
        'proxy-authorization': secrets[3],
        'x-api-key': secrets[4],
        origin: 'https://shop.test',
      },
    });
    const received = lines.find((l) => l.msg === 'request received');
    expect(received).toMatchObject({
      method: 'GET',
      path: '/raw',
      headers: { authorization: '[redacted]', cookie: '[redacted]', origin: 'https://shop.test' },
    });
    for (const secret of secrets) expect(JSON.stringify(lines)).not.toContain(secret);
    expect(received?.reqId).toBe(lines.find((l) => l.msg === 'request')?.reqId);
  });

  it("writes a probe's access line at debug when it is answered well, at info when it fails", async () => {
    const info = loggedApp('info');
    await info.app.request('/healthz');
    await info.app.request('/readyz');
    await info.app.request('/json');
    expect(info.lines.filter((l) => l.msg === 'request').map((l) => [l.path, l.status])).toEqual([
      ['/readyz', 503],
      ['/json', 200],
    ]);
    const debug = loggedApp('debug');
    await debug.app.request('/healthz');
    expect(debug.lines.find((l) => l.msg === 'request')).toMatchObject({ level: 'debug', path: '/healthz' });
  });
});
