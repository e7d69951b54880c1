// @vitest-environment node
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_BODY_MAX } from '../../http/admin/settings-http';
import {
  ADMIN_KEY,
  AGENT_KEY,
  admin,
  type Instances,
  settingsBackends,
  settingsConfig,
} from '../../testing/settings-test-kit';

// Attacks on the settings API (issue 22): an agent's key on admin-only routes, forged keys, a body past the cap, and
// a field meant to reach an object's prototype. Each is refused with a clear error, and no version is added.

/** PUTs a body (or the start of one that never ends) and resolves with the answer, whenever the service gives it. */
function sendRaw(
  url: string,
  body: string,
  key: string | null,
  isWhole = true,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    const req = http.request(
      {
        hostname,
        port,
        path: `/v0/admin${base}`,
        method: 'PUT',
        // A connection of its own: the service closes one whose body it refused.
        agent: false,
        headers: {
          'content-type': 'application/json',
          ...(isWhole ? { 'content-length': Buffer.byteLength(body) } : {}),
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
      },
      (res) => {
        if (!isWhole) {
          // The service may drop a body it will never read once it has answered: the status is the answer.
          ok({ status: res.statusCode ?? 0, body: '' });
          res.resume();
          req.destroy();
          return;
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        // The service may close the connection right after its answer, before taking the rest of the body.
        const done = () => {
          ok({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        };
        res.on('end', done).on('error', done);
      },
    );
    // The service may close the connection before the whole body is sent: that is the point.
    req.on('error', (e) => {
      if (!req.destroyed) fail(e);
    });
    if (isWhole) req.end(body);
    // Otherwise chunked, and never ended.
    else req.write(body);
  });
}

const widget = { id: 'shop', allowedOrigins: ['https://shop.example'] };
const base = '/widgets/shop/settings';

describe.each(settingsBackends)('attacks on the settings API ($name)', (backend) => {
  let service: Instances;
  let url: string;
  beforeAll(async () => {
    service = await backend.start(settingsConfig([widget]));
    url = service.urls[0];
  }, 60_000);
  afterAll(() => service?.close());

  const versionCount = async () => (await admin(url, `${base}/versions`)).json.versions.length as number;
  const routes = async () => {
    const { json } = await admin(url, base);
    return [
      { method: 'GET', path: base },
      { method: 'PUT', path: base, body: { settings: { ...json.settings, title: 'Mine' }, baseVersion: 1 } },
      { method: 'GET', path: `${base}/versions` },
      { method: 'GET', path: `${base}/versions/1` },
      { method: 'POST', path: `${base}/rollback`, body: { version: 1 } },
    ];
  };

  it("refuses an agent's key on every settings route with 403 forbidden (admin only)", async () => {
    const before = await versionCount();
    for (const route of await routes()) {
      const answer = await admin(url, route.path, { ...route, key: AGENT_KEY });
      expect(answer.status, `${route.method} ${route.path}`).toBe(403);
      expect(answer.json.error.code).toBe('forbidden');
    }
    expect(await versionCount()).toBe(before);
  });

  it('refuses a forged, altered or missing key with 401 on every route', async () => {
    const before = await versionCount();
    for (const route of await routes()) {
      for (const key of [
        null,
        `${ADMIN_KEY}x`,
        ADMIN_KEY.slice(0, -1),
        'admin',
        `${AGENT_KEY} ${ADMIN_KEY}`,
      ]) {
        const answer = await admin(url, route.path, { ...route, key });
        expect(answer.status, `${route.method} ${route.path} with ${key}`).toBe(401);
        expect(answer.json.error.code).toBe('unauthorized');
      }
    }
    expect(await versionCount()).toBe(before);
  });

  it('refuses a body past the cap with 413, and checks the key before reading one', async () => {
    const before = await versionCount();
    const huge = JSON.stringify({
      settings: { allowedOrigins: ['*'], instructions: 'x'.repeat(SETTINGS_BODY_MAX) },
      baseVersion: 1,
    });
    const refused = await sendRaw(url, huge, ADMIN_KEY);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).error.code).toBe('body_too_large');
    // Without a key: answered before the body is read, while a body that never ends is still coming.
    expect((await sendRaw(url, huge.slice(0, 64 * 1024), null, false)).status).toBe(401);
    expect(await versionCount()).toBe(before);
  });

  it('refuses a __proto__ or constructor field as unknown, and nothing gains it', async () => {
    const { version, settings } = (await admin(url, base)).json;
    const body = `{"baseVersion":${version},"settings":${JSON.stringify(settings).replace(
      /^\{/,
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},',
    )}}`;
    const refused = await admin(url, base, { method: 'PUT', body });
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      '__proto__',
      'constructor',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await admin(url, base)).json.version).toBe(version);
  });
});
