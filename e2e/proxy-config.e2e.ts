// deploy/Caddyfile, the load balancer of compose.yaml, run by Caddy itself (Debian's caddy; scripts/test.sh installs
// it) in front of two stand-in instances: small HTTP servers that say who they are and keep the service's /readyz
// contract, so that each rule of the file can be seen at work. The service's own behaviour behind a proxy (turns,
// takeover, draining) is the cluster's e2e spec.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'proxy-config-'));

interface Instance {
  name: string;
  server: Server;
  port: number;
  ready: boolean;
  hits: string[];
  /** Ends the held event stream: its second event, then the end. */
  release?: () => void;
}

async function startInstance(name: string, port = 0): Promise<Instance> {
  const instance: Instance = { name, server: createServer(), port, ready: true, hits: [] };
  instance.server.on('request', (req, res: ServerResponse) => {
    if (req.url !== '/readyz') instance.hits.push(req.url ?? '');
    if (req.url === '/readyz') res.writeHead(instance.ready ? 200 : 503).end();
    else if (req.url === '/who') res.end(name);
    else if (req.url === '/metrics') res.end('turns_total 1\n');
    else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('id: 1\ndata: first\n\n');
      instance.release = () => res.end('id: 2\ndata: second\n\n');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => instance.server.listen(port, '127.0.0.1', ok));
  instance.port = (instance.server.address() as AddressInfo).port;
  return instance;
}

const freePort = () =>
  new Promise<number>((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => ok(port));
    });
  });

const stop = (server: Server) =>
  new Promise<void>((ok) => {
    server.closeAllConnections();
    server.close(() => ok());
  });

let a: Instance;
let b: Instance;
let caddy: ChildProcess;
let base: string;
let caddyOutput = '';

beforeAll(async () => {
  a = await startInstance('a');
  b = await startInstance('b');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  caddy = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', join(root, 'deploy/Caddyfile')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      XDG_DATA_HOME: join(work, 'data'),
      XDG_CONFIG_HOME: join(work, 'config'),
      SITE_ADDRESS: base,
      CADDY_ADMIN: `127.0.0.1:${await freePort()}`,
      UPSTREAMS: `127.0.0.1:${a.port} 127.0.0.1:${b.port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (c: Buffer) => {
    caddyOutput += c.toString();
  });
  caddy.stderr?.on('data', (c: Buffer) => {
    caddyOutput += c.toString();
  });
  const deadline = Date.now() + 20_000;
  while ((await fetch(`${base}/who`).catch(() => undefined))?.ok !== true) {
    if (Date.now() > deadline || caddy.exitCode !== null)
      throw new Error(`caddy did not start: ${caddyOutput}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 30_000);

afterAll(async () => {
  caddy?.kill('SIGTERM');
  await Promise.all([a, b].map((i) => i && stop(i.server)));
  rmSync(work, { recursive: true, force: true });
});

const who = async (n: number) => {
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/who`);
    expect(res.status).toBe(200);
    names.push(await res.text());
  }
  return names;
};

/** Waits for the active health checks (every 2 s) to see the change. */
const healthChecksPass = () => new Promise((r) => setTimeout(r, 5_000));

describe('deploy/Caddyfile', () => {
  it('spreads requests over both instances', async () => {
    expect(new Set(await who(6))).toEqual(new Set(['a', 'b']));
  });

  it('passes an event stream on as it is written: the first event arrives while the instance holds the second', async () => {
    a.hits.length = 0;
    b.hits.length = 0;
    const res = await fetch(`${base}/stream`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await Promise.race([
      reader.read().then((r) => new TextDecoder().decode(r.value)),
      new Promise<string>((r) => setTimeout(() => r('nothing within 5 s: buffered'), 5_000)),
    ]);
    expect(first).toBe('id: 1\ndata: first\n\n');
    const holder = a.hits.includes('/stream') ? a : b;
    holder.release?.();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('id: 2\ndata: second\n\n');
  }, 15_000);

  it('does not serve /metrics to the outside', async () => {
    a.hits.length = 0;
    b.hits.length = 0;
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect([...a.hits, ...b.hits]).toEqual([]);
  });

  it('sends nothing to an instance whose /readyz is 503 (draining, database down), and again once it is 200', async () => {
    b.ready = false;
    await healthChecksPass();
    expect(await who(6)).toEqual(Array(6).fill('a'));
    b.ready = true;
    await healthChecksPass();
    expect(new Set(await who(6))).toEqual(new Set(['a', 'b']));
  }, 20_000);

  it('answers every request while an instance is stopped, before the health checks notice, and uses it again after its restart', async () => {
    const port = b.port;
    await stop(b.server);
    expect(await who(6)).toEqual(Array(6).fill('a'));
    b = await startInstance('b', port);
    await healthChecksPass();
    expect(new Set(await who(6))).toEqual(new Set(['a', 'b']));
  }, 20_000);
});
