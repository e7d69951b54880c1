// The parts of e2e/cluster.e2e.ts that are not the cluster itself: a cuttable road to PostgreSQL, a model double that
// can hold a reply mid-way, the service's instances as real processes on fixed ports, and Caddy with deploy/Caddyfile
// in front of them. Not part of the service.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type CompletionRequestBody,
  SSE_DONE,
  sseChunk,
  toolCallAnswer,
} from '../src/server/testing/fake-openai-server';

export const freePort = () =>
  new Promise<number>((ok) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => ok(port));
    });
  });

/** Polls until `check` holds; the state is what the test waits for, the deadline only ends a hang. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const ANSWER_PIECES = ['Your order 1003 ', 'has shipped ', 'with DHL.'];

/**
 * An OpenAI-compatible model that answers by what it is asked, whichever instance asks (the queue of
 * fake-openai-server.ts would hand answers out in arrival order, which three instances and a task runner make
 * unpredictable): a question about order 1003 gets a `get_order_status` call, the call's result gets the answer in
 * three pieces, a task gets `Answer to: <prompt>`. `holdNext()` makes the next answer stop after its first piece until
 * released: a reply held mid-way, on whichever instance runs it.
 */
export async function startModel() {
  const asked: { kind: 'chat' | 'task'; body: CompletionRequestBody }[] = [];
  let armed: { reached: () => void; released: Promise<void> } | undefined;
  const write = (res: ServerResponse, chunk: string) =>
    new Promise<void>((ok) => (res.destroyed ? ok() : res.write(chunk, () => ok())));

  async function answer(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as CompletionRequestBody;
    const last = body.messages.at(-1);
    if (!body.stream) {
      asked.push({ kind: 'task', body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: `Answer to: ${last?.content}` } }],
        }),
      );
      return;
    }
    asked.push({ kind: 'chat', body });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (last?.role === 'user' && last.content?.includes('1003')) {
      const call = toolCallAnswer([
        { id: 'call_1', name: 'get_order_status', argumentPieces: ['{"order_id":"1003"}'] },
      ]);
      for (const chunk of call.chunks) await write(res, String(chunk));
      res.end();
      return;
    }
    const pieces = last?.role === 'tool' ? ANSWER_PIECES : ['Hello! ', 'How can I help?'];
    const hold = last?.role === 'tool' ? armed : undefined;
    if (hold) armed = undefined;
    await write(res, sseChunk({ role: 'assistant', content: '' }));
    for (const [i, content] of pieces.entries()) {
      await write(res, sseChunk({ content }));
      if (i === 0 && hold) {
        hold.reached();
        // Until released, or until the instance that asked goes away (killed, or stopped).
        await Promise.race([hold.released, new Promise((r) => res.once('close', r))]);
      }
    }
    await write(res, sseChunk({}, 'stop'));
    await write(res, SSE_DONE);
    res.end();
  }

  const server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    asked,
    /** Holds the next answer to an action's result after its first piece; `reached` once that piece is written. */
    holdNext() {
      let release = () => {};
      let reached = () => {};
      const reachedP = new Promise<void>((r) => {
        reached = r;
      });
      armed = { reached, released: new Promise<void>((r) => (release = r)) };
      return { reached: reachedP, release: () => release() };
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Its stdout: JSON lines. */
  log: string[];
  /** Its stderr (a failed start, a crash). */
  stderr(): string;
  exited: Promise<number | null>;
}

/** `service-widget serve` from the build, on a fixed port (Caddy's upstream list names it), as a real process. */
export function startInstance(
  root: string,
  name: string,
  port: number,
  configFile: string,
  env: Record<string, string>,
): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/server/cli.js'), 'serve', '--config', configFile, '--port', String(port)],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        log.push(line);
        // stdout is JSON lines only (a line that is not fails service-logs.e2e.ts, not this file).
        const msg = line.startsWith('{') ? (JSON.parse(line) as { msg?: string }).msg : undefined;
        if (msg === 'service listening')
          ok({ name, port, url: `http://127.0.0.1:${port}`, child, log, stderr: () => err, exited });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    void exited.then((code) => fail(new Error(`${name} exited (${code}) before listening: ${err}`)));
  });
}

/** Caddy running the project's deploy/Caddyfile in front of the given ports. */
export async function startCaddy(root: string, work: string, ports: number[]) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(
    'caddy',
    ['run', '--adapter', 'caddyfile', '--config', join(root, 'deploy/Caddyfile')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: work,
        XDG_DATA_HOME: join(work, 'data'),
        XDG_CONFIG_HOME: join(work, 'config'),
        SITE_ADDRESS: url,
        CADDY_ADMIN: `127.0.0.1:${await freePort()}`,
        UPSTREAMS: ports.map((p) => `127.0.0.1:${p}`).join(' '),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let failed: Error | undefined;
  child.once('error', (e) => {
    failed = e;
  });
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  await until(async () => {
    if (failed)
      throw new Error(`caddy did not start (${failed.message}); \`npm test\` installs Debian's caddy`);
    if (child.exitCode !== null) throw new Error(`caddy exited: ${output}`);
    return (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true;
  }, `caddy answers at ${url}`);
  return { url, child };
}

export {
  ended,
  lastIdOf,
  readEvents,
  type Seen,
  textOf,
} from '../src/server/testing/cluster-test-kit';
