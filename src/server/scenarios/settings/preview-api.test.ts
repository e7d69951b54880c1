// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_HEADER } from '../../../protocol/widget-settings';
import {
  ADMIN_KEY,
  AGENT_KEY,
  admin,
  type Instances,
  settingsBackends,
  settingsConfig,
} from '../../testing/settings-test-kit';
import { readSse, textOf } from '../../testing/sse-reader';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 22, item 4: the chat preview over real HTTP. An admin's draft, a preview token, and the real widget API behind
// `/preview/{token}`: the preview answers with the draft (config, actions), its conversations stay out of the queue
// and the lists, and its action calls carry x-service-preview: 1. On PGlite, and on PostgreSQL with two instances.

const CONSOLE = 'http://console.test';

let integrator: RecordingServer;
beforeAll(async () => {
  integrator = await startRecordingServer('http');
  integrator.respond = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        req.pathname === '/deals'
          ? [{ name: 'Merino tee', price: '€39', url: 'https://shop.test/merino' }]
          : { ok: true },
      ),
    );
  };
});
afterAll(() => integrator.close());

const dealsAction = () => ({
  name: 'Todays deals',
  description: 'The deals of the day',
  method: 'GET',
  url: `${integrator.url}/deals`,
  parameters: [],
});

const config = () =>
  settingsConfig([
    { id: 'shop', allowedOrigins: ['https://shop.test'], title: 'Shop help' },
    { id: 'other', allowedOrigins: ['https://other.test'] },
  ]);

/** The widget API as the preview's widget calls it: from the console's origin, at the preview's base URL. */
async function widgetCall(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
) {
  const res = await fetch(`${baseUrl}/v0/widget/shop${path}`, {
    method: init.method ?? 'GET',
    headers: {
      origin: CONSOLE,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return res;
}

async function openPreview(base: string, key = ADMIN_KEY) {
  const res = await fetch(`${base}/v0/admin/widgets/shop/preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, origin: CONSOLE },
  });
  return { status: res.status, json: (await res.json()) as { previewBaseUrl: string; expiresAt: string } };
}

/** The previewBaseUrl with the console's origin swapped for the instance's address (the test has no proxy). */
const reachable = (previewBaseUrl: string, base: string) => previewBaseUrl.replace(CONSOLE, base);

async function draftWith(base: string, change: Record<string, unknown>) {
  const live = await admin(base, '/widgets/shop/settings');
  return admin(base, '/widgets/shop/settings/draft', {
    method: 'PUT',
    body: { settings: { ...live.json.settings, ...change }, baseVersion: live.json.version },
  });
}

async function chat(baseUrl: string, text: string) {
  const created = await widgetCall(baseUrl, '/conversations', { method: 'POST', body: {} });
  expect(created.status).toBe(201);
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  const sent = await widgetCall(baseUrl, `/conversations/${conversationId}/messages`, {
    method: 'POST',
    token,
    body: { clientMessageId: 'm1', text },
  });
  const events = await readSse(sent);
  return { conversationId, token, events };
}

for (const backend of settingsBackends) {
  describe(`the chat preview (${backend.name})`, () => {
    let service: Instances;
    afterEach(async () => {
      await service?.close();
      integrator.requests.length = 0;
    });

    it('a draft is validated like a save, kept per admin, and separate from the live version', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const bad = await draftWith(base, {
        actions: [{ ...dealsAction(), url: `${integrator.url}/deals/{day}` }],
      });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('invalid_settings');
      expect(bad.json.error.issues.map((i: { path: string }) => i.path)).toContain('actions[0].url');

      const saved = await draftWith(base, { title: 'Draft title' });
      expect(saved.status).toBe(200);
      expect(Date.parse(saved.json.savedAt)).not.toBeNaN();
      const draft = await admin(base, '/widgets/shop/settings/draft');
      expect(draft.json).toMatchObject({ isDraft: true, baseVersion: 1, settings: { title: 'Draft title' } });
      // The live version is untouched, and the widget's public config too.
      expect((await admin(base, '/widgets/shop/settings')).json.settings.title).toBe('Shop help');
      const publicConfig = await fetch(`${base}/v0/widget/shop/config`);
      expect(((await publicConfig.json()) as { title: string }).title).toBe('Shop help');

      expect((await admin(base, '/widgets/shop/settings/draft', { method: 'DELETE' })).status).toBe(204);
      const gone = await admin(base, '/widgets/shop/settings/draft');
      expect(gone.json).toMatchObject({ isDraft: false, settings: { title: 'Shop help' } });
    });

    it("an agent's key is refused for drafts and previews (403), no key at all with 401", async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      expect((await admin(base, '/widgets/shop/settings/draft', { key: AGENT_KEY })).status).toBe(403);
      expect((await openPreview(base, AGENT_KEY)).status).toBe(403);
      expect((await admin(base, '/widgets/shop/preview', { method: 'POST', key: null })).status).toBe(401);
    });

    it('the preview answers with the draft: its config, and its new action, called with x-service-preview: 1', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      await draftWith(base, { title: 'Draft title', actions: [dealsAction()] });
      const preview = await openPreview(base);
      expect(preview.status).toBe(201);
      expect(preview.json.previewBaseUrl).toMatch(new RegExp(`^${CONSOLE}/preview/pv_`));
      const url = reachable(preview.json.previewBaseUrl, base);

      const previewConfig = await widgetCall(url, '/config');
      expect(previewConfig.status).toBe(200);
      expect(previewConfig.headers.get('access-control-allow-origin')).toBe(CONSOLE);
      expect(((await previewConfig.json()) as { title: string }).title).toBe('Draft title');

      const { events } = await chat(url, "Show me today's deals");
      const card = events.find((e) => e.event === 'message.part');
      expect(card?.data).toMatchObject({ part: { type: 'products' } });
      const call = integrator.requests.find((r) => r.pathname === '/deals');
      expect(call?.headers[PREVIEW_HEADER]).toBe('1');
      // The integrator is told the real widget, never the preview's internal id.
      expect(call?.headers['x-service-widget-id']).toBe('shop');

      // The live widget has no such action: the same question there calls nothing.
      integrator.requests.length = 0;
      const created = await fetch(`${base}/v0/widget/shop/conversations`, { method: 'POST' });
      const live = (await created.json()) as { conversationId: string; token: string };
      await readSse(
        await fetch(`${base}/v0/widget/shop/conversations/${live.conversationId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${live.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ clientMessageId: 'x1', text: "Show me today's deals" }),
        }),
      );
      expect(integrator.requests.filter((r) => r.pathname === '/deals')).toHaveLength(0);
    });

    it('a draft saved after the preview opened is what its next message runs (no new token needed)', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const preview = await openPreview(base);
      const url = reachable(preview.json.previewBaseUrl, base);
      const before = await chat(url, "Show me today's deals");
      expect(before.events.some((e) => e.event === 'message.part')).toBe(false);
      await draftWith(base, { actions: [dealsAction()] });
      const after = await chat(url, "Show me today's deals");
      expect(after.events.some((e) => e.event === 'message.part')).toBe(true);
    });

    it("the preview searches the draft's knowledge sections, the live widget does not", async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      await draftWith(base, {
        knowledge: [
          { title: 'Gift wrapping', text: 'We gift wrap any order for 3 euros, with a handwritten card.' },
        ],
      });
      const preview = await openPreview(base);
      const { events } = await chat(
        reachable(preview.json.previewBaseUrl, base),
        'Do you offer gift wrapping?',
      );
      expect(textOf(events)).toContain('handwritten card');
      const created = await fetch(`${base}/v0/widget/shop/conversations`, { method: 'POST' });
      const live = (await created.json()) as { conversationId: string; token: string };
      const liveEvents = await readSse(
        await fetch(`${base}/v0/widget/shop/conversations/${live.conversationId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${live.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ clientMessageId: 'k1', text: 'Do you offer gift wrapping?' }),
        }),
      );
      expect(textOf(liveEvents)).not.toContain('handwritten card');
    });

    it('preview conversations never reach the queue or the lists of the widget', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const preview = await openPreview(base);
      const { conversationId } = await chat(reachable(preview.json.previewBaseUrl, base), 'hello');
      const listed = await admin(base, '/widgets/shop/conversations');
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.json)).not.toContain(conversationId);
      const waiting = await admin(base, '/widgets/shop/conversations?mode=waiting');
      expect(JSON.stringify(waiting.json)).not.toContain(conversationId);
      // Nor can the widget's own API reach it.
      const direct = await fetch(`${base}/v0/widget/shop/conversations/${conversationId}/messages`);
      expect(direct.status).toBe(401);
    });

    it('attack: a forged, a malformed or an expired token, or another widget under a token, is one 404', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const preview = await openPreview(base);
      const url = reachable(preview.json.previewBaseUrl, base);
      const forged = `${base}/preview/pv_${'A'.repeat(43)}`;
      for (const target of [
        `${forged}/v0/widget/shop/config`,
        `${base}/preview/not-a-token/v0/widget/shop/config`,
        `${url}/v0/widget/other/config`,
      ]) {
        const res = await fetch(target);
        expect(res.status, target).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_preview');
      }
      // The preview's internal widget id is not a widget of the public API.
      const token = preview.json.previewBaseUrl.split('/preview/')[1];
      const [row] = await service.db.query<{ id: string }>('SELECT id FROM widget_previews');
      expect(token).not.toContain(row.id);
      expect((await fetch(`${base}/v0/widget/shop~${row.id}/config`)).status).toBe(404);
      // Expired: the same token a moment later is gone, with its conversations.
      await chat(url, 'hello');
      await service.db.query("UPDATE widget_previews SET expires_at = now() - interval '1 second'");
      expect((await fetch(`${url}/v0/widget/shop/config`)).status).toBe(404);
    });

    it('attack: a page on another origin cannot drive the preview even with its token', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const preview = await openPreview(base);
      const res = await fetch(
        `${reachable(preview.json.previewBaseUrl, base)}/v0/widget/shop/conversations`,
        {
          method: 'POST',
          headers: { origin: 'https://evil.test', 'content-type': 'application/json' },
          body: '{}',
        },
      );
      expect(res.status).toBe(403);
    });

    it('the action test calls the draft action with draft: true, and every test call says preview', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const none = await admin(base, '/widgets/shop/actions/Todays%20deals/test', {
        method: 'POST',
        body: { draft: true },
      });
      expect(none.status).toBe(404);
      await draftWith(base, { actions: [{ ...dealsAction(), enabled: false }] });
      const tested = await admin(base, '/widgets/shop/actions/Todays%20deals/test', {
        method: 'POST',
        body: { draft: true, params: {} },
      });
      expect(tested.status).toBe(200);
      expect(tested.json).toMatchObject({ ok: true, status: 200, part: { type: 'products' } });
      expect(tested.json.aiText).toContain('Merino tee');
      expect(integrator.requests.at(-1)?.headers[PREVIEW_HEADER]).toBe('1');
      // Not in the live version: without draft, unknown.
      const live = await admin(base, '/widgets/shop/actions/Todays%20deals/test', {
        method: 'POST',
        body: {},
      });
      expect(live.status).toBe(404);
    });

    it('expired previews are swept with their conversations', async () => {
      service = await backend.start(config());
      const [base] = service.urls;
      const preview = await openPreview(base);
      const { conversationId } = await chat(reachable(preview.json.previewBaseUrl, base), 'hello');
      const count = async () =>
        Number(
          (
            await service.db.query<{ n: string }>('SELECT count(*) AS n FROM conversations WHERE id = $1', [
              conversationId,
            ])
          )[0].n,
        );
      expect(await count()).toBe(1);
      await service.db.query("UPDATE widget_previews SET expires_at = now() - interval '1 second'");
      const { createDraftStore } = await import('../../settings/draft-store');
      expect(await createDraftStore(service.db).sweepExpired()).toBe(1);
      expect(await count()).toBe(0);
    });

    if (backend.name === 'postgres')
      it('a draft saved on one instance is what the preview answers on the other', async () => {
        service = await backend.start(config(), 2);
        const [one, two] = service.urls;
        await draftWith(one, { title: 'From instance one', actions: [dealsAction()] });
        const preview = await openPreview(one);
        const url = reachable(preview.json.previewBaseUrl, two);
        const config2 = await widgetCall(url, '/config');
        expect(((await config2.json()) as { title: string }).title).toBe('From instance one');
        const { events } = await chat(url, "Show me today's deals");
        expect(events.some((e) => e.event === 'message.part')).toBe(true);
      });
  });
}
