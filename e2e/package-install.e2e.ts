// `npm i service-widget` as a storefront and as an operator run it (DESIGN "Package"): the package packed by npm,
// installed by npm into an empty project. The storefront gets the package and valibot, nothing else, and its imports
// and types work; `service-widget serve` there names the packages the service needs in one `npm i` line, and after
// that line the service starts and serves the widget. Needs `npm run build`; npm reads the registry only for what its
// cache lacks (scripts/package-install.mjs).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedPackages, installPacked, NPM_FLAGS } from '../scripts/package-install.mjs';
import { FRAMEWORK_PEERS } from '../src/server/platform/runtime-packages';

const root = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'package-install-'));
let project: string;
let tarball: string;
let service: ChildProcess | undefined;

beforeAll(() => {
  ({ project, tarball } = installPacked(work));
}, 120_000);

afterAll(() => {
  service?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Runs a command in the storefront's project: its exit code, stdout and stderr. */
const inProject = (file: string, args: string[]) =>
  run(file, args, { cwd: project, env: { ...process.env, DATABASE_URL: '' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

describe("a storefront's npm i service-widget", () => {
  it('installs the package and its dependencies only: valibot, none of the service runtime', () => {
    const installed = installedPackages(join(project, 'node_modules'));
    const expected = [`service-widget@${manifest.version}`, `valibot@${manifest.dependencies.valibot}`];
    expect(installed).toEqual(expected);
  });

  it('installs into a storefront that has its own version of a service package (jose 5), with no peer conflict', async () => {
    const shop = join(work, 'shop-with-jose');
    mkdirSync(shop);
    writeFileSync(
      join(shop, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, dependencies: {} }),
    );
    await run('npm', ['install', ...NPM_FLAGS, 'jose@5.9.6'], { cwd: shop });
    await run('npm', ['install', ...NPM_FLAGS, tarball], { cwd: shop });
    expect(installedPackages(join(shop, 'node_modules'))).toEqual([
      'jose@5.9.6',
      `service-widget@${manifest.version}`,
      `valibot@${manifest.dependencies.valibot}`,
    ]);
  }, 60_000);

  it('imports the npm entry, the clients and a webhook schema in Node', async () => {
    const script = `
      const entry = await import('service-widget');
      const client = await import('service-widget/client');
      const schema = await import('service-widget/schemas/v20240910');
      const answer = schema.parseOrderCancellationResponse({ cancelled: 'yes', reason: '' });
      console.log(JSON.stringify({
        load: typeof entry.load,
        TaskClient: typeof client.TaskClient,
        verify: typeof client.verifyServiceSignature,
        issues: answer.ok ? [] : answer.issues.map((i) => i.path),
      }));`;
    const result = await inProject(process.execPath, ['--input-type=module', '-e', script]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      load: 'function',
      TaskClient: 'function',
      verify: 'function',
      issues: ['cancelled'],
    });
  });

  it("type-checks a consumer under node16 resolution with the installed packages' declarations, none skipped", async () => {
    writeFileSync(
      join(project, 'consumer.mts'),
      `import { load } from 'service-widget';
import { TaskClient } from 'service-widget/client';
import { parseOrderCancellationRequest, type OrderCancellationRequest } from 'service-widget/schemas/v20240910';
const r = parseOrderCancellationRequest({});
const id: string | undefined = r.ok ? r.value.orderId : undefined;
const request: OrderCancellationRequest | undefined = r.ok ? r.value : undefined;
// @ts-expect-error the schema's type is real (valibot's types installed with it), not any
const wrong: number | undefined = r.ok ? r.value.orderId : undefined;
void load; void TaskClient; void id; void request; void wrong;
`,
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16'];
    const result = await inProject(process.execPath, [
      tsc,
      ...flags,
      '--skipLibCheck',
      'false',
      'consumer.mts',
    ]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  // Issue 36: the README's browser examples (e2e/types-consumer/) as a storefront with a bundler compiles them, with no
  // global.d.ts of its own: window.Service, window.serviceSettings and the service:* events come from the package.
  it("compiles the README's examples against the installed package, strict, with no declarations of its own", async () => {
    const consumer = join(project, 'types-consumer');
    cpSync(join(root, 'e2e/types-consumer'), consumer, { recursive: true });
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await inProject(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.json')]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});

// Issue 36: `service-widget/react` and `service-widget/vue` in a storefront that has its framework. React and Vue are
// optional peer dependencies, so the shop above got neither; this one installs them beside the package.
describe("a React or Vue storefront's npm i service-widget", () => {
  let shop: string;
  const inShop = (file: string, args: string[]) =>
    run(file, args, { cwd: shop }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({
        code: e.code,
        stdout: e.stdout,
        stderr: e.stderr,
      }),
    );
  const pinned = (name: string) => `${name}@${manifest.devDependencies[name]}`;

  beforeAll(async () => {
    shop = join(work, 'shop-with-frameworks');
    mkdirSync(shop);
    writeFileSync(
      join(shop, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, dependencies: {} }),
    );
    const frameworks = ['react', 'react-dom', '@types/react', 'vue', '@vue/server-renderer'].map(pinned);
    await run('npm', ['install', ...NPM_FLAGS, ...frameworks, tarball], { cwd: shop });
  }, 120_000);

  it('installs no service runtime beside the frameworks, with no peer conflict', () => {
    const installed = installedPackages(join(shop, 'node_modules')).map((p) => p.replace(/@[^@]+$/, ''));
    expect(installed).toContain('service-widget');
    for (const name of Object.keys(manifest.peerDependencies)) {
      expect(installed.includes(name), name).toBe(name === 'react' || name === 'vue');
    }
  });

  it('renders both entries on the server in Node, loading nothing', async () => {
    const script = `
      const { createElement } = await import('react');
      const { renderToString } = await import('react-dom/server');
      const react = await import('service-widget/react');
      const { createSSRApp, h } = await import('vue');
      const vueServer = await import('@vue/server-renderer');
      const vue = await import('service-widget/vue');
      const Help = () => createElement('b', null, react.useService() ? 'ready' : 'loading');
      const reactHtml = renderToString(
        createElement('main', null, createElement(react.ServiceWidget, { widgetId: 'demo' }), createElement(Help)),
      );
      const app = createSSRApp({ setup: () => { const s = vue.useService(); return () => h('b', s.value ? 'ready' : 'loading'); } });
      const vueHtml = await vueServer.renderToString(app.use(vue.ServicePlugin, { widgetId: 'demo' }));
      console.log(JSON.stringify({ reactHtml, vueHtml }));`;
    const result = await inShop(process.execPath, ['--input-type=module', '-e', script]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      reactHtml: '<main><b>loading</b></main>',
      vueHtml: '<b>loading</b>',
    });
  });

  it("compiles the README's React and Vue examples against the installed packages, strict", async () => {
    const consumer = join(shop, 'types-consumer-frameworks');
    cpSync(join(root, 'e2e/types-consumer-frameworks'), consumer, { recursive: true });
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await inShop(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.json')]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});

describe("an operator's service-widget serve in that project", () => {
  it('stops with the one npm i line that the service needs (task runs without it), and starts after it', async () => {
    writeFileSync(
      join(project, 'service.config.json'),
      JSON.stringify({ adminKey: 'admin-key-123456', widgets: [{ id: 'shop', allowedOrigins: ['*'] }] }),
    );
    const bin = join(project, 'node_modules/.bin/service-widget');
    // The task command talks to a service over HTTP: it needs none of the service's packages.
    const task = await inProject(bin, ['task']);
    expect(task.code).toBe(2);
    expect(task.stderr).toContain('service-widget task "prompt"');
    const refused = await inProject(bin, ['serve', '--config', 'service.config.json']);
    expect(refused.code).toBe(1);
    const line = /^ {2}npm i (.+)$/m.exec(refused.stderr)?.[1].split(' ');
    // The optional peers but the frameworks of service-widget/react and /vue, which the service never imports.
    const peers = Object.keys(manifest.peerDependencies)
      .filter((name) => !FRAMEWORK_PEERS.includes(name))
      .map((name) => `${name}@${manifest.devDependencies[name]}`);
    expect(line?.sort()).toEqual(peers.sort());

    await run('npm', ['install', ...NPM_FLAGS, ...(line ?? [])], { cwd: project });
    const port = await freePort();
    service = spawn(
      bin,
      ['serve', '--config', 'service.config.json', '--port', String(port), '--data-dir', join(work, 'db')],
      { cwd: project, env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    service.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true,
      () => stderr,
    );
    const loader = await fetch(`${base}/sdk/loader.js`);
    expect(loader.status).toBe(200);
    expect(await loader.text()).toBe(
      readFileSync(join(project, 'node_modules/service-widget/dist/loader.js'), 'utf8'),
    );
  }, 120_000);
});

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
    server.once('error', fail);
  });
}

/** Polls `check` every 200 ms for up to 60 s; fails with what the service printed on stderr. */
async function waitFor(check: () => Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the service did not answer /healthz: ${output()}`);
}
