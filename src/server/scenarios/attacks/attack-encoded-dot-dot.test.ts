// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { CHUNK, LOADER, makeTestDist, rawGet, SERVER_BUNDLE } from '../../testing/test-dist';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  widgets: [{ id: 'demo', allowedOrigins: ['*'] }],
});
if (!config.ok) throw new Error(config.error);

let service: RunningService;
beforeAll(async () => {
  service = await startService({ config: config.value, port: 0, distDir: makeTestDist() });
});
afterAll(() => service.close());

describe('attack: an encoded ../ under /sdk/', () => {
  // Every way of spelling "one folder up, then the server bundle" (or another file outside the list).
  const attempts = [
    '/sdk/chunks/..%2Fserver%2Fcli.js',
    '/sdk/chunks/..%2fserver%2fcli.js',
    '/sdk/chunks/%2e%2e/server/cli.js',
    '/sdk/chunks/%2E%2E%2Fserver%2Fcli.js',
    '/sdk/chunks/%252e%252e%252fserver%252fcli.js',
    '/sdk/chunks/..%252Fserver%252Fcli.js',
    '/sdk/chunks/..%5Cserver%5Ccli.js',
    '/sdk/chunks/../server/cli.js',
    '/sdk/..%2Fpackage.json',
    '/sdk//server/cli.js',
    '/sdk/chunks//mount-BXb58IcT.js',
    '/sdk/%2Fetc%2Fpasswd',
    '/sdk/chunks/mount-BXb58IcT.js%00.txt',
    '/sdk/server/cli.js',
    '/sdk/server/chunks/app-Ab12Cd34.js',
    '/sdk/index.js',
    '/sdk/console/assets/console.js',
    '/sdk/notes.txt',
    '/sdk/loader.js.br',
    '/sdk/chunks/other-Zz99Yy88.js',
  ];

  for (const path of attempts) {
    // A NUL (`%00`) in any URL is refused before the routes since issue 32: 400, never the file either.
    const refused = path.includes('%00') ? 400 : 404;
    it(`answers ${refused} and never the file for ${path}`, async () => {
      const res = await rawGet(service.url, path);
      expect(res.status).toBe(refused);
      expect(res.body.toString()).not.toContain('the service itself');
      expect(res.body.toString()).not.toContain(SERVER_BUNDLE);
    });
  }

  it('answers 400 to a raw backslash, refused by the HTTP layer before any route', async () => {
    const res = await rawGet(service.url, '/sdk/chunks/..\\server\\cli.js');
    expect(res.status).toBe(400);
    expect(res.body.toString()).not.toContain(SERVER_BUNDLE);
  });

  it('still serves the files on the list', async () => {
    const loader = await rawGet(service.url, '/sdk/loader.js');
    expect(loader.status).toBe(200);
    expect(loader.body.toString()).toBe(LOADER);
    const chunk = await rawGet(service.url, '/sdk/chunks/mount-BXb58IcT.js');
    expect(chunk.status).toBe(200);
    expect(chunk.body.toString()).toBe(CHUNK);
  });
});
