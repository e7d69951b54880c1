// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPreviewStore, type PreviewOptions } from '../../../console/settings/preview-store';
import { createSettingsApi } from '../../../console/settings/settings-api';
import { createSettingsStore } from '../../../console/settings/settings-store';
import { PREVIEW_HEADER } from '../../../protocol/widget-settings';
import { ADMIN_KEY, type PreviewService, startPreviewService } from '../../testing/preview-test-kit';

// The chat preview's store against the real service over HTTP: the draft stored after the debounce and dropped once
// the editors equal the live version, a draft put back on opening, the restart on a presentation change only, a
// refused draft leaving the last valid one, and the action test on an action that exists only in the draft.

let running: PreviewService;
beforeAll(async () => {
  running = await startPreviewService();
});
afterAll(() => running?.close());

const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  // Each test starts without a draft.
  const api = createSettingsApi(running.fetch);
  await api.deleteDraft(ADMIN_KEY, 'demo');
  running.integrator.requests.length = 0;
});

const DEBOUNCE_MS = 40;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await wait(10);
  }
}

async function open(options: PreviewOptions = {}) {
  const api = createSettingsApi(running.fetch);
  const ctx = { key: () => ADMIN_KEY, widgetId: () => 'demo', failed: (e: { message: string }) => e.message };
  const settings = createSettingsStore(api, ctx);
  const preview = createPreviewStore(api, settings, ctx, { debounceMs: DEBOUNCE_MS, ...options });
  stops.push(() => preview.stop());
  await settings.load();
  await preview.start();
  return { api, settings, preview };
}

describe('chat preview store (real service)', () => {
  it('stores the edits as the draft after the debounce, and gets a preview token', async () => {
    const { api, settings, preview } = await open();
    expect(preview.session.value?.previewBaseUrl).toMatch(/\/preview\/.+/);
    expect(preview.sync.value).toBe('live');
    settings.edit('title', (s) => {
      s.title = 'Preview title';
    });
    expect(preview.sync.value).toBe('pending');
    const before = await api.draft(ADMIN_KEY, 'demo');
    expect(before.ok && before.value.isDraft).toBe(false);
    await until(() => preview.sync.value === 'stored');
    const after = await api.draft(ADMIN_KEY, 'demo');
    expect(after.ok && after.value).toMatchObject({ isDraft: true, settings: { title: 'Preview title' } });
  });

  it('asks for a new token before the current one expires, and starts the conversation again on it', async () => {
    // A clock an hour ahead: the token (an hour) is due at once.
    const { preview } = await open({ now: () => Date.now() + 3_600_000, minRenewWaitMs: 50 });
    const first = preview.session.value?.previewBaseUrl;
    const run = preview.run.value;
    await until(() => preview.session.value?.previewBaseUrl !== first);
    expect(preview.session.value?.previewBaseUrl).toMatch(/\/preview\/.+/);
    await until(() => preview.run.value > run);
    expect(preview.restartReason.value).toBe('renewed');
    preview.stop();
  });

  it('restarts the conversation for a presentation change, not for instructions', async () => {
    const { settings, preview } = await open();
    const run = preview.run.value;
    settings.edit('instructions', (s) => {
      s.instructions = 'Be brief.';
    });
    await until(() => preview.sync.value === 'stored');
    expect(preview.run.value).toBe(run);
    settings.edit('greeting', (s) => {
      s.greeting = 'Hello from the draft';
    });
    await until(() => preview.run.value === run + 1);
    expect(preview.restartReason.value).toBe('presentation');
  });

  it('deletes the draft after a save (the preview then answers with the new live version)', async () => {
    const { api, settings, preview } = await open();
    settings.edit('title', (s) => {
      s.title = 'Saved title';
    });
    await until(() => preview.sync.value === 'stored');
    await settings.save();
    expect(settings.notice.value?.kind).toBe('saved');
    await until(() => preview.sync.value === 'live');
    const found = await api.draft(ADMIN_KEY, 'demo');
    expect(found.ok && found.value).toMatchObject({ isDraft: false, settings: { title: 'Saved title' } });
  });

  it('puts a stored draft back into the editors on opening, and discards it on request', async () => {
    const first = await open();
    first.settings.edit('greeting', (s) => {
      s.greeting = 'Left as a draft';
    });
    await until(() => first.preview.sync.value === 'stored');
    first.preview.stop();

    const again = await open();
    expect(again.settings.draft.value?.greeting).toBe('Left as a draft');
    expect(again.settings.isDirty.value).toBe(true);
    expect(again.preview.restored.value?.savedAt).toMatch(/^\d{4}-/);
    again.preview.discardRestored();
    expect(again.settings.isDirty.value).toBe(false);
    await until(() => again.preview.sync.value === 'live');
    const found = await again.api.draft(ADMIN_KEY, 'demo');
    expect(found.ok && found.value.isDraft).toBe(false);
  });

  it('keeps the last valid draft while the editors have an error, and says so', async () => {
    const { api, settings, preview } = await open();
    settings.edit('title', (s) => {
      s.title = 'Valid draft';
    });
    await until(() => preview.sync.value === 'stored');
    settings.edit('actions[0].url', (s) => {
      s.actions![0].url = 'https://shop.example/orders/{nope}';
    });
    await until(() => preview.sync.value === 'invalid');
    const found = await api.draft(ADMIN_KEY, 'demo');
    expect(found.ok && found.value.settings.title).toBe('Valid draft');
    expect(found.ok && found.value.settings.actions?.[0].url).toMatch(/\{orderId\}$/);
    // One the console lets through and the service refuses (400 invalid_settings): the same.
    settings.edit('actions[0].url', (s) => {
      s.actions![0].url = `${running.integrator.url}/orders/{orderId}`;
    });
    await until(() => preview.sync.value === 'stored');
    settings.edit('title', (s) => {
      s.title = '   ';
    });
    expect(settings.errorCount.value).toBe(0);
    await until(() => preview.sync.value === 'invalid');
    const kept = await api.draft(ADMIN_KEY, 'demo');
    expect(kept.ok && kept.value.settings.title).toBe('Valid draft');
  });

  it('tests an action that exists only in the draft, storing the draft first, marked as a preview', async () => {
    const { settings, preview } = await open();
    settings.edit('actions', (s) => {
      s.actions = [
        ...(s.actions ?? []),
        {
          name: 'Track parcel',
          method: 'GET',
          url: `${running.integrator.url}/orders/{orderId}`,
          parameters: [{ name: 'orderId', type: 'string', required: true }],
          enabled: false,
        },
      ];
    });
    // Called before the debounce ran: the flush stores the draft first.
    const result = await preview.testAction('Track parcel', { orderId: 'A/1002' });
    expect(result.ok && result.value).toMatchObject({ ok: true, status: 200 });
    expect(result.ok && result.value.ok && result.value.part?.type).toBe('order-card');
    const call = running.integrator.requests.at(-1);
    expect(call?.pathname).toBe('/orders/A%2F1002');
    expect(call?.headers[PREVIEW_HEADER]).toBe('1');
  });
});
