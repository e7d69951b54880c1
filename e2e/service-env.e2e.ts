// `service-widget serve` configured from the environment (DESIGN "Running at scale": HOST, PORT, DATABASE_URL, CONFIG,
// LOG_LEVEL, secrets by `...Env` names), run as an operator runs it: the built CLI (`npm run build`) in a child
// process. Every wrong value stops the start with exactly one line on stderr naming it and a non-zero exit code, and
// stdout never carries anything but JSON lines.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cli = resolve(import.meta.dirname, '../dist/server/cli.js');
const work = mkdtempSync(join(tmpdir(), 'serve-env-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const configFile = (name: string, config: unknown) => {
  const file = join(work, name);
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
};
const widgets = [{ id: 'shop', allowedOrigins: ['*'] }];
// One embedded database for every run, one run at a time: a new one costs seconds of initdb at each start.
const dataDir = join(work, 'db');
const GOOD = configFile('good.json', { adminKey: 'admin-key-123456', widgets });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `env` on top of a clean environment until it exits. It is stopped (SIGTERM) once stdout satisfies
 * `until`, or once `up` (asked every 100 ms) resolves true.
 */
function serve(
  env: Record<string, string>,
  args: string[] = [],
  until?: (stdout: string) => boolean,
  up?: () => Promise<boolean>,
): Promise<Run> {
  // A free port unless the case is about the port.
  const port = env.PORT === undefined && !args.includes('--port') ? ['--port', '0'] : [];
  const child = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, ...port, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', CONFIG: GOOD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // One SIGTERM once it is up: the service answers /healthz and logs while it drains, and a second SIGTERM (a poll or
  // a log line landing during a slow shutdown on a busy machine) is "SIGTERM again: stopping now" on stderr.
  let isStopping = false;
  const stop = (): void => {
    if (isStopping) return;
    isStopping = true;
    child.kill('SIGTERM');
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (until?.(stdout)) stop();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const poll = up
    ? setInterval(() => {
        void up().then((yes) => {
          if (yes) stop();
        });
      }, 100)
    : undefined;
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((done) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      done({ code, stdout, stderr });
    }),
  );
}

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The run stopped with exactly `line` on stderr, a non-zero code, and JSON lines only (if any) on stdout. */
function expectStopped(run: Run, line: string | RegExp) {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  expect(lines, run.stderr).toHaveLength(1);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(() => jsonLines(run.stdout)).not.toThrow();
}

describe('service-widget serve, configured from the environment', () => {
  it('starts from CONFIG, PORT and HOST, and writes JSON lines only, the start line with its URLs first', async () => {
    const port = await freePort();
    const run = await serve({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }, [], (out) =>
      out.includes('"msg":"service listening"'),
    );
    expect(run.stderr).toBe('');
    const lines = jsonLines(run.stdout);
    const url = `http://127.0.0.1:${port}`;
    expect(lines.find((l) => l.msg === 'service listening')).toMatchObject({
      level: 'info',
      url,
      loader: `${url}/sdk/loader.js`,
      console: `${url}/console`,
    });
  });

  it('writes nothing at LOG_LEVEL=silent, and only warnings at warn', async () => {
    for (const level of ['silent', 'warn']) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      let answered: Response | undefined;
      const run = await serve({ LOG_LEVEL: level, PORT: String(port) }, [], undefined, async () => {
        const res = await fetch(`${url}/healthz`).catch(() => undefined);
        if (res?.ok) answered = res;
        return res?.ok === true;
      });
      expect(answered?.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(run.stderr).toBe('');
      const lines = jsonLines(run.stdout);
      if (level === 'silent') expect(run.stdout).toBe('');
      else {
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.every((l) => l.level === 'warn')).toBe(true);
      }
    }
  });

  it('stops on a PORT that is not a whole number from 1 to 65535, and on a bad --port', async () => {
    for (const port of ['0', '65536', 'abc', '-1', '80.5', ' 8080'])
      expectStopped(
        await serve({ PORT: port }),
        `Cannot start: PORT must be a whole number from 1 to 65535, got ${JSON.stringify(port)}`,
      );
    expectStopped(
      await serve({}, ['--port', '99999']),
      'Cannot start: --port must be a whole number from 0 to 65535, got "99999"',
    );
  });

  it('stops on a PORT in use and a HOST that is not of this machine, naming them', async () => {
    const taken = await listening();
    const port = (taken.address() as { port: number }).port;
    try {
      expectStopped(
        await serve({ PORT: String(port), HOST: '127.0.0.1' }),
        `Cannot start: PORT ${port} is in use on 127.0.0.1`,
      );
    } finally {
      taken.close();
    }
    expectStopped(
      await serve({ HOST: '192.0.2.1' }),
      /^Cannot start: HOST "192\.0\.2\.1" is not an address of this machine/,
    );
    expectStopped(
      await serve({ HOST: 'a host' }),
      'Cannot start: HOST must be a host name or address, got "a host"',
    );
  });

  it('stops on a LOG_LEVEL that is not a level', async () => {
    expectStopped(
      await serve({ LOG_LEVEL: 'verbose' }),
      'Cannot start: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    );
  });

  it('stops on a DATABASE_URL that is not a postgres URL, without repeating it (it may hold a password)', async () => {
    for (const url of ['mysql://root:hunter2-pw@localhost/db', 'postgres//nohost', 'postgres://']) {
      const run = await serve({ DATABASE_URL: url });
      expectStopped(
        run,
        'Cannot start: DATABASE_URL must be a postgres:// or postgresql:// URL (its value is not shown: it may hold a password)',
      );
      expect(run.stderr + run.stdout).not.toContain('hunter2-pw');
    }
  });

  it('stops on a CONFIG that is missing, unreadable, not JSON or not a valid config', async () => {
    const missing = join(work, 'missing.json');
    expectStopped(
      await serve({ CONFIG: missing }),
      `Cannot start: CONFIG: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`,
    );
    const folder = join(work, 'a-folder.json');
    mkdirSync(folder);
    expectStopped(
      await serve({ CONFIG: folder }),
      new RegExp(`^Cannot start: CONFIG: cannot read ${folder}: EISDIR`),
    );
    const broken = configFile('broken.json', '{ "adminKey": ');
    expectStopped(
      await serve({ CONFIG: broken }),
      new RegExp(`^Cannot start: CONFIG: ${broken} is not valid JSON: `),
    );
    const invalid = configFile('invalid.json', { adminKey: 'short', widgets });
    expectStopped(
      await serve({ CONFIG: invalid }),
      `Cannot start: CONFIG: ${invalid}: adminKey: must be at least 12 characters`,
    );
    // The flag names itself.
    expectStopped(
      await serve({}, ['--config', broken]),
      new RegExp(`^Cannot start: --config: ${broken} is not valid JSON`),
    );
    // Neither: the usage, exit code 2.
    const none = await serve({ CONFIG: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^--config \(or CONFIG\) is required\n/);
  });

  it('stops on each secret named by ...Env that is not set, naming the variable', async () => {
    const cases: [unknown, string][] = [
      [
        { adminKeyEnv: 'E2E_ADMIN_KEY', widgets },
        'adminKeyEnv: the environment variable E2E_ADMIN_KEY is not set',
      ],
      [
        {
          adminKey: 'admin-key-123456',
          widgets: [{ ...widgets[0], identity: { secretEnv: 'E2E_IDENTITY_SECRET' } }],
        },
        'widgets[0].identity.secretEnv: the environment variable E2E_IDENTITY_SECRET is not set',
      ],
      [
        {
          adminKey: 'admin-key-123456',
          widgets: [{ ...widgets[0], signingSecretEnv: 'E2E_SIGNING_SECRET' }],
        },
        'widgets[0].signingSecretEnv: the environment variable E2E_SIGNING_SECRET is not set',
      ],
      [
        {
          adminKey: 'admin-key-123456',
          agents: [{ id: 'anna', name: 'Anna', role: 'agent', keyEnv: 'E2E_ANNA_KEY' }],
          widgets,
        },
        'agents[0].keyEnv: the environment variable E2E_ANNA_KEY is not set',
      ],
      [
        {
          adminKey: 'admin-key-123456',
          engine: {
            type: 'openai',
            baseUrl: 'https://models.example/v1',
            apiKeyEnv: 'E2E_MODEL_KEY',
            models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
          },
          widgets,
        },
        'engine.apiKeyEnv: the environment variable E2E_MODEL_KEY is not set',
      ],
    ];
    for (const [i, [config, line]] of cases.entries())
      expectStopped(await serve({ CONFIG: configFile(`secret-${i}.json`, config) }), `Cannot start: ${line}`);
  });
});

function listening(): Promise<Server> {
  return new Promise((ok) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => ok(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listening();
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
