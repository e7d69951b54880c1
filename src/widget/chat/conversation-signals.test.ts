// @vitest-environment node
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CartProduct, EVENT_ADD_TO_CART, EVENT_PRODUCT_CLICK, type WidgetConfig } from '../../protocol';
import { pickStrings } from '../locales/all';
import { setStorageMode } from '../storage';
import { createStore } from '../store';
import { type Conversation, createConversation } from './conversation';
import { type HandoffTestService, startHandoffTestService } from './handoff-test-service';
import { localStorage, pageEvents } from './node-page-globals';
import type { TabTransport } from './tab-sync';
import { createTestTransport } from './tab-test-support';

// Issue 35, the widget's part: what the shopper did with a card told to the service (`POST …/signals`) by the
// conversation's code, against the local service of the widget's protocol (handoff-test-service.ts), in Node with the
// few browser globals the conversation uses. mount.test.ts proves the cards' buttons and links reach it;
// e2e/shopping.e2e.ts runs it all in Chromium against the reference service.
Object.assign(globalThis, { dispatchEvent: pageEvents.dispatchEvent.bind(pageEvents), window: globalThis });

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
  cart: true,
};

const SHOE: CartProduct = {
  id: 'TR-3',
  url: 'https://shop.example/p/trail-runner-3',
  name: 'Trail Runner 3',
  price: '',
};
const SOCKS: CartProduct = {
  url: 'https://shop.example/p/merino-socks',
  name: 'Merino socks',
  price: '19,90 €',
};

let service: HandoffTestService;
const open: Conversation[] = [];
beforeAll(async () => {
  service = await startHandoffTestService();
});
afterAll(() => service.close());
beforeEach(() => {
  service.clear();
  setStorageMode('shop', 'local');
});
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
  service.cut();
  localStorage.clear();
  vi.restoreAllMocks();
});

/** A widget's store and conversation as mount() makes them (`tabs`: one tab of several). */
function widget(tabs?: TabTransport) {
  const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: true });
  const conversation = createConversation({
    store,
    strings: pickStrings('en'),
    baseUrl: service.url,
    widgetId: 'shop',
    onSent: () => {},
    backoff: () => 30,
    tabs,
  });
  open.push(conversation);
  store.mountPanel();
  return { store, conversation };
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

/** A conversation with the service (`c1`, token `tok`): the shopper asked, the assistant answered. */
async function conversing(tabs?: TabTransport) {
  const opened = widget(tabs);
  opened.store.send('Running shoes?');
  await until(() => opened.store.messages.value.at(-1)?.status === 'done', 'the answer');
  return opened;
}

describe('tell() (issue 35: what the shopper did with a card)', () => {
  it("posts add-to-cart and product-click for the conversation, with its token and the product's URL", async () => {
    const { conversation } = await conversing();
    conversation.tell(EVENT_ADD_TO_CART, SHOE);
    await until(() => service.signals.length === 1, 'the add-to-cart signal');
    conversation.tell(EVENT_PRODUCT_CLICK, SOCKS);
    await until(() => service.signals.length === 2, 'the product-click signal');
    expect(service.signals).toEqual([
      { authorization: 'Bearer tok', body: { type: 'add-to-cart', url: SHOE.url } },
      { authorization: 'Bearer tok', body: { type: 'product-click', url: SOCKS.url } },
    ]);
    expect(
      service.requests.filter((r) => r.path.endsWith('/signals')).map((r) => `${r.method} ${r.path}`),
    ).toEqual([
      'POST /v0/widget/shop/conversations/c1/signals',
      'POST /v0/widget/shop/conversations/c1/signals',
    ]);
  });

  it('asks the browser to keep the request alive, so a link that leaves the page right after does not lose it', async () => {
    const { conversation } = await conversing();
    const fetches = vi.spyOn(globalThis, 'fetch');
    conversation.tell(EVENT_PRODUCT_CLICK, SHOE);
    await until(() => service.signals.length === 1, 'the signal');
    const [url, init] = fetches.mock.calls.find(([url]) => String(url).endsWith('/signals')) ?? [];
    expect(String(url)).toBe(`${service.url}/v0/widget/shop/conversations/c1/signals`);
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
  });

  it('sends nothing before there is a conversation, nor for a product without a URL', async () => {
    const { store, conversation } = widget();
    conversation.tell(EVENT_ADD_TO_CART, SHOE);
    conversation.tell(EVENT_PRODUCT_CLICK, SHOE);
    await settle();
    expect(service.requests).toEqual([]);
    store.send('Running shoes?');
    await until(() => store.messages.value.at(-1)?.status === 'done', 'the answer');
    const { url: _url, ...withoutUrl } = SHOE;
    conversation.tell(EVENT_ADD_TO_CART, withoutUrl);
    conversation.tell(EVENT_PRODUCT_CLICK, { ...SHOE, url: '' });
    await settle();
    expect(service.signals).toEqual([]);
  });

  it.each([
    [429, 'over its 60 signals'],
    [500, 'in trouble'],
  ])(
    'a service answering %i (%s) changes nothing the shopper or the page sees, and the conversation goes on',
    async (status) => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { store, conversation } = await conversing();
      service.signalsStatus = status;
      const messages = store.messages.value;
      expect(() => conversation.tell(EVENT_ADD_TO_CART, SHOE)).not.toThrow();
      await until(() => service.signals.length === 1, 'the signal');
      await settle();
      expect(errors).not.toHaveBeenCalled();
      expect(store.status.value).toBe('online');
      expect(store.messages.value).toBe(messages);
      // The conversation is kept: the next message goes to it.
      store.send('And in blue?');
      await until(() => store.messages.value.at(-1)?.status === 'done', 'the next answer');
      expect(
        service.requests.filter((r) => r.method === 'POST' && r.path === '/v0/widget/shop/conversations'),
      ).toHaveLength(1);
    },
  );

  it('a tab that does not lead tells the service for the conversation the leader stored, once', async () => {
    const transport = createTestTransport();
    await conversing(transport);
    const follower = widget(transport);
    await until(() => follower.store.messages.value.length === 2, "the leader's messages in the follower");
    // Relayed by the leader, not read from the service: this tab does not lead.
    expect(service.requests.filter((r) => r.method === 'GET')).toEqual([]);
    follower.conversation.tell(EVENT_ADD_TO_CART, SHOE);
    await until(() => service.signals.length === 1, 'the signal');
    await settle();
    expect(service.signals).toEqual([
      { authorization: 'Bearer tok', body: { type: 'add-to-cart', url: SHOE.url } },
    ]);
  });
});
