// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../../protocol/widget-settings';
import { widgetClient } from '../../testing/identity-test-kit';
import {
  admin,
  type Instances,
  settingsBackends,
  settingsConfig,
  within,
} from '../../testing/settings-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 22, the settings API over real HTTP (src/protocol/widget-settings.ts): versions seeded from the config file,
// saves with baseVersion, rollback, every issue by its config path, secrets never sent nor stored; and a save live for
// shoppers at once (one instance) and within a second on another instance sharing the PostgreSQL database.

const ORIGIN = 'https://shop.example';
const PUSH_KEY = 'push-key-that-is-a-secret-1';
const FEED_TOKEN = 'feed-token-that-is-a-secret-2';

let integrator: RecordingServer;
beforeAll(async () => {
  integrator = await startRecordingServer('http');
});
afterAll(() => integrator?.close());
beforeEach(() => {
  integrator.requests.length = 0;
  integrator.respond = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ open: 'from 9 to 5' }));
  };
});

const shop = () => ({
  id: 'shop',
  title: 'Shop help',
  allowedOrigins: [ORIGIN],
  productDataApiKeys: [PUSH_KEY],
  // A closed port: the feed fails in the background, which is all these tests need of it.
  feeds: [{ url: 'http://127.0.0.1:9/feed.json', format: 'json', token: FEED_TOKEN, refreshMinutes: 600 }],
  actions: [
    {
      name: 'Store opening hours',
      description: 'When the store is open.',
      method: 'GET',
      url: `${integrator.url}/hours`,
    },
  ],
});

const settingsPath = '/widgets/shop/settings';

describe.each(settingsBackends)('the settings API ($name)', (backend) => {
  let service: Instances;
  let url: string;
  beforeAll(async () => {
    service = await backend.start(settingsConfig([shop()]));
    url = service.urls[0];
  }, 60_000);
  afterAll(() => service?.close());

  const current = async () =>
    (await admin(url, settingsPath)).json as { version: number; settings: Required<EditableWidgetSettings> };
  const save = (settings: unknown, baseVersion: number) =>
    admin(url, settingsPath, { method: 'PUT', body: { settings, baseVersion } });

  it('serves the config file as version 1, by "config", without its secrets', async () => {
    const got = await admin(url, settingsPath);
    expect(got.status).toBe(200);
    expect(got.json.version).toBe(1);
    expect(got.json.settings).toMatchObject({ title: 'Shop help', allowedOrigins: [ORIGIN] });
    expect(got.json.settings.feeds).toEqual([
      { url: 'http://127.0.0.1:9/feed.json', format: 'json', refreshMinutes: 600 },
    ]);
    expect(got.json.settings).not.toHaveProperty('productDataApiKeys');
    expect(got.json.settings).not.toHaveProperty('id');
    expect(got.text).not.toContain(PUSH_KEY);
    expect(got.text).not.toContain(FEED_TOKEN);
    const versions = await admin(url, `${settingsPath}/versions`);
    expect(versions.json.versions).toEqual([
      { version: 1, who: 'config', when: expect.any(String), summary: 'from the config file' },
    ]);
  });

  it("takes GET's settings back through PUT unchanged", async () => {
    const before = await current();
    const saved = await save(before.settings, before.version);
    expect(saved).toMatchObject({ status: 200, json: { version: before.version + 1 } });
    const after = await current();
    expect(after.settings).toEqual(before.settings);
    const [newest] = (await admin(url, `${settingsPath}/versions`)).json.versions;
    // Who saved it, by id and by the name the config gives (the adminKey is the "Store team").
    expect(newest).toMatchObject({
      version: after.version,
      who: 'admin',
      whoName: 'Store team',
      summary: 'no changes',
    });
  });

  it("a save is what shoppers get at once: the widget's title, an action's URL, an allowed origin", async () => {
    const { version, settings } = await current();
    const other = 'https://other-shop.example';
    settings.title = 'Ask us';
    settings.allowedOrigins = [ORIGIN, other];
    settings.actions[0].url = `${integrator.url}/hours-v2`;
    const saved = await save(settings, version);
    expect(saved.status).toBe(200);

    const config = await fetch(`${url}/v0/widget/shop/config`, { headers: { origin: other } });
    expect(config.status).toBe(200);
    expect(((await config.json()) as { title: string }).title).toBe('Ask us');
    const client = widgetClient(url, 'shop');
    await client.say(await client.create(), 'What are the store opening hours?');
    expect(integrator.requests.map((r) => r.pathname)).toEqual(['/hours-v2']);

    const [newest] = (await admin(url, `${settingsPath}/versions`)).json.versions;
    expect(newest.summary).toBe('allowedOrigins; actions[0] (Store opening hours): url; title');
  });

  it('a save changes the store knowledge the assistant answers from, at once', async () => {
    const client = widgetClient(url, 'shop');
    const question = 'what payment methods do you take';
    expect((await client.say(await client.create(), question)).text).not.toContain('cash on delivery');
    const { version, settings } = await current();
    const knowledge = [{ title: 'Payment methods', text: 'We accept Visa and cash on delivery.' }];
    expect((await save({ ...settings, knowledge }, version)).status).toBe(200);
    expect((await client.say(await client.create(), question)).text).toContain(
      'We accept Visa and cash on delivery.',
    );
  });

  it("a save changes the widget's limits at once", async () => {
    const client = widgetClient(url, 'shop');
    const { version, settings } = await current();
    // Every conversation of these tests comes from one address: a limit of 1 an hour is already used up.
    const limits = { ...settings.limits, conversationsPerIpPerHour: 1 };
    expect((await save({ ...settings, limits }, version)).status).toBe(200);
    expect((await client.create()).status).toBe(429);
    const back = await current();
    expect((await save({ ...back.settings, limits: settings.limits }, back.version)).status).toBe(200);
    expect((await client.create()).status).toBe(201);
  });

  it('refuses a stale save with 409 version_conflict, and of two saves from one base exactly one wins', async () => {
    const { version, settings } = await current();
    const both = await Promise.all([
      save({ ...settings, greeting: 'Hello from A' }, version),
      save({ ...settings, greeting: 'Hello from B' }, version),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = both.find((r) => r.status === 409);
    expect(lost?.json.error.code).toBe('version_conflict');
    const won = both.find((r) => r.status === 200);
    expect((await current()).version).toBe(won?.json.version);
    // The same stale base again, and a base from the future.
    expect((await save(settings, version)).status).toBe(409);
    expect((await save(settings, version + 50)).status).toBe(409);
  });

  it('rolls back as a new version equal to the old one, live at once', async () => {
    const before = await current();
    const rolled = await admin(url, `${settingsPath}/rollback`, { method: 'POST', body: { version: 1 } });
    expect(rolled).toMatchObject({ status: 200, json: { version: before.version + 1 } });
    const v1 = await admin(url, `${settingsPath}/versions/1`);
    expect((await current()).settings).toEqual(v1.json.settings);
    const [newest] = (await admin(url, `${settingsPath}/versions`)).json.versions;
    expect(newest).toMatchObject({ rollbackOf: 1, who: 'admin' });
    expect(newest.summary).toMatch(/^rollback to version 1: /);
    const config = await (await fetch(`${url}/v0/widget/shop/config`)).json();
    expect((config as { title: string }).title).toBe('Shop help');
    expect(
      (await admin(url, `${settingsPath}/rollback`, { method: 'POST', body: { version: 999 } })).status,
    ).toBe(404);
  });

  it('refuses bad settings with every issue at its config path, and saves nothing', async () => {
    const { version, settings } = await current();
    const bad = {
      ...settings,
      themeColor: 'red; background: url(x)',
      limits: { ...settings.limits, openStreamsPerIp: -3 },
      colour: '#fff',
      actions: [{ ...settings.actions[0], url: `${integrator.url}/orders/{orderId}` }],
    };
    const refused = await save(bad, version);
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('invalid_settings');
    expect(refused.json.error.issues).toEqual(
      expect.arrayContaining([
        { path: 'actions[0].url', message: '{orderId} is not a parameter of the action (parameters: none)' },
        { path: 'themeColor', message: 'must be a hex colour like #1f6feb' },
        { path: 'limits.openStreamsPerIp', message: 'must be at least 1' },
        { path: 'colour', message: 'is not a known field' },
      ]),
    );
    expect(refused.json.error.issues).toHaveLength(4);
    expect((await current()).version).toBe(version);
  });

  it('refuses an environment variable that is not set here, at its path', async () => {
    const { version, settings } = await current();
    const refused = await save({ ...settings, signingSecretEnv: 'SETTINGS_TEST_NOT_SET' }, version);
    expect(refused.json.error.issues).toEqual([
      {
        path: 'signingSecretEnv',
        message: 'the environment variable SETTINGS_TEST_NOT_SET is not set',
      },
    ]);
  });

  it('never takes a secret from PUT, and never stores one in a version', async () => {
    const { version, settings } = await current();
    const refused = await save(
      {
        ...settings,
        productDataApiKeys: ['push-key-chosen-by-an-attacker'],
        feeds: [{ ...settings.feeds[0], token: 'x' }],
      },
      version,
    );
    expect(refused.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'feeds[0].token',
      'productDataApiKeys',
    ]);
    // A saved feed keeps its token: the catalog is still fetched with it (joined in from the config file).
    expect((await save(settings, version)).status).toBe(200);
    const rows = await service.db.query<{ settings: string }>(
      'SELECT settings::text AS settings FROM widget_settings_versions',
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row.settings).not.toContain(PUSH_KEY);
      expect(row.settings).not.toContain(FEED_TOKEN);
      expect(row.settings).not.toContain('productDataApiKeys');
    }
  });

  it('answers 404 for an unknown widget or version, 415 for a body that is not JSON, 400 for a bad body', async () => {
    expect((await admin(url, '/widgets/nope/settings')).status).toBe(404);
    expect((await admin(url, `${settingsPath}/versions/0`)).status).toBe(404);
    expect((await admin(url, `${settingsPath}/versions/abc`)).status).toBe(404);
    const form = await fetch(`${url}/v0/admin${settingsPath}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer admin-key-for-settings-tests', 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    expect((await admin(url, settingsPath, { method: 'PUT', body: '{"settings":' })).status).toBe(400);
    const noBase = await admin(url, settingsPath, { method: 'PUT', body: { settings: {} } });
    expect(noBase.json.error).toMatchObject({ code: 'invalid_request' });
  });
});

const postgres = settingsBackends.find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('a save on one instance, on another sharing the PostgreSQL database', () => {
  let service: Instances;
  beforeAll(async () => {
    service = await (postgres as NonNullable<typeof postgres>).start(settingsConfig([shop()]), 2);
  }, 60_000);
  afterAll(() => service?.close());

  it('seeds version 1 once although both instances started at once', async () => {
    const rows = await service.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM widget_settings_versions WHERE widget_id = $1',
      ['shop'],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers shoppers on the other instance within a second: title, action URL, allowed origin', async () => {
    const [a, b] = service.urls;
    const { version, settings } = (await admin(a, settingsPath)).json;
    const other = 'https://other-shop.example';
    expect((await fetch(`${b}/v0/widget/shop/config`, { headers: { origin: other } })).status).toBe(403);
    const saved = await admin(a, settingsPath, {
      method: 'PUT',
      body: {
        baseVersion: version,
        settings: {
          ...settings,
          title: 'Saved on A',
          allowedOrigins: [ORIGIN, other],
          actions: [{ ...settings.actions[0], url: `${integrator.url}/hours-from-a` }],
        },
      },
    });
    expect(saved.status).toBe(200);
    const took = await within(2000, async () => {
      const res = await fetch(`${b}/v0/widget/shop/config`, { headers: { origin: other } });
      return res.status === 200 && ((await res.json()) as { title: string }).title === 'Saved on A';
    });
    expect(took).toBeLessThan(1000);
    const client = widgetClient(b, 'shop');
    await client.say(await client.create(), 'What are the store opening hours?');
    expect(integrator.requests.map((r) => r.pathname)).toEqual(['/hours-from-a']);
    // B's API reads the database: a save on B from A's old base is stale.
    const stale = await admin(b, settingsPath, { method: 'PUT', body: { baseVersion: version, settings } });
    expect(stale.status).toBe(409);
  });
});
