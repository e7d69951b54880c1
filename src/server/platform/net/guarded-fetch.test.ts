// @vitest-environment node
import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  closedPort,
  okText,
  type RecordingServer,
  type Responder,
  SSRF_CASES,
  STAND_IN_PUBLIC_ADDRESS,
  startRecordingServer,
  testCertificate,
} from '../../testing/test-servers';
import { type GuardedFetchOptions, guardedFetch, type ResolveHost } from './guarded-fetch';

let tlsA: RecordingServer;
let tlsB: RecordingServer;
let plain: RecordingServer;
let ca: string;

beforeAll(async () => {
  ca = (await testCertificate()).cert;
  [tlsA, tlsB, plain] = await Promise.all([
    startRecordingServer('https'),
    startRecordingServer('https'),
    startRecordingServer('http'),
  ]);
});
afterAll(async () => {
  await Promise.all([tlsA.close(), tlsB.close(), plain.close()]);
});
beforeEach(() => {
  for (const server of [tlsA, tlsB, plain]) {
    server.requests.length = 0;
    server.respond = okText;
  }
});

/** `shop.test` stands for a public host: it resolves to a public address, and the socket dials 127.0.0.1 instead. */
const resolvePublic: ResolveHost = async (host) => {
  if (host === 'shop.test' || host === 'wrong.test') return [{ address: STAND_IN_PUBLIC_ADDRESS, family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const asPublicHost = {
  resolve: resolvePublic,
  dialForTests: (address: string) => (address === STAND_IN_PUBLIC_ADDRESS ? '127.0.0.1' : address),
};
const shop = (server: RecordingServer, path = '/') => `https://shop.test:${server.port}${path}`;

const options = (over: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
  method: 'GET',
  headers: {},
  timeoutMs: 1000,
  maxBytes: 64 * 1024,
  allowHttpLoopback: false,
  ca,
  ...over,
});

const redirectTo =
  (location: string, status = 302): Responder =>
  (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };

describe('guardedFetch(): requests it lets through', () => {
  it('fetches a public HTTPS host: SNI and Host name the host, the body comes back as UTF-8', async () => {
    tlsA.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"name":"Tasse ☕"}');
    };
    const res = await guardedFetch(shop(tlsA, '/orders/42?x=1'), options(asPublicHost));
    expect(res).toEqual({
      ok: true,
      value: expect.objectContaining({
        status: 200,
        body: '{"name":"Tasse ☕"}',
        truncated: false,
        finalUrl: shop(tlsA, '/orders/42?x=1'),
      }),
    });
    expect(tlsA.requests).toHaveLength(1);
    expect(tlsA.requests[0]).toMatchObject({
      method: 'GET',
      target: '/orders/42?x=1',
      servername: 'shop.test',
      headers: { host: `shop.test:${tlsA.port}`, 'accept-encoding': 'identity' },
    });
  });

  it('sends the method, headers and body it is given, with a content-length, and owns host and accept-encoding', async () => {
    const res = await guardedFetch(
      shop(tlsA, '/hook'),
      options({
        ...asPublicHost,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Custom': 'yes',
          Host: 'evil.test',
          'Accept-Encoding': 'gzip',
        },
        body: '{"a":"é"}',
      }),
    );
    expect(res.ok).toBe(true);
    expect(tlsA.requests[0]).toMatchObject({
      method: 'POST',
      body: '{"a":"é"}',
      headers: {
        'content-type': 'application/json',
        'x-custom': 'yes',
        'content-length': String(Buffer.byteLength('{"a":"é"}')),
        host: `shop.test:${tlsA.port}`,
        'accept-encoding': 'identity',
      },
    });
  });

  it('connects to the address it checked and never asks DNS again, so the answer cannot change in between', async () => {
    const resolve = vi.fn(resolvePublic);
    const res = await guardedFetch(shop(tlsA), options({ ...asPublicHost, resolve }));
    // Node's own lookup of shop.test would fail (no such name): the socket used the pinned, checked address.
    expect(res.ok).toBe(true);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('shop.test');
  });

  it('offers the socket every checked address, so a dead IPv6 route falls back to IPv4', async () => {
    const resolve: ResolveHost = async () => [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: STAND_IN_PUBLIC_ADDRESS, family: 4 },
    ];
    // The IPv6 address dials ::1, where nothing listens; the IPv4 one dials the server on 127.0.0.1.
    const dialForTests = (address: string) => (address.includes(':') ? '::1' : '127.0.0.1');
    const res = await guardedFetch(shop(tlsA), options({ resolve, dialForTests }));
    expect(res.ok).toBe(true);
    expect(tlsA.requests).toHaveLength(1);
  });

  it('checks the certificate against the hostname, not against the address it connects to', async () => {
    // The certificate is valid for 127.0.0.1, the address dialled, but not for wrong.test.
    const res = await guardedFetch(`https://wrong.test:${tlsA.port}/`, options(asPublicHost));
    expect(res).toMatchObject({ ok: false, error: { code: 'tls' } });
    expect(tlsA.requests).toHaveLength(0);
  });

  it('refuses a certificate no trusted CA signed', async () => {
    const res = await guardedFetch(shop(tlsA), options({ ...asPublicHost, ca: undefined }));
    expect(res).toMatchObject({ ok: false, error: { code: 'tls' } });
    expect(tlsA.requests).toHaveLength(0);
  });

  it('reaches loopback over https: and http: with allowHttpLoopback', async () => {
    const overTls = await guardedFetch(`${tlsA.url}/a`, options({ allowHttpLoopback: true }));
    const overHttp = await guardedFetch(`${plain.url}/b`, options({ allowHttpLoopback: true }));
    const viaIp = await guardedFetch(
      `https://127.0.0.1:${tlsA.port}/c`,
      options({ allowHttpLoopback: true }),
    );
    expect([overTls.ok, overHttp.ok, viaIp.ok]).toEqual([true, true, true]);
    expect(tlsA.requests.map((r) => r.target)).toEqual(['/a', '/c']);
    expect(plain.requests.map((r) => r.target)).toEqual(['/b']);
  });

  it('reports a refused connection as network', async () => {
    const port = await closedPort();
    const res = await guardedFetch(`http://127.0.0.1:${port}/`, options({ allowHttpLoopback: true }));
    expect(res).toMatchObject({ ok: false, error: { code: 'network' } });
  });

  it('reports a name that does not resolve as dns_failed', async () => {
    const res = await guardedFetch('https://nowhere.test/', options(asPublicHost));
    expect(res).toMatchObject({ ok: false, error: { code: 'dns_failed' } });
  });
});

describe('guardedFetch(): connections kept open (issue 32)', () => {
  it('sends calls to the same checked host on one connection, over https: and http:', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await guardedFetch(shop(tlsA, `/tls-${i}`), options(asPublicHost))).ok).toBe(true);
      expect((await guardedFetch(`${plain.url}/plain-${i}`, options({ allowHttpLoopback: true }))).ok).toBe(
        true,
      );
    }
    expect(new Set(tlsA.requests.map((r) => r.connection)).size).toBe(1);
    expect(new Set(plain.requests.map((r) => r.connection)).size).toBe(1);
  });

  it('reuses a connection only for the same checked addresses and the same trust', async () => {
    expect((await guardedFetch(shop(tlsA, '/a'), options(asPublicHost))).ok).toBe(true);
    // The same name checked to another public address: a connection of its own, though both dial this server.
    const elsewhere: ResolveHost = async () => [{ address: '93.184.215.15', family: 4 }];
    const other = await guardedFetch(
      shop(tlsA, '/b'),
      options({ resolve: elsewhere, dialForTests: () => '127.0.0.1' }),
    );
    expect(other.ok).toBe(true);
    const [a, b] = tlsA.requests;
    expect(b.connection).not.toBe(a.connection);
    expect(b.onConnectionBefore).toBe(0);
    // Without the CA the first connection trusted, the certificate is checked again, and refused.
    const untrusted = await guardedFetch(shop(tlsA, '/c'), options({ ...asPublicHost, ca: undefined }));
    expect(untrusted).toMatchObject({ ok: false, error: { code: 'tls' } });
    expect(tlsA.requests).toHaveLength(2);
  });

  it('sends a request once more on a connection of its own when the server drops the kept-open one', async () => {
    // The server answers a connection's first request and drops the connection on its second, as a server does that
    // closes an idle connection just as it is reused.
    tlsA.respond = (req, res) => {
      if (req.onConnectionBefore > 0) res.socket?.destroy();
      else okText(req, res);
    };
    // An address no other test checks, so that the first request opens a connection of its own.
    const own: Partial<GuardedFetchOptions> = {
      resolve: async () => [{ address: '93.184.215.16', family: 4 }],
      dialForTests: () => '127.0.0.1',
    };
    expect((await guardedFetch(shop(tlsA, '/first'), options(own))).ok).toBe(true);
    // A POST carrying the id the integrator deduplicates on: a second delivery is harmless.
    const withId = { ...own, method: 'POST', body: '{}', headers: { 'x-service-request-id': 'req-1' } };
    const again = await guardedFetch(shop(tlsA, '/second'), options(withId));
    expect(again).toMatchObject({ ok: true, value: { status: 200 } });
    // Dropped on the connection the first was answered on, then answered on one of its own.
    const second = tlsA.requests.filter((r) => r.target === '/second');
    expect(second.map((r) => r.onConnectionBefore)).toEqual([1, 0]);
    expect(second.map((r) => r.body)).toEqual(['{}', '{}']);
    // Without such an id a POST is not sent twice: the reset is the answer.
    expect((await guardedFetch(shop(tlsA, '/third'), options(own))).ok).toBe(true);
    const once = await guardedFetch(shop(tlsA, '/fourth'), options({ ...own, method: 'POST', body: '{}' }));
    expect(once).toMatchObject({ ok: false, error: { code: 'network' } });
    expect(tlsA.requests.filter((r) => r.target === '/fourth')).toHaveLength(1);
  });

  it('reuses a connection whatever order the resolver gives the same addresses in', async () => {
    let calls = 0;
    const rotating: ResolveHost = async () => {
      const both = [
        { address: '93.184.215.20', family: 4 },
        { address: '93.184.215.21', family: 4 },
      ];
      return calls++ % 2 ? both.reverse() : both;
    };
    const dial = { resolve: rotating, dialForTests: () => '127.0.0.1' };
    for (const path of ['/r1', '/r2', '/r3'])
      expect((await guardedFetch(shop(tlsA, path), options(dial))).ok).toBe(true);
    expect(tlsA.requests.map((r) => r.onConnectionBefore)).toEqual([0, 1, 2]);
  });
});

describe('guardedFetch(): SSRF', () => {
  const refusedBeforeConnecting = async (url: string, over: Partial<GuardedFetchOptions>, code: string) => {
    const httpsRequest = vi.spyOn(https, 'request');
    const httpRequest = vi.spyOn(http, 'request');
    const res = await guardedFetch(url, options(over));
    expect(res).toMatchObject({ ok: false, error: { code } });
    expect(httpsRequest).not.toHaveBeenCalled();
    expect(httpRequest).not.toHaveBeenCalled();
  };

  it.each(SSRF_CASES)(
    'refuses $url (host $canonicalHost) before connecting',
    async ({ url, canonicalHost }) => {
      const live = url.replace('{port}', String(tlsA.port));
      expect(new URL(live).hostname).toBe(canonicalHost);
      await refusedBeforeConnecting(live, {}, 'address_not_allowed');
      expect(tlsA.requests).toHaveLength(0);
    },
  );

  it.each(
    SSRF_CASES.filter(({ canonicalHost }) =>
      /^(0\.0\.0\.0|\[::\]|169\.|10\.|172\.|192\.|100\.|224\.|\[f|\[2002|\[64:|\[::ffff:a9fe)/.test(
        canonicalHost,
      ),
    ),
  )('still refuses $url with allowHttpLoopback', async ({ url }) => {
    await refusedBeforeConnecting(
      url.replace('{port}', String(tlsA.port)),
      { allowHttpLoopback: true },
      'address_not_allowed',
    );
    await refusedBeforeConnecting(
      url.replace('https:', 'http:').replace('{port}', String(plain.port)),
      { allowHttpLoopback: true },
      'address_not_allowed',
    );
    expect(plain.requests).toHaveLength(0);
  });

  it.each([
    ['loopback', ['127.0.0.1']],
    ['IPv6 loopback', ['::1']],
    ['the metadata service', ['169.254.169.254']],
    ['an IPv4-mapped loopback', ['::ffff:127.0.0.1']],
    ['a public and a private address', [STAND_IN_PUBLIC_ADDRESS, '10.0.0.5']],
    ['a private and a public address', ['192.168.0.10', STAND_IN_PUBLIC_ADDRESS]],
  ])('refuses a name that resolves to %s', async (_label, addresses) => {
    const resolve: ResolveHost = async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await refusedBeforeConnecting(`https://shop.test:${tlsA.port}/`, { resolve }, 'address_not_allowed');
    expect(tlsA.requests).toHaveLength(0);
  });

  it('refuses http: without allowHttpLoopback, even to loopback', async () => {
    await refusedBeforeConnecting(`${plain.url}/`, {}, 'scheme_not_allowed');
    await refusedBeforeConnecting(`http://shop.test:${plain.port}/`, asPublicHost, 'scheme_not_allowed');
    expect(plain.requests).toHaveLength(0);
  });

  it('refuses http: to a public host with allowHttpLoopback', async () => {
    await refusedBeforeConnecting(
      `http://shop.test:${plain.port}/`,
      { ...asPublicHost, allowHttpLoopback: true },
      'scheme_not_allowed',
    );
    expect(plain.requests).toHaveLength(0);
  });

  it.each([
    'ftp://shop.test/x',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'ws://shop.test/',
  ])('refuses the scheme of %s', async (url) => {
    await refusedBeforeConnecting(url, { ...asPublicHost, allowHttpLoopback: true }, 'scheme_not_allowed');
  });

  it.each([
    'https://user:pw@shop.test/',
    'https://user@shop.test/',
    'not a url',
    '/relative/path',
    'https://',
  ])('refuses %j as an invalid URL', async (url) => {
    await refusedBeforeConnecting(url, asPublicHost, 'invalid_url');
  });
});

describe('guardedFetch(): redirects', () => {
  const chain = (server: RecordingServer): Responder => {
    return (req, res) => {
      const n = Number(/^\/r\/(\d+)$/.exec(req.pathname)?.[1] ?? Number.NaN);
      if (Number.isNaN(n)) return okText(req, res);
      redirectTo(n === 0 ? '/done' : shop(server, `/r/${n - 1}`))(req, res);
    };
  };

  it('follows up to maxRedirects hops, relative or absolute, and reports the final URL', async () => {
    tlsA.respond = chain(tlsA);
    const res = await guardedFetch(shop(tlsA, '/r/2'), options(asPublicHost));
    expect(res).toMatchObject({
      ok: true,
      value: { status: 200, body: 'ok', finalUrl: shop(tlsA, '/done') },
    });
    expect(tlsA.requests.map((r) => r.pathname)).toEqual(['/r/2', '/r/1', '/r/0', '/done']);
  });

  it('stops with too_many_redirects when the chain is longer than maxRedirects', async () => {
    tlsA.respond = chain(tlsA);
    const res = await guardedFetch(shop(tlsA, '/r/3'), options(asPublicHost));
    expect(res).toMatchObject({ ok: false, error: { code: 'too_many_redirects' } });
    expect(tlsA.requests.map((r) => r.pathname)).toEqual(['/r/3', '/r/2', '/r/1', '/r/0']);

    tlsA.requests.length = 0;
    const none = await guardedFetch(shop(tlsA, '/r/0'), options({ ...asPublicHost, maxRedirects: 0 }));
    expect(none).toMatchObject({ ok: false, error: { code: 'too_many_redirects' } });
    expect(tlsA.requests).toHaveLength(1);
  });

  it.each([
    ['the metadata service', () => 'https://169.254.169.254/latest/meta-data', 'address_not_allowed'],
    ['a loopback https server', () => `https://127.0.0.1:${tlsB.port}/`, 'address_not_allowed'],
    ['localhost', () => `${tlsB.url}/`, 'address_not_allowed'],
    ['a loopback http server', () => `http://127.0.0.1:${plain.port}/`, 'scheme_not_allowed'],
    ['http: on the same public host', () => `http://shop.test:${plain.port}/`, 'scheme_not_allowed'],
    ['a private address', () => 'https://10.0.0.1/', 'address_not_allowed'],
    ['a file: URL', () => 'file:///etc/passwd', 'scheme_not_allowed'],
  ])('refuses a hop from a public host to %s, and never reaches it', async (_label, target, code) => {
    tlsA.respond = redirectTo(target());
    const res = await guardedFetch(shop(tlsA), options(asPublicHost));
    expect(res).toMatchObject({ ok: false, error: { code } });
    expect(tlsA.requests).toHaveLength(1);
    expect(tlsB.requests).toHaveLength(0);
    expect(plain.requests).toHaveLength(0);
  });

  it.each([
    ['https://169.254.169.254/', 'address_not_allowed'],
    ['http://10.0.0.1/', 'scheme_not_allowed'],
    ['https://10.0.0.1/', 'address_not_allowed'],
    ['https://[fd00::1]/', 'address_not_allowed'],
    [`http://shop.test/`, 'scheme_not_allowed'],
  ])('with allowHttpLoopback, refuses a hop from loopback to %s', async (target, code) => {
    tlsA.respond = redirectTo(target);
    const res = await guardedFetch(`${tlsA.url}/`, options({ ...asPublicHost, allowHttpLoopback: true }));
    expect(res).toMatchObject({ ok: false, error: { code } });
  });

  it.each([
    ['another loopback https server', () => `https://127.0.0.1:${tlsB.port}/`, 'address_not_allowed'],
    ['localhost', () => `${tlsB.url}/`, 'address_not_allowed'],
    ['[::1]', () => `https://[::1]:${tlsB.port}/`, 'address_not_allowed'],
    ['a loopback http server', () => `http://127.0.0.1:${plain.port}/`, 'scheme_not_allowed'],
    ['the same loopback server', () => '/again', 'address_not_allowed'],
  ])(
    'with allowHttpLoopback, refuses a hop from an allowed loopback URL to %s: it applies to the configured URL only',
    async (_label, target, code) => {
      tlsA.respond = redirectTo(target());
      const res = await guardedFetch(`${tlsA.url}/`, options({ allowHttpLoopback: true }));
      expect(res).toMatchObject({ ok: false, error: { code } });
      expect(tlsA.requests.map((r) => r.pathname)).toEqual(['/']);
      expect(tlsB.requests).toHaveLength(0);
      expect(plain.requests).toHaveLength(0);
    },
  );

  it('resolves the name again on every hop, so a rebinding between hops is refused', async () => {
    const answers = [STAND_IN_PUBLIC_ADDRESS, '127.0.0.1'];
    const resolve = vi.fn<ResolveHost>(async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }]);
    tlsA.respond = (req, res) => (req.pathname === '/' ? redirectTo('/again')(req, res) : okText(req, res));
    const res = await guardedFetch(shop(tlsA), options({ ...asPublicHost, resolve }));
    expect(res).toMatchObject({ ok: false, error: { code: 'address_not_allowed' } });
    expect(resolve).toHaveBeenCalledTimes(2);
    expect(tlsA.requests.map((r) => r.pathname)).toEqual(['/']);
  });

  it.each([
    [303, 'GET', ''],
    [302, 'GET', ''],
    [301, 'GET', ''],
    [307, 'POST', '{"a":1}'],
    [308, 'POST', '{"a":1}'],
  ])('after a POST, follows %i with %s and body %j', async (status, method, body) => {
    tlsA.respond = (req, res) =>
      req.pathname === '/post' ? redirectTo('/next', status)(req, res) : okText(req, res);
    const res = await guardedFetch(
      shop(tlsA, '/post'),
      options({
        ...asPublicHost,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-widget-id': 'w1' },
        body: '{"a":1}',
      }),
    );
    expect(res.ok).toBe(true);
    const hop = tlsA.requests[1];
    expect(hop).toMatchObject({ method, body, pathname: '/next' });
    expect(hop.headers['x-service-widget-id']).toBe('w1');
    expect(hop.headers['content-type']).toBe(method === 'POST' ? 'application/json' : undefined);
  });

  it('drops credentials when a hop leaves the origin, and keeps them on the same origin', async () => {
    tlsA.respond = (req, res) =>
      req.pathname === '/' ? redirectTo('/same')(req, res) : redirectTo(shop(tlsB, '/other'))(req, res);
    const res = await guardedFetch(
      shop(tlsA),
      options({ ...asPublicHost, headers: { authorization: 'token-1', 'x-keep': 'yes' } }),
    );
    expect(res.ok).toBe(true);
    expect(tlsA.requests.map((r) => r.headers.authorization)).toEqual(['token-1', 'token-1']);
    expect(tlsB.requests[0].headers.authorization).toBeUndefined();
    expect(tlsB.requests[0].headers['x-keep']).toBe('yes');
  });

  it('returns a 3xx without a Location as it is', async () => {
    tlsA.respond = (_req, res) => {
      res.writeHead(302);
      res.end('moved?');
    };
    const res = await guardedFetch(`${tlsA.url}/`, options({ allowHttpLoopback: true }));
    expect(res).toMatchObject({ ok: true, value: { status: 302, body: 'moved?' } });
  });
});

describe('guardedFetch(): deadline and byte cap', () => {
  const endless: Responder = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = 'x'.repeat(16 * 1024);
    const timer = setInterval(() => res.write(chunk), 1);
    res.on('close', () => clearInterval(timer));
  };

  it('gives up with timeout when the headers never come, at the deadline', async () => {
    tlsA.respond = () => {};
    const started = performance.now();
    const res = await guardedFetch(`${tlsA.url}/slow`, options({ allowHttpLoopback: true, timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(res).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(600);
  });

  it('cuts an endless body at maxBytes and marks it truncated', async () => {
    tlsA.respond = endless;
    const started = performance.now();
    const res = await guardedFetch(
      `${tlsA.url}/endless`,
      options({ allowHttpLoopback: true, maxBytes: 100_000, timeoutMs: 1000 }),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res).toMatchObject({ ok: true, value: { status: 200, truncated: true } });
    if (res.ok) expect(res.value.body).toBe('x'.repeat(100_000));
  });

  it('gives up with timeout on a body that trickles past the deadline under the cap', async () => {
    tlsA.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const res = await guardedFetch(
      `${tlsA.url}/trickle`,
      options({ allowHttpLoopback: true, timeoutMs: 300 }),
    );
    expect(res).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(performance.now() - started).toBeLessThan(600);
  });

  it('counts every redirect hop against the one deadline', async () => {
    tlsA.respond = (req, res) => {
      setTimeout(() => redirectTo(`/hop${req.pathname.length}`)(req, res), 150);
    };
    const res = await guardedFetch(
      shop(tlsA),
      options({ ...asPublicHost, timeoutMs: 400, maxRedirects: 10 }),
    );
    expect(res).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(tlsA.requests.length).toBeLessThanOrEqual(3);
  });

  it('stops when the caller aborts', async () => {
    tlsA.respond = () => {};
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const res = await guardedFetch(
      `${tlsA.url}/`,
      options({ allowHttpLoopback: true, signal: controller.signal, timeoutMs: 5000 }),
    );
    expect(res).toMatchObject({ ok: false, error: { code: 'aborted' } });
    const already = await guardedFetch(
      `${tlsA.url}/`,
      options({ allowHttpLoopback: true, signal: controller.signal }),
    );
    expect(already).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('never leaves half a UTF-8 character at the cut', async () => {
    tlsA.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('é'.repeat(100));
    };
    const res = await guardedFetch(`${tlsA.url}/`, options({ allowHttpLoopback: true, maxBytes: 11 }));
    expect(res).toMatchObject({ ok: true, value: { body: 'é'.repeat(5), truncated: true } });
  });

  it('reports a connection closed in the middle of the body as network', async () => {
    tlsA.respond = (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const res = await guardedFetch(`${tlsA.url}/`, options({ allowHttpLoopback: true }));
    expect(res).toMatchObject({ ok: false, error: { code: 'network' } });
  });
});
