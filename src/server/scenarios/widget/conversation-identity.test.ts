// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../../../protocol';
import { type Conversation, createConversation } from '../../../widget/chat/conversation';
import { localStorage } from '../../../widget/chat/node-page-globals';
import { pickStrings } from '../../../widget/locales/all';
import { createPublicApi } from '../../../widget/public-api';
import { createStore, type Store } from '../../../widget/store';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { IDENTITY_ENV, IDENTITY_SECRET, signIdentity } from '../../testing/identity-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// The widget's identity token (issue 18) against the REAL reference service over HTTP, its integrator a local HTTP
// server that records the identity headers it is sent. Node environment with the few browser globals the
// conversation uses (as in conversation.test.ts); the same code runs in Chromium in e2e/identity.e2e.ts.

let integrator: RecordingServer;
let service: RunningService;

beforeAll(async () => {
  process.env[IDENTITY_ENV] = IDENTITY_SECRET;
  integrator = await startRecordingServer('http');
  integrator.respond = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('Order 1002 has shipped.');
  };
  const config = parseConfig({
    adminKey: 'identity-widget-admin-key',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        identity: { secretEnv: IDENTITY_ENV },
        actions: [
          {
            name: 'Get order status',
            description: 'Looks up an order by its order number.',
            method: 'GET',
            url: `${integrator.url}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await integrator?.close();
});

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
};

const open: Conversation[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
  localStorage.clear();
  integrator.requests.length = 0;
  vi.restoreAllMocks();
});

/** A widget's store, conversation and public API, as mount() makes them. */
function widget(identityToken?: string) {
  const store = createStore({
    config: CONFIG,
    status: 'online',
    isHidden: false,
    isOpen: true,
    identityToken,
  });
  const conversation = createConversation({
    store,
    strings: pickStrings('en'),
    baseUrl: service.url,
    widgetId: 'shop',
    onSent: () => {},
    backoff: () => 30,
  });
  open.push(conversation);
  store.mountPanel();
  const api = createPublicApi({ store, widgetId: 'shop', reset: conversation.reset, destroy: () => {} });
  return { store, api, conversation };
}

async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const answered = (store: Store) =>
  store.messages.value.filter((m) => m.role === 'assistant' && m.status === 'done').length;
/** Sends the order question and waits for its answer; returns the identity header the integrator got. */
async function askOrder(store: Store): Promise<string | undefined> {
  const before = answered(store);
  const calls = integrator.requests.length;
  store.send('Where is my order 1002?');
  await until(() => answered(store) === before + 1, 'the answer');
  expect(integrator.requests).toHaveLength(calls + 1);
  return integrator.requests.at(-1)?.headers['x-service-user-id'] as string | undefined;
}
const storedConversation = () => localStorage.getItem('_service_shop_conversation');

describe('identity token in the widget', () => {
  it('sends serviceSettings.identityToken with the conversation and each message: the integrator gets the customer', async () => {
    const { store } = widget(await signIdentity({ sub: 'ada' }));
    expect(await askOrder(store)).toBe('ada');
    expect(await askOrder(store)).toBe('ada');
  });

  it('setIdentityToken at sign-in keeps the anonymous conversation and makes it the customer’s', async () => {
    const { store, api } = widget();
    expect(await askOrder(store)).toBeUndefined();
    const id = storedConversation();
    api.setIdentityToken(await signIdentity({ sub: 'bo' }));
    expect(await askOrder(store)).toBe('bo');
    expect(storedConversation()).toBe(id);
    expect(store.messages.value).toHaveLength(4);
  });

  it('setIdentityToken(null) after a customer’s conversation starts a new, anonymous one and clears the view', async () => {
    const { store, api } = widget(await signIdentity({ sub: 'cy' }));
    expect(await askOrder(store)).toBe('cy');
    const id = storedConversation();
    api.setIdentityToken(null);
    expect(store.messages.value).toEqual([]);
    expect(storedConversation()).toBeNull();
    expect(await askOrder(store)).toBeUndefined();
    expect(storedConversation()).not.toBe(id);
  });

  it('after a sign-out, the anonymous conversation that follows is not handed to whoever signs in next (a shared device)', async () => {
    const { store, api } = widget(await signIdentity({ sub: 'hal' }));
    await askOrder(store);
    api.setIdentityToken(null);
    expect(await askOrder(store)).toBeUndefined();
    const anonymous = storedConversation();
    api.setIdentityToken(await signIdentity({ sub: 'ivy' }));
    expect(store.messages.value).toEqual([]);
    expect(await askOrder(store)).toBe('ivy');
    expect(storedConversation()).not.toBe(anonymous);
  });

  it('another customer’s token starts a new conversation; a fresh token of the same customer does not', async () => {
    const { store, api } = widget(await signIdentity({ sub: 'di' }));
    await askOrder(store);
    const id = storedConversation();
    api.setIdentityToken(await signIdentity({ sub: 'di', email: 'di@shop.example' }));
    expect(store.messages.value).toHaveLength(2);
    expect(await askOrder(store)).toBe('di');
    expect(storedConversation()).toBe(id);
    api.setIdentityToken(await signIdentity({ sub: 'ed' }));
    expect(store.messages.value).toEqual([]);
    expect(await askOrder(store)).toBe('ed');
    expect(storedConversation()).not.toBe(id);
  });

  it('at load, a stored conversation of another customer is not restored (a shared device)', async () => {
    const first = widget(await signIdentity({ sub: 'fay' }));
    await askOrder(first.store);
    const id = storedConversation();
    first.conversation.dispose();
    const next = widget(await signIdentity({ sub: 'gus' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(next.store.messages.value).toEqual([]);
    expect(await askOrder(next.store)).toBe('gus');
    expect(storedConversation()).not.toBe(id);
  });

  it('a 403 identity_mismatch from the service (its customer unknown here): a new conversation, the message kept', async () => {
    const first = widget(await signIdentity({ sub: 'jo' }));
    await askOrder(first.store);
    const id = storedConversation();
    first.conversation.dispose();
    // As if the widget had not recorded whose conversation it was (a widget from before identity, storage edited).
    localStorage.removeItem('_service_shop_sub');
    const next = widget();
    await until(() => next.store.messages.value.length === 2, 'the restored history');
    expect(await askOrder(next.store)).toBeUndefined();
    expect(storedConversation()).not.toBe(id);
    expect(next.store.messages.value.filter((m) => m.role === 'user').map((m) => m.status)).toEqual([
      'sent',
      'sent',
    ]);
  });

  it('a refused token: one [service] error, the message still goes (without identity), the chat works on', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const expired = await signIdentity(
      { sub: 'hal' },
      { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 },
    );
    const { store } = widget(expired);
    expect(await askOrder(store)).toBeUndefined();
    expect(await askOrder(store)).toBeUndefined();
    expect(store.messages.value.map((m) => m.status)).toEqual(['sent', 'done', 'sent', 'done']);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0][0])).toMatch(/^\[service\] identityToken refused: .*expired/);
  });

  it('setIdentityToken refuses what is not a JWT with one [service] error and changes nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const token = await signIdentity({ sub: 'ivy' });
    const { store, api } = widget(token);
    api.setIdentityToken('not a token');
    api.setIdentityToken(42 as unknown as string);
    expect(errors).toHaveBeenCalledTimes(2);
    expect(store.identityToken.value).toBe(token);
  });
});
