// What the tests of several service processes on one PostgreSQL share (turn-takeover.test.ts, shutdown-drain.test.ts):
// the CLI built once, a fresh schema, `service-widget serve` as a child process, and a shopper's side of the widget
// API (send, resume with Last-Event-ID, read the stream as it arrives).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { build } from 'vite';
import { expect } from 'vitest';

export const root = resolve(import.meta.dirname, '../../..');

export interface Instance {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Its stdout so far (JSON log lines). */
  log(): string;
}

export interface Seen {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

export interface Chat {
  id: string;
  auth: Record<string, string>;
}

/**
 * The folder of a built `cli.js` to run instances from. `npm test` builds the service once and names its `dist/` in
 * `SERVICE_WIDGET_DIST`, so every file that runs instances shares that build; run alone (`npx vitest …`), the CLI is
 * bundled into `outDir` (inside the project, so the bundle's imports resolve from node_modules).
 */
export async function serviceCliDir(outDir: string): Promise<string> {
  const dist = process.env.SERVICE_WIDGET_DIST;
  if (dist && existsSync(join(dist, 'server', 'cli.js'))) return join(dist, 'server');
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    build: {
      ssr: true,
      target: 'node20',
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        input: { cli: 'src/server/cli.ts' },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  });
  return outDir;
}

/** Runs one statement on the server (outside any test schema). */
export async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A schema of its own on the test server: the URL that uses it, and its drop. */
export async function freshSchema(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  await onServer(serverUrl, `CREATE SCHEMA ${schema}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP SCHEMA ${schema} CASCADE`) };
}

/** `service-widget serve` on the shared schema; resolves once it listens. `children` collects it for the clean-up. */
export function startInstance(options: {
  cliDir: string;
  configFile: string;
  databaseUrl: string;
  children: Set<ChildProcess>;
}): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [join(options.cliDir, 'cli.js'), 'serve', '--config', options.configFile, '--port', '0'],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  options.children.add(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  void exited.then(() => options.children.delete(child));
  let out = '';
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = out
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; url?: string })
        .find((line) => line.msg === 'service listening');
      if (listening?.url) ok({ child, url: listening.url, exited, log: () => out });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    void exited.then((code) => fail(new Error(`service exited (${code}): ${err}`)));
  });
}

/** Reads an event stream until it ends, drops (its instance died) or `stop` says so. */
export async function readEvents(response: Response, stop?: (e: Seen) => boolean): Promise<Seen[]> {
  const seen: Seen[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return seen;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
        const fields: Record<string, string> = {};
        for (const line of buffer.slice(0, cut).split('\n')) {
          const at = line.indexOf(':');
          if (at > 0) fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
        }
        buffer = buffer.slice(cut + 2);
        if (fields.data === undefined) continue;
        const event = { id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) };
        seen.push(event);
        if (stop?.(event)) {
          await reader.cancel();
          return seen;
        }
      }
    }
  } catch {
    // The connection dropped: its instance was killed.
    return seen;
  }
}

export const ended = (e: Seen) => e.event === 'message.done' || e.event === 'error';
export const textOf = (events: Seen[]) =>
  events
    .filter((e) => e.event === 'message.delta')
    .map((e) => e.data.text)
    .join('');
/** The last event id a client heard (the resume point). */
export const lastIdOf = (events: Seen[]) => events.filter((e) => e.id !== undefined).at(-1)?.id ?? '0';

/** A shopper's side of the widget API of one widget. */
export function shopper(widget: string) {
  const base = (url: string) => `${url}/v0/widget/${widget}/conversations`;
  return {
    async conversation(url: string): Promise<Chat> {
      const res = await fetch(base(url), { method: 'POST' });
      expect(res.status).toBe(201);
      const { conversationId, token } = (await res.json()) as { conversationId: string; token: string };
      return { id: conversationId, auth: { authorization: `Bearer ${token}` } };
    },
    send: (url: string, c: Chat, text: string, clientMessageId: string = randomUUID()) =>
      fetch(`${base(url)}/${c.id}/messages`, {
        method: 'POST',
        headers: { ...c.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ clientMessageId, text }),
      }),
    /** The shopper's Yes on a `confirm` part. */
    confirmYes: (url: string, c: Chat, confirmId: string) =>
      fetch(`${base(url)}/${c.id}/confirmations/${confirmId}`, {
        method: 'POST',
        headers: { ...c.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'yes' }),
      }),
    /** The widget's resume, on any instance: the conversation's events after the last one it saw. */
    resume: (url: string, c: Chat, lastEventId: string) =>
      fetch(`${base(url)}/${c.id}/events`, { headers: { ...c.auth, 'last-event-id': lastEventId } }),
  };
}

export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
