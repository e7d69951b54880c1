// @vitest-environment node
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli';
import { parseConfig } from '../../config/service-config';
import { startService } from '../../start';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  widgets: [{ id: 'demo', allowedOrigins: ['*'] }],
});
if (!config.ok) throw new Error(config.error);

describe('startService()', () => {
  it('listens on a free port and answers over real HTTP until closed', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'dist-'));
    writeFileSync(join(dist, 'loader.js'), '/*loader*/');
    const service = await startService({ config: config.value, port: 0, distDir: dist });
    try {
      expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${service.url}/sdk/loader.js`);
      expect(await res.text()).toBe('/*loader*/');
      expect((await fetch(`${service.url}/v0/widget/demo/config`)).status).toBe(200);
    } finally {
      await service.close();
    }
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  });
});

describe('service-widget serve (CLI)', () => {
  // In this process: the service's lines would go to the test runner's stdout.
  beforeEach(() => vi.stubEnv('LOG_LEVEL', 'silent'));
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  const capture = () => {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    return () => text;
  };

  it('stops with a message naming the bad field of an invalid config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'service.config.json');
    writeFileSync(
      file,
      JSON.stringify({ adminKey: 'admin-key-123456', widgets: [{ id: 'bad id!', allowedOrigins: [] }] }),
    );
    const stderr = capture();
    expect(await main(['serve', '--config', file, '--port', '0'])).toBe(1);
    expect(stderr()).toContain('widgets[0].id');
  });

  it('stops with one clear line when the openai engine has no API key in its environment variable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'service.config.json');
    const engine = {
      type: 'openai',
      baseUrl: 'https://models.example/v1',
      apiKeyEnv: 'NO_SUCH_KEY_VAR_FOR_TEST',
      models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
    };
    writeFileSync(
      file,
      JSON.stringify({ adminKey: 'admin-key-123456', engine, widgets: [{ id: 'w', allowedOrigins: ['*'] }] }),
    );
    const stderr = capture();
    expect(await main(['serve', '--config', file, '--port', '0', '--data-dir', join(dir, 'db')])).toBe(1);
    expect(stderr()).toContain(
      'Cannot start: engine.apiKeyEnv: the environment variable NO_SUCH_KEY_VAR_FOR_TEST is not set',
    );
  });

  it('stops with one clear line naming the variable when a widget identity secret is unset, empty or short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'service.config.json');
    const widgets = [
      { id: 'w', allowedOrigins: ['*'] },
      { id: 'shop', allowedOrigins: ['*'], identity: { secretEnv: 'SERVICE_TEST_IDENTITY_UNSET' } },
    ];
    writeFileSync(file, JSON.stringify({ adminKey: 'admin-key-123456', widgets }));
    const run = () => main(['serve', '--config', file, '--port', '0', '--data-dir', join(dir, 'db')]);
    for (const value of [undefined, '']) {
      if (value === undefined) delete process.env.SERVICE_TEST_IDENTITY_UNSET;
      else process.env.SERVICE_TEST_IDENTITY_UNSET = value;
      const stderr = capture();
      expect(await run()).toBe(1);
      expect(stderr()).toBe(
        'Cannot start: widgets[1].identity.secretEnv: the environment variable SERVICE_TEST_IDENTITY_UNSET is not set\n',
      );
    }
    process.env.SERVICE_TEST_IDENTITY_UNSET = 'short-secret';
    const stderr = capture();
    expect(await run()).toBe(1);
    // The line names the variable, never the secret.
    expect(stderr()).toContain('the secret in SERVICE_TEST_IDENTITY_UNSET must be at least 32 bytes');
    expect(stderr()).not.toContain('short-secret');
    delete process.env.SERVICE_TEST_IDENTITY_UNSET;
  });

  it('refuses a DATABASE_URL that is not a postgres:// URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'service.config.json');
    writeFileSync(
      file,
      JSON.stringify({ adminKey: 'admin-key-123456', widgets: [{ id: 'w', allowedOrigins: ['*'] }] }),
    );
    const stderr = capture();
    vi.stubEnv('DATABASE_URL', 'mysql://root@localhost/db');
    try {
      expect(await main(['serve', '--config', file, '--port', '0'])).toBe(1);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(stderr()).toBe(
      'Cannot start: DATABASE_URL must be a postgres:// or postgresql:// URL (its value is not shown: it may hold a password)\n',
    );
  });

  it('explains a file that is not JSON, a missing --config and an unknown command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ nope');
    const stderr = capture();
    expect(await main(['serve', '--config', file])).toBe(1);
    expect(stderr()).toMatch(/broken\.json is not valid JSON/);
    expect(await main(['serve'])).toBe(2);
    expect(stderr()).toContain('--config (or CONFIG) is required');
    expect(await main(['launch'])).toBe(2);
    expect(stderr()).toContain('Unknown command: launch');
  });
});

describe('findDistDir()', () => {
  it('finds dist/ from the source folder, from dist/server and from a bundled chunk folder', async () => {
    const { findDistDir } = await import('../../start');
    const { mkdirSync } = await import('node:fs');
    const root = mkdtempSync(join(tmpdir(), 'pkg-'));
    mkdirSync(join(root, 'dist', 'server', 'chunks'), { recursive: true });
    mkdirSync(join(root, 'src', 'server'), { recursive: true });
    writeFileSync(join(root, 'dist', 'loader.js'), '');
    for (const from of ['src/server', 'dist/server', 'dist/server/chunks']) {
      expect(findDistDir(join(root, from)), from).toBe(join(root, 'dist'));
    }
  });
});
