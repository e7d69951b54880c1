// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWidget, type WidgetSettings } from '../config/service-config';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { createLogger } from '../platform/logger';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { editableOf } from './editable-settings';
import { createSettingsStore, type SettingsStore } from './settings-store';
import { openWidgetRegistry } from './widget-registry';

// Issue 22: the registry every widget read goes through. Seeding and restarts against the same database (a second
// registry is a restarted instance), a version an instance cannot run, a widget gone from the config file, and the
// config file's secrets joined in at read time.

const fileWidget = (fields: Record<string, unknown> = {}): WidgetSettings => {
  const parsed = parseWidget({
    id: 'shop',
    allowedOrigins: ['https://shop.example'],
    title: 'From the file',
    feeds: [{ url: 'https://shop.example/feed.json', token: 'feed-secret' }],
    ...fields,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
};

describe.each(backends)('the widget registry ($name)', (backend: Backend) => {
  let db: Db;
  let store: SettingsStore;
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line) });
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    store = createSettingsStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const open = (widgets: WidgetSettings[]) => openWidgetRegistry({ store, fileWidgets: widgets, logger });
  const whoOf = async () => (await store.versions('shop')).map((v) => `${v.version} ${v.who}: ${v.summary}`);

  it('seeds version 1 from the file, with the secrets joined in at read time and never stored', async () => {
    const registry = await open([fileWidget()]);
    expect(registry.versionOf('shop')).toBe(1);
    expect(registry.get('shop')?.feeds[0].token).toBe('feed-secret');
    expect(JSON.stringify((await store.version('shop', 1))?.settings)).not.toContain('feed-secret');
    registry.close();
  });

  it("keeps the console's version across a restart with the same file, and takes a saved one at once", async () => {
    const first = await open([fileWidget()]);
    const settings = { ...editableOf(fileWidget()), title: 'From the console' };
    expect(await store.append('shop', 1, { settings, who: 'admin', summary: 'title' })).toBe(2);
    expect(first.get('shop')?.title).toBe('From the file');
    await first.settingsChanged();
    expect(first.get('shop')?.title).toBe('From the console');
    first.close();
    const restarted = await open([fileWidget()]);
    expect(restarted.get('shop')?.title).toBe('From the console');
    expect(await whoOf()).toEqual(['2 admin: title', '1 config: from the config file']);
    restarted.close();
  });

  it('makes a changed config file a new version by "config", once, on top of the newest', async () => {
    const changed = fileWidget({ title: 'Edited in the file' });
    const [a, b] = await Promise.all([open([changed]), open([changed])]);
    expect(a.get('shop')?.title).toBe('Edited in the file');
    expect(b.get('shop')?.title).toBe('Edited in the file');
    expect((await whoOf())[0]).toBe('3 config: the config file changed: title');
    expect(await whoOf()).toHaveLength(3);
    a.close();
    b.close();
  });

  it('keeps serving the last version when a new one cannot run here, and refuses to start on it', async () => {
    const registry = await open([fileWidget({ title: 'Edited in the file' })]);
    const [latest] = await store.latest(['shop']);
    const settings = { ...latest.settings, title: 'Signed', signingSecretEnv: 'REGISTRY_TEST_UNSET' };
    expect(await store.append('shop', latest.version, { settings, who: 'admin', summary: 'x' })).toBe(4);
    await registry.settingsChanged();
    expect(registry.get('shop')?.title).toBe('Edited in the file');
    expect(lines.join('')).toContain('REGISTRY_TEST_UNSET is not set');
    await expect(open([fileWidget({ title: 'Edited in the file' })])).rejects.toThrow(
      'widget shop: the stored settings cannot run here: version 4: signingSecretEnv: the environment variable REGISTRY_TEST_UNSET is not set',
    );
    registry.close();
  });

  it('leaves a widget removed from the config file out of service, its versions kept', async () => {
    const other = fileWidget({ id: 'other', feeds: [] });
    const registry = await open([other]);
    expect(registry.get('shop')).toBeUndefined();
    expect([...registry.widgets].map((w) => w.id)).toEqual(['other']);
    expect(await store.versions('shop')).toHaveLength(4);
    registry.close();
  });

  it('adds a changed config file once when another instance adds it between this one’s two reads', async () => {
    const changed = fileWidget({ id: 'raced', title: 'Edited in the file' });
    (await open([fileWidget({ id: 'raced' })])).close();
    // B stops after its first read of the stored versions until A has added the file's new content.
    let aDone!: () => void;
    const aAdded = new Promise<void>((resolve) => {
      aDone = resolve;
    });
    let bReads = 0;
    let bRead!: () => void;
    const bFirstRead = new Promise<void>((resolve) => {
      bRead = resolve;
    });
    const pausing =
      <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const answer = await read(...args);
        if (++bReads === 1) {
          bRead();
          await aAdded;
        }
        return answer;
      };
    const bStore: SettingsStore = {
      ...store,
      latest: pausing(store.latest),
      latestFromConfig: pausing(store.latestFromConfig),
    };
    const b = openWidgetRegistry({ store: bStore, fileWidgets: [changed], logger });
    await bFirstRead;
    const a = await open([changed]);
    aDone();
    (await b).close();
    a.close();
    expect((await store.versions('raced')).map((v) => v.who)).toEqual(['config', 'config']);
  });
});
