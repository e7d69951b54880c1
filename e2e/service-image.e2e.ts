// The container image without a container runtime (none on this machine): the Dockerfile read as Docker reads it,
// its build stage's context and output checked, and the service started from the folder the runtime stage copies,
// with the image's ENV, ENTRYPOINT and CMD, until the image's own HEALTHCHECK command passes. What only Docker can
// show (the base images, `npm ci` inside them, the `node` user's permissions) is not checked here: docs/deploy.md.
// Needs `npm run build`.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceImage } from '../scripts/service-image.mjs';

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name?: string;
  from: string;
  steps: Instruction[];
}

/** The Dockerfile's stages and their instructions: continuation lines joined, comments dropped. */
function dockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, name, steps: [] });
    } else stages.at(-1)?.steps.push({ op: op.toUpperCase(), args });
  }
  return stages;
}

/** `COPY [--from=x] [--chown=…] src… dest`: its stage and its sources. */
const copyOf = (args: string) => {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) };
};

const stages = dockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const [buildStage, runtime] = stages;
const work = mkdtempSync(join(tmpdir(), 'service-image-'));
const app = join(work, 'app');
let service: ChildProcess | undefined;

beforeAll(() => serviceImage(app), 120_000);
afterAll(() => {
  service?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it('has two stages: a named build stage and a Node 20 slim runtime running as a user that is not root', () => {
    expect(stages).toHaveLength(2);
    expect(buildStage.name).toBe('build');
    expect(runtime.from).toMatch(/^node:20[\w.-]*-slim$/);
    const users = runtime.steps.filter((s) => s.op === 'USER').map((s) => s.args);
    expect(users.at(-1)).toBe('node');
    expect(runtime.steps.map((s) => s.op)).toEqual(
      expect.arrayContaining(['HEALTHCHECK', 'EXPOSE', 'ENTRYPOINT']),
    );
  });

  it('copies into the build stage only files that exist, and .dockerignore leaves out none the repository tracks', () => {
    for (const step of buildStage.steps.filter((s) => s.op === 'COPY')) {
      for (const source of copyOf(step.args).sources)
        expect(existsSync(join(root, source)), source).toBe(true);
    }
    const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#') && l !== '.git');
    const tracked = execFileSync('git', ['ls-files', '--', ...patterns], { cwd: root, encoding: 'utf8' });
    expect(tracked).toBe('');
  });

  it('copies into the runtime stage what the build stage makes with scripts/service-image.mjs, and it exists', () => {
    const made = buildStage.steps
      .filter((s) => s.op === 'RUN')
      .map((s) => /node scripts\/service-image\.mjs (\S+)/.exec(s.args)?.[1])
      .find(Boolean);
    expect(made).toBe('/app');
    const copies = runtime.steps.filter((s) => s.op === 'COPY').map((s) => copyOf(s.args));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      expect(copy.from).toBe('build');
      for (const source of copy.sources) {
        expect(source === made || source.startsWith(`${made}/`), source).toBe(true);
        expect(existsSync(join(app, source.slice(made?.length ?? 0))), source).toBe(true);
      }
    }
  });
});

describe("the runtime stage's /app", () => {
  it('holds the packed package and its runtime, no tools: no typescript, vite, vitest or biome', () => {
    expect(readdirSync(app).sort()).toEqual(['README.md', 'bin', 'dist', 'node_modules', 'package.json']);
    const modules = readdirSync(join(app, 'node_modules'));
    for (const tool of ['typescript', 'vite', 'vitest', '@biomejs', 'playwright-core', 'preact']) {
      expect(modules).not.toContain(tool);
    }
  });

  it("starts the service with the image's ENV, ENTRYPOINT and CMD, passes the image's HEALTHCHECK, writes only to /data", async () => {
    const config = join(work, 'config');
    const data = join(work, 'data');
    mkdirSync(config);
    mkdirSync(data);
    // The config compose.yaml mounts: the example as an operator copies it, its admin key from the environment.
    copyFileSync(join(root, 'deploy/service.config.example.json'), join(config, 'service.config.json'));
    // The image's paths, here: /app, /config and /data are folders of this test.
    const local = (value: string) =>
      value
        .replace(/^\/app(?=\/|$)/, app)
        .replace(/^\/config(?=\/|$)/, config)
        .replace(/^\/data(?=\/|$)/, data);
    const env: Record<string, string> = {};
    for (const step of runtime.steps.filter((s) => s.op === 'ENV')) {
      for (const [, key, value] of step.args.matchAll(/(\w+)=(\S+)/g)) env[key] = local(value);
    }
    expect(env.HOST).toBe('0.0.0.0');
    // As `docker run -e PORT=… -e HOST=127.0.0.1` would: a free port, and the loopback address only.
    const port = await freePort();
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVICE_ADMIN_KEY: 'admin-key-from-the-environment',
    });
    const execForm = (op: string) =>
      (
        JSON.parse(runtime.steps.find((s) => s.op === op)?.args.replace(/^CMD\s+/, '') ?? '[]') as string[]
      ).map(local);
    const command = [...execForm('ENTRYPOINT'), ...execForm('CMD')];
    const healthcheck = JSON.parse(
      /CMD\s+(\[.*\])$/.exec(runtime.steps.find((s) => s.op === 'HEALTHCHECK')?.args ?? '')?.[1] ?? '[]',
    ) as string[];
    expect(command[0]).toBe('node');
    expect(healthcheck[0]).toBe('node');

    const before = listing(app);
    const childEnv = { PATH: process.env.PATH ?? '', ...env };
    service = spawn(process.execPath, command.slice(1), {
      cwd: local(runtime.steps.filter((s) => s.op === 'WORKDIR').at(-1)?.args ?? '/'),
      env: childEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    service.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const healthy = () =>
      run(process.execPath, healthcheck.slice(1), { env: childEnv, timeout: 3000 }).then(
        () => true,
        () => false,
      );
    const deadline = Date.now() + 60_000;
    while (!(await healthy())) {
      if (Date.now() > deadline || service.exitCode !== null) throw new Error(`not healthy: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const loader = await fetch(`http://127.0.0.1:${port}/sdk/loader.js`);
    expect(loader.status).toBe(200);
    const admin = (key: string) =>
      fetch(`http://127.0.0.1:${port}/v0/admin/widgets/shop/settings`, {
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await admin('admin-key-from-the-environment')).status).toBe(200);
    expect((await admin('not-the-admin-key-at-all')).status).toBe(401);
    expect(listing(app)).toEqual(before);
    expect(readdirSync(data)).toContain('db');
  }, 90_000);
});

/** Every path under `dir` with its size, to tell whether anything was written there. */
function listing(dir: string): string[] {
  return execFileSync('find', [dir, '-printf', '%P %s\\n'], { encoding: 'utf8' }).split('\n').sort();
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
    server.once('error', fail);
  });
}
