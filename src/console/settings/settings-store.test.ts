import { describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { createConsoleApi } from '../api';
import { createConsoleStore } from '../store';
import { createSettingsApi } from './settings-api';
import { createSettingsStore, SETTINGS_MESSAGES } from './settings-store';
import { createSettingsStandIn } from './settings-test-kit';

// The settings store against a stand-in of the service's settings routes (the protocol's shapes over fetch).

const KEYS = {
  'admin-key': { id: 'admin', name: 'Admin', role: 'admin' as const },
  'anna-key': { id: 'anna', name: 'Anna', role: 'agent' as const },
};

const DEMO: EditableWidgetSettings = {
  allowedOrigins: ['https://shop.example'],
  title: 'Demo shop',
  actions: [
    {
      name: 'Order status',
      method: 'GET',
      url: 'https://shop.example/api/orders/{orderId}',
      parameters: [{ name: 'orderId', type: 'string' }],
    },
  ],
};

function setup(key = 'admin-key') {
  const service = createSettingsStandIn({
    keys: KEYS,
    widgets: { demo: DEMO, other: { allowedOrigins: ['*'] } },
  });
  let widget = 'demo';
  const failures: number[] = [];
  const store = createSettingsStore(createSettingsApi(service.fetch), {
    key: () => key,
    widgetId: () => widget,
    failed: (e) => {
      failures.push(e.status);
      return e.status === 401 ? null : e.message;
    },
  });
  return {
    service,
    store,
    failures,
    select: (id: string) => {
      widget = id;
    },
  };
}

describe('a knowledge section asked for from Insights (issue 35)', () => {
  it('waits for the settings of its widget, then adds a section titled with the question on one line', async () => {
    const { store, select } = setup();
    const question = `Can I   pay\nby invoice? ${'and more '.repeat(40)}`;
    store.queueKnowledge('demo', question);
    // Not loaded yet: nothing to add to.
    store.applyPendingKnowledge();
    expect(store.pendingKnowledge.value).not.toBeNull();
    select('other');
    await store.load();
    store.applyPendingKnowledge();
    expect(store.draft.value?.knowledge).toBeUndefined();
    select('demo');
    await store.load();
    store.applyPendingKnowledge();
    const added = store.draft.value?.knowledge ?? [];
    expect(added).toHaveLength(1);
    expect(added[0].title).toMatch(/^Can I pay by invoice\? and more and more/);
    expect(added[0].title).toHaveLength(200);
    expect(added[0].title.endsWith('…')).toBe(true);
    expect(added[0].text).toBe('');
    expect(store.reveal.value).toEqual({ editor: 'knowledge', path: 'knowledge[0].text' });
    expect(store.pendingKnowledge.value).toBeNull();
    // The empty text is not shown in red before the merchant wrote anything; it still keeps the draft from a save.
    expect(store.issuesAt('knowledge[0].text')).toEqual([]);
    expect(store.errorCount.value).toBe(1);
  });
});

describe('fields just added (a new knowledge section)', () => {
  it('shows their checks once they are edited, and every check once a save is tried', async () => {
    const { store, service } = setup();
    await store.load();
    store.edit('knowledge', (d) => {
      d.knowledge = [...(d.knowledge ?? []), { title: '', text: '' }];
    });
    store.hold(['knowledge[0].title', 'knowledge[0].text']);
    expect(store.issuesAt('knowledge[0].title')).toEqual([]);
    expect(store.issuesAt('knowledge[0].text')).toEqual([]);
    expect(store.shownIssues.value.filter((i) => i.level === 'error')).toEqual([]);
    expect(store.errorCount.value).toBe(2);
    // Typing a title, then clearing it: the title's check is back; the text's is still held.
    store.edit('knowledge[0].title', (d) => {
      (d.knowledge ?? [])[0].title = 'Gift cards';
    });
    store.edit('knowledge[0].title', (d) => {
      (d.knowledge ?? [])[0].title = '';
    });
    expect(store.issuesAt('knowledge[0].title')).toHaveLength(1);
    expect(store.issuesAt('knowledge[0].text')).toEqual([]);
    // A save is refused before anything is sent, and now says what is missing beside both fields.
    const saves = service.requests.length;
    await store.save();
    expect(service.requests.length).toBe(saves);
    expect(store.notice.value).toEqual({ kind: 'invalid', count: 2 });
    expect(store.issuesAt('knowledge[0].text').map((i) => i.message)).toEqual(['Write the section’s text.']);
  });
});

describe('settings store', () => {
  it('loads the live version into a working copy; an edit marks it unsaved, a save makes a new version', async () => {
    const { store, service } = setup();
    await store.load();
    expect(store.version.value).toBe(1);
    expect(store.isDirty.value).toBe(false);
    store.edit('title', (s) => {
      s.title = 'The demo shop';
    });
    expect(store.isDirty.value).toBe(true);
    expect(store.saved.value?.title).toBe('Demo shop');
    await store.save();
    expect(store.notice.value).toEqual({ kind: 'saved', version: 2 });
    expect(store.version.value).toBe(2);
    expect(store.isDirty.value).toBe(false);
    const put = service.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toMatchObject({ baseVersion: 1, settings: { title: 'The demo shop' } });
    expect(service.latest('demo').settings.title).toBe('The demo shop');
  });

  it("does not send while the console's own checks find an error, and asks for the focus on it", async () => {
    const { store, service } = setup();
    await store.load();
    store.edit('actions[0].url', (s) => {
      s.actions![0].url = 'https://shop.example/api/orders/{orderNumber}';
    });
    expect(store.issuesAt('actions[0].url')[0]).toMatchObject({ level: 'error', source: 'console' });
    const focus = store.focusRequest.value;
    await store.save();
    expect(service.requests.some((r) => r.method === 'PUT')).toBe(false);
    expect(store.notice.value).toEqual({ kind: 'invalid', count: 1 });
    expect(store.focusRequest.value).toBe(focus + 1);
  });

  it("puts the service's issues beside their paths, and clears one when its field changes", async () => {
    const { store } = setup();
    await store.load();
    // The console has no rule for an empty title (it means "the default"); the stand-in refuses it, as a stricter
    // service would: its verdict is shown all the same.
    store.edit('title', (s) => {
      s.title = '   ';
    });
    await store.save();
    expect(store.notice.value).toEqual({ kind: 'invalid', count: 1 });
    expect(store.issuesAt('title')).toEqual([
      { path: 'title', message: 'must not be empty', level: 'error', source: 'service' },
    ]);
    expect(store.isDirty.value).toBe(true);
    store.edit('greeting', (s) => {
      s.greeting = 'Hi';
    });
    expect(store.issuesAt('title')).toHaveLength(1);
    store.edit('title', (s) => {
      s.title = 'Fixed';
    });
    expect(store.issuesAt('title')).toEqual([]);
  });

  it('says so when another save came first, keeps the edit until the merchant reloads, then shows the latest', async () => {
    const { store, service } = setup();
    await store.load();
    store.edit('title', (s) => {
      s.title = 'Mine';
    });
    service.saveElsewhere('demo', (s) => {
      s.greeting = 'Theirs';
    });
    await store.save();
    expect(store.notice.value).toEqual({ kind: 'conflict' });
    expect(store.draft.value?.title).toBe('Mine');
    expect(store.version.value).toBe(1);
    expect(SETTINGS_MESSAGES.conflict).toMatch(/discarded/);
    await store.load();
    expect(store.version.value).toBe(2);
    expect(store.draft.value).toMatchObject({ title: 'Demo shop', greeting: 'Theirs' });
    expect(store.isDirty.value).toBe(false);
  });

  it('lists the versions newest first and compares one with the one before, field by field', async () => {
    const { store } = setup();
    await store.load();
    store.edit('actions[0].url', (s) => {
      s.actions![0].url = 'https://shop.example/api/v2/orders/{orderId}';
    });
    await store.save();
    await store.loadVersions();
    expect(store.versions.value.map((v) => [v.version, v.who])).toEqual([
      [2, 'admin'],
      [1, 'config'],
    ]);
    await store.showDiff(2);
    expect(store.diff.value).toMatchObject({ status: 'ready', hasPrevious: true });
    expect(store.diff.value?.changes).toEqual([
      {
        path: 'actions[0].url',
        label: 'Action 1 “Order status” · URL',
        before: 'https://shop.example/api/orders/{orderId}',
        after: 'https://shop.example/api/v2/orders/{orderId}',
      },
    ]);
  });

  it('rolls back as a new version equal to the one chosen, and shows it in the editors and the list', async () => {
    const { store } = setup();
    await store.load();
    store.edit('title', (s) => {
      s.title = 'Changed';
    });
    await store.save();
    await store.loadVersions();
    expect(await store.rollback(1)).toBe(true);
    expect(store.notice.value).toEqual({ kind: 'rolled-back', version: 3, to: 1 });
    expect(store.version.value).toBe(3);
    expect(store.draft.value?.title).toBe('Demo shop');
    expect(store.versions.value[0]).toMatchObject({ version: 3, rollbackOf: 1 });
  });

  it('shows why the settings could not be read (an agent: 403), and a 401 goes to the session', async () => {
    const agent = setup('anna-key');
    await agent.store.load();
    expect(agent.store.status.value).toBe('error');
    expect(agent.store.loadError.value).toBe('Admins only.');
    const stranger = setup('nobody');
    await stranger.store.load();
    expect(stranger.failures).toEqual([401]);
    expect(stranger.store.loadError.value).toBeNull();
  });

  it("drops one widget's working copy when another is loaded", async () => {
    const { store, select } = setup();
    await store.load();
    store.edit('title', (s) => {
      s.title = 'Edited';
    });
    select('other');
    await store.load();
    expect(store.widgetId.value).toBe('other');
    expect(store.draft.value).toEqual({ allowedOrigins: ['*'] });
  });
});

describe('the console with a Settings section', () => {
  async function signedIn(key: string, confirm: (message: string) => boolean = () => true) {
    const service = createSettingsStandIn({
      keys: KEYS,
      widgets: { demo: DEMO, other: { allowedOrigins: ['*'] } },
    });
    const asked: string[] = [];
    const store = createConsoleStore(createConsoleApi(service.fetch), {
      storage: null,
      pollMs: 60_000,
      confirm: (m) => {
        asked.push(m);
        return confirm(m);
      },
    });
    await store.signIn(key);
    return { store, asked, stop: () => store.signOut() };
  }

  it('shows Settings to an admin and not to an agent', async () => {
    const admin = await signedIn('admin-key');
    expect(admin.store.sections().map((s) => s.id)).toEqual([
      'conversations',
      'insights',
      'settings',
      'catalog',
      'events',
    ]);
    admin.stop();
    const agent = await signedIn('anna-key');
    expect(agent.store.sections().map((s) => s.id)).toEqual(['conversations']);
    agent.stop();
  });

  it('asks before unsaved settings are left (another section, another widget), and stays when told to', async () => {
    let answer = false;
    const { store, asked, stop } = await signedIn('admin-key', () => answer);
    store.showSection('settings');
    await store.settings.ensureLoaded();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.settings.status.value).toBe('ready');
    // Nothing changed: leaving asks nothing.
    store.showSection('conversations');
    expect(asked).toEqual([]);
    store.showSection('settings');
    await new Promise((r) => setTimeout(r, 0));
    store.settings.edit('title', (s) => {
      s.title = 'Unsaved';
    });
    store.showSection('conversations');
    expect(store.section.value).toBe('settings');
    expect(store.selectWidget('other')).toBe(false);
    expect(store.widgetId.value).toBe('demo');
    expect(asked).toEqual([SETTINGS_MESSAGES.leave, SETTINGS_MESSAGES.leave]);
    expect(store.settings.draft.value?.title).toBe('Unsaved');
    answer = true;
    store.showSection('conversations');
    expect(store.section.value).toBe('conversations');
    expect(store.settings.draft.value).toBeNull();
    stop();
  });
});
