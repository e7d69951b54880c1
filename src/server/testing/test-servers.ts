import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

// Real local servers for the network tests of src/server/net and src/server/actions (CONVENTIONS: "a real listening
// server where the network matters"). Each records exactly what reached it on the wire. Not part of the service.

export interface RecordedRequest {
  method: string;
  /** The request target as sent: path and query, still percent-encoded. */
  target: string;
  pathname: string;
  query: [string, string][];
  headers: IncomingHttpHeaders;
  /** Raw header names in the order and case they were sent. */
  rawHeaderNames: string[];
  body: string;
  /** TLS SNI the client sent (https only). */
  servername?: string;
  /** Which connection it came on (1 for the server's first): a kept-open connection's requests share it. */
  connection: number;
  /** How many requests that connection had carried before this one. */
  onConnectionBefore: number;
}

export type Responder = (req: RecordedRequest, res: ServerResponse) => void;

export interface RecordingServer {
  /** `https://localhost:<port>` or `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** How to answer; default: 200 text/plain `ok`. Replace per test. */
  respond: Responder;
  close(): Promise<void>;
}

/** Names the test certificate is valid for: `localhost`, 127.0.0.1, and `shop.test`, a stand-in public host. */
export const TEST_CERT_NAMES = ['localhost', 'shop.test'];
/** What tests make `shop.test` resolve to: a public address that is never dialled (`dialForTests` maps it). */
export const STAND_IN_PUBLIC_ADDRESS = '93.184.215.14';

let certificate: Promise<{ private: string; cert: string }> | undefined;

/** One self-signed certificate per test file; its PEM is what tests pass as `ca`. */
export function testCertificate(): Promise<{ private: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          ...TEST_CERT_NAMES.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return certificate;
}

export const okText: Responder = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('ok');
};

/** Starts a server on 127.0.0.1 and a free port that records every request, body included, then answers. */
export async function startRecordingServer(kind: 'https' | 'http'): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const connections = new WeakMap<object, { id: number; served: number }>();
  let opened = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let connection = connections.get(req.socket);
    if (!connection) {
      connection = { id: ++opened, served: 0 };
      connections.set(req.socket, connection);
    }
    const { id, served } = connection;
    connection.served += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = req.url ?? '';
      const parsed = new URL(target, 'http://recorder.invalid');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        target,
        pathname: parsed.pathname,
        query: [...parsed.searchParams],
        headers: req.headers,
        rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (req.socket as { servername?: string | false }).servername || undefined,
        connection: id,
        onConnectionBefore: served,
      };
      requests.push(recorded);
      server.respond(recorded, res);
    });
  };
  const listener =
    kind === 'https'
      ? https.createServer(
          { key: (await testCertificate()).private, cert: (await testCertificate()).cert },
          handler,
        )
      : http.createServer(handler);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as AddressInfo).port;
  const server: RecordingServer = {
    url: kind === 'https' ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    port,
    requests,
    respond: okText,
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
  return server;
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * URLs that must never be fetched, with the host the WHATWG parser turns each into. `{port}` is the port of a live
 * local HTTPS server, so a guard that let one through would really reach it (and the recorder would see it).
 */
export const SSRF_CASES: readonly { url: string; canonicalHost: string }[] = [
  { url: 'https://127.0.0.1:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://localhost:{port}/', canonicalHost: 'localhost' },
  { url: 'https://localhost.:{port}/', canonicalHost: 'localhost.' },
  { url: 'https://api.localhost:{port}/', canonicalHost: 'api.localhost' },
  { url: 'https://2130706433:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://0x7f000001:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://0x7f.1:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://0177.0.0.1:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://017700000001:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://127.1:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://127.000.000.001:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://%31%32%37.0.0.1:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://\uff11\uff12\uff17.\uff10.\uff10.\uff11:{port}/', canonicalHost: '127.0.0.1' },
  { url: 'https://[::1]:{port}/', canonicalHost: '[::1]' },
  { url: 'https://[::ffff:127.0.0.1]:{port}/', canonicalHost: '[::ffff:7f00:1]' },
  { url: 'https://[0:0:0:0:0:ffff:7f00:1]:{port}/', canonicalHost: '[::ffff:7f00:1]' },
  { url: 'https://[::127.0.0.1]:{port}/', canonicalHost: '[::7f00:1]' },
  { url: 'https://0.0.0.0:{port}/', canonicalHost: '0.0.0.0' },
  { url: 'https://0:{port}/', canonicalHost: '0.0.0.0' },
  { url: 'https://[::]:{port}/', canonicalHost: '[::]' },
  { url: 'https://169.254.169.254/latest/meta-data', canonicalHost: '169.254.169.254' },
  { url: 'https://[::ffff:169.254.169.254]/latest/meta-data', canonicalHost: '[::ffff:a9fe:a9fe]' },
  { url: 'https://[64:ff9b::169.254.169.254]/', canonicalHost: '[64:ff9b::a9fe:a9fe]' },
  { url: 'https://10.0.0.1/', canonicalHost: '10.0.0.1' },
  { url: 'https://172.16.0.1/', canonicalHost: '172.16.0.1' },
  { url: 'https://192.168.1.1/', canonicalHost: '192.168.1.1' },
  { url: 'https://100.64.0.1/', canonicalHost: '100.64.0.1' },
  { url: 'https://[fd00::1]/', canonicalHost: '[fd00::1]' },
  { url: 'https://[fe80::1]/', canonicalHost: '[fe80::1]' },
  { url: 'https://[2002:7f00:1::]/', canonicalHost: '[2002:7f00:1::]' },
  { url: 'https://224.0.0.1/', canonicalHost: '224.0.0.1' },
];

/** A TCP proxy in front of a server (PostgreSQL) that a test cuts and opens again: `startCuttableProxy`. */
export interface CuttableProxy {
  /** The target's URL with the proxy's address in its place. */
  url: string;
  port: number;
  /**
   * Breaks every connection through it and refuses new ones, as a failover or a network loss would. `reset`: with a
   * TCP reset (ECONNRESET on the client's side) rather than an end.
   */
  cut(options?: { reset?: boolean }): void;
  reopen(): void;
  /** Every connection through it is closed on the proxy's side. */
  isEmpty(): boolean;
  close(): Promise<void>;
}

/** A cuttable TCP proxy to `targetUrl`'s host and port (5432 when it names none), on loopback. */
export async function startCuttableProxy(targetUrl: string): Promise<CuttableProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let open = true;
  const proxy = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const port = (proxy.address() as AddressInfo).port;
  const via = new URL(targetUrl);
  via.hostname = '127.0.0.1';
  via.port = String(port);
  const cut = ({ reset = false } = {}) => {
    open = false;
    for (const socket of sockets) {
      if (reset) socket.resetAndDestroy();
      else socket.destroy();
    }
  };
  return {
    url: via.toString(),
    port,
    cut,
    reopen() {
      open = true;
    },
    isEmpty: () => sockets.size === 0,
    close: () =>
      new Promise<void>((ok) => {
        cut();
        proxy.close(() => ok());
      }),
  };
}
