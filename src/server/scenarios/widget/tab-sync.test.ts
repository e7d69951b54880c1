// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import type { WidgetConfig } from '../../../protocol';
import { type Conversation, createConversation } from '../../../widget/chat/conversation';
import { localStorage } from '../../../widget/chat/node-page-globals';
import {
  checkOutgoing,
  createTabSync,
  isWidgetMessage,
  type TabHost,
  type TabMessage,
  type TabTransport,
} from '../../../widget/chat/tab-sync';
import { createTestTransport } from '../../../widget/chat/tab-test-support';
import { pickStrings } from '../../../widget/locales/all';
import { setStorageMode } from '../../../widget/storage';
import { createStore, type Store } from '../../../widget/store';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { IDENTITY_ENV, IDENTITY_SECRET, signIdentity } from '../../testing/identity-test-kit';

// Several tabs of one store (issue 20 item 6), each a store and a conversation as mount() makes them, in one Node
// process against the REAL reference service over HTTP. They share one localStorage (storage `local`, as the tabs of
// one browser do), talk over Node's BroadcastChannel (the browsers' API) and elect their leader with a stand-in for
// Web Locks (tab-test-support.ts). Closing a tab is disposing its conversation: its lock goes to the next tab, as
// the browser hands it on. The same code runs in two Chromium pages in e2e/multi-tab.e2e.ts.

/** The page's visibility, one for all the tabs here: `hidden` is the shopper looking at another tab (or window). */
let visibility: DocumentVisibilityState = 'visible';
const document = new EventTarget();
Object.defineProperty(document, 'visibilityState', { get: () => visibility });
Object.assign(globalThis, { document });

const ADMIN_KEY = 'tab-sync-admin-key-1234';
/** How long the integrator takes to answer an order lookup: the answer is still streaming meanwhile. */
let integratorDelayMs = 0;
let integrator: Server;
let service: RunningService;
/** The same service with a turn deadline of 300 ms: a slow lookup makes the answer fail. */
let slowService: RunningService;

beforeAll(async () => {
  process.env[IDENTITY_ENV] = IDENTITY_SECRET;
  integrator = createServer((req, res) => {
    setTimeout(() => {
      if (req.url?.startsWith('/orders/1002')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            order_id_value: '1002',
            timeline: { step: [{ label: 'Shipped', status: 'in_progress' }] },
          }),
        );
      } else res.writeHead(404).end('No such order.');
    }, integratorDelayMs);
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  const config = parseConfig({
    adminKey: ADMIN_KEY,
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
            url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
  slowService = await startService({ config: config.value, port: 0, turnTimeoutMs: 300 });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await slowService?.close();
  await new Promise((ok) => integrator.close(ok));
});

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
};

interface Tab {
  store: Store;
  conversation: Conversation;
  /** What `service:message-sent` reported in this tab. */
  sent: string[];
  close(): void;
}

const open: Tab[] = [];
let fetchSpy: MockInstance<typeof fetch>;
beforeEach(() => {
  // Passes every request through to the service: only counts them.
  fetchSpy = vi.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  for (const tab of open.splice(0)) tab.close();
  localStorage.clear();
  integratorDelayMs = 0;
  visibility = 'visible';
  setStorageMode('shop', 'local');
  vi.restoreAllMocks();
});

/** A tab of the store with the widget, its panel built; `isOpen`: whether its chat is open. */
function openTab(
  transport: TabTransport,
  options: { isOpen?: boolean; identityToken?: string; baseUrl?: string; hasReset?: boolean } = {},
): Tab {
  const store = createStore({
    config: CONFIG,
    status: 'online',
    isHidden: false,
    isOpen: options.isOpen ?? true,
    identityToken: options.identityToken,
  });
  const sent: string[] = [];
  const conversation = createConversation({
    store,
    strings: pickStrings('en'),
    baseUrl: options.baseUrl ?? service.url,
    widgetId: 'shop',
    onSent: (text) => sent.push(text),
    backoff: () => 30,
    tabs: transport,
    hasReset: options.hasReset,
  });
  store.mountPanel();
  let isOpen = true;
  const tab: Tab = {
    store,
    conversation,
    sent,
    close: () => {
      if (isOpen) conversation.dispose();
      isOpen = false;
    },
  };
  open.push(tab);
  return tab;
}

async function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A few rounds of the event loop: whatever the channel carries has arrived. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** What a tab shows: role, status and text of each message. */
const shown = (store: Store) =>
  store.messages.value.map((m) => [
    m.role,
    m.status,
    m.parts.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(''),
  ]);
const answered = (store: Store) =>
  store.messages.value.filter((m) => m.role === 'assistant' && m.status === 'done').length;
const busy = (store: Store) => store.messages.value.some((m) => m.role === 'assistant' && m.isBusy);

/** Requests made so far, as `METHOD path`. */
const requests = () =>
  fetchSpy.mock.calls.map(
    ([url, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${new URL(String(url)).pathname}`,
  );
const posts = () => requests().filter((r) => /^POST .*\/messages$/.test(r));

const conversationId = () => localStorage.getItem('_service_shop_conversation') ?? '';
async function stored(id = conversationId()) {
  const res = await fetch(`${service.url}/v0/admin/widgets/shop/conversations/${id}`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  return (await res.json()) as {
    conversation: { userData: unknown };
    messages: { role: string; clientMessageId?: string; parts: { type: string; text?: string }[] }[];
  };
}

describe('two tabs of one store', () => {
  it('a message written in the follower is posted once, by the leader, and both tabs show it and its answer', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    b.store.send('Where is my order?');
    // The follower's own message shows at once, pending.
    expect(shown(b.store)).toEqual([['user', 'pending', 'Where is my order?']]);
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the answer in both tabs');
    expect(shown(b.store)).toEqual(shown(a.store));
    expect(shown(a.store).map(([role, status]) => [role, status])).toEqual([
      ['user', 'sent'],
      ['assistant', 'done'],
    ]);
    expect(posts()).toHaveLength(1);
    // service:message-sent in the tab the shopper wrote in, and only there.
    expect(b.sent).toEqual(['Where is my order?']);
    expect(a.sent).toEqual([]);
    const { messages } = await stored();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it("a message written in the leader shows in the follower as it streams; the follower's closed chat counts it unread", async () => {
    integratorDelayMs = 400;
    // The shopper asked in the leader and went on to another tab: the leader is in the background.
    visibility = 'hidden';
    const transport = createTestTransport();
    const a = openTab(transport, { isOpen: true });
    await settle();
    const b = openTab(transport, { isOpen: false });
    await settle();
    const states = new Set<string>();
    const stop = b.store.messages.subscribe((list) => {
      const reply = list.find((m) => m.role === 'assistant');
      if (reply) states.add(`${reply.status}${reply.isBusy ? ' busy' : ''}`);
    });
    a.store.send('Where is order 1002?');
    await until(() => answered(b.store) === 1, 'the answer in the follower');
    stop();

    // The follower saw the answer being written ("looking that up"), then done: one stream, relayed.
    expect([...states]).toEqual(expect.arrayContaining(['streaming busy', 'done']));
    expect(shown(b.store)).toEqual(shown(a.store));
    expect(shown(b.store)[1]?.[2]).toContain('[order-card]');
    expect(b.store.unread.value).toBe(1);
    expect(a.store.unread.value).toBe(0);
    expect(b.store.announcement.value).toBe(a.store.announcement.value);
    expect(a.sent).toEqual(['Where is order 1002?']);
    expect(b.sent).toEqual([]);
    expect(requests().filter((r) => r.includes('/events'))).toEqual([]);
  });

  it('a tab that opens mid-conversation shows it whole from the leader, without loading the history itself', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    const before = requests().length;
    const b = openTab(transport);
    await until(() => b.store.messages.value.length === 2, 'the conversation in the new tab');
    expect(shown(b.store)).toEqual(shown(a.store));
    // The new tab's messages are the leader's objects' copies: the same ids, so the list keys match.
    expect(b.store.messages.value.map((m) => m.id)).toEqual(a.store.messages.value.map((m) => m.id));
    expect(requests().slice(before)).toEqual([]);
  });

  it("the leader's tab closes mid-answer: the follower takes the lead and resumes the answer after its last event, nothing doubled", async () => {
    integratorDelayMs = 700;
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    a.store.send('Where is order 1002?');
    await until(() => busy(b.store), 'the follower to show the lookup');
    const partBefore = shown(b.store)[1]?.[2];
    a.close();
    await until(() => answered(b.store) === 1, 'the answer in the tab left open');
    expect(shown(b.store)[1]?.[2]).toContain(partBefore);
    expect(shown(b.store)[1]?.[2]).toContain('[order-card]');
    expect(shown(b.store).map(([role]) => role)).toEqual(['user', 'assistant']);
    expect(posts()).toHaveLength(1);
    // The new leader loaded the history and resumed the stream after the last event it had.
    const taken = requests().filter((r) => /\/messages$|\/events$/.test(r) && r.startsWith('GET'));
    expect(taken.length).toBeGreaterThanOrEqual(1);
    // Shown as the service stored it: nothing lost or doubled at the change of leader.
    const { messages } = await stored();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(shown(b.store)[1]?.[2]).toBe(
      messages[1]?.parts.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(''),
    );
  });

  it('a message written while the leader is gone is sent once, by the next leader', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    const c = openTab(transport);
    await settle();
    a.close();
    c.store.send('Anyone there?');
    await until(() => answered(b.store) === 1 && answered(c.store) === 1, 'the answer in both tabs left');
    expect(posts()).toHaveLength(1);
    expect(c.sent).toEqual(['Anyone there?']);
    expect(b.sent).toEqual([]);
    expect((await stored()).messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('Retry on a failed answer in a follower asks again through the leader: one new message, answered in both tabs', async () => {
    // The integrator takes longer than the slow service's turn deadline: the answer fails.
    integratorDelayMs = 600;
    const transport = createTestTransport();
    const a = openTab(transport, { baseUrl: slowService.url });
    await settle();
    const b = openTab(transport, { baseUrl: slowService.url });
    await settle();
    b.store.send('Where is order 1002?');
    await until(() => b.store.messages.value[1]?.status === 'failed', 'the failed answer in the follower');
    integratorDelayMs = 0;
    b.conversation.retry(b.store.messages.value[1]?.id ?? '');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the answer');
    expect(shown(b.store).map(([role, status]) => [role, status])).toEqual([
      ['user', 'sent'],
      ['assistant', 'done'],
    ]);
    expect(shown(b.store)).toEqual(shown(a.store));
    // The question and, asked again, once more: one post each.
    expect(posts()).toHaveLength(2);
  });
});

describe('a new conversation in one tab', () => {
  it('reset() in a follower starts over in every tab; the next message starts one conversation for all', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    a.store.send('Hello');
    await until(() => answered(b.store) === 1, 'the answer');
    const first = conversationId();
    b.store.setDraft('half a question');
    a.store.setDraft('another');
    b.conversation.reset();
    await settle();
    expect(a.store.messages.value).toEqual([]);
    expect(b.store.messages.value).toEqual([]);
    expect(conversationId()).toBe('');
    // The draft is the tab's own: reset() clears it everywhere, as it does in one tab.
    expect(a.store.draft.value).toBe('');
    // The leader cleared the personalization of the old conversation on the service (it held its token).
    await until(
      () => requests().includes(`PUT /v0/widget/shop/conversations/${first}/context`),
      'the clearing',
    );
    b.store.send('Hello again');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the new answer');
    expect(conversationId()).not.toBe(first);
    expect(shown(a.store)).toEqual(shown(b.store));
    expect(shown(a.store)[0]).toEqual(['user', 'sent', 'Hello again']);
  });

  it('reset() called before the conversation code loaded reaches the tabs when it loads', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    // What mount.ts does on reset() without the conversation: its own view and storage cleared...
    localStorage.clear();
    // ...and, as the conversation code arrives, it tells the other tabs.
    const b = openTab(transport, { hasReset: true });
    await settle();
    expect(a.store.messages.value).toEqual([]);
    b.store.send('Hi');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the new answer');
    expect(shown(a.store).map(([, , text]) => text)[0]).toBe('Hi');
  });

  it("a sign-out in one tab, on a customer's conversation, clears the conversation in every tab", async () => {
    const transport = createTestTransport();
    const token = await signIdentity({ sub: 'customer-7' });
    const a = openTab(transport, { identityToken: token });
    await settle();
    const b = openTab(transport, { identityToken: token });
    await settle();
    b.store.send('Where is order 1002?');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the answer');
    expect(localStorage.getItem('_service_shop_sub')).toBe('customer-7');
    b.store.setIdentityToken(null);
    await settle();
    expect(a.store.messages.value).toEqual([]);
    expect(b.store.messages.value).toEqual([]);
    expect(conversationId()).toBe('');
  });

  it('a tab that opens with another customer signed in drops the stored conversation in the tabs that show it', async () => {
    const transport = createTestTransport();
    const a = openTab(transport, { identityToken: await signIdentity({ sub: 'customer-7' }) });
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    openTab(transport, { identityToken: await signIdentity({ sub: 'customer-8' }) });
    await settle();
    expect(a.store.messages.value).toEqual([]);
  });
});

describe("a customer's earlier conversations (issue 33, other devices)", () => {
  /** What a tab shows, as text only. */
  const texts = (store: Store) => shown(store).map(([, , text]) => text);

  it('reopened in a follower: every tab shows it, the next message goes to it, the other keeps its personalization', async () => {
    const transport = createTestTransport();
    const token = await signIdentity({ sub: 'customer-earlier-1' });
    const a = openTab(transport, { identityToken: token });
    await settle();
    const b = openTab(transport, { identityToken: token });
    await settle();
    b.store.send('Where is order 1002?');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the first answer');
    const first = conversationId();
    b.conversation.reset();
    await settle();
    a.store.setUserData({ name: 'Ann' });
    a.store.send('Hello');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the second answer');
    const second = conversationId();
    expect(second).not.toBe(first);

    const listed = await b.conversation.earlier.list();
    expect(listed.map((c) => c.id)).toEqual([second, first]);
    expect(listed[1]?.lastMessage?.role).toBe('assistant');
    expect(b.conversation.earlier.currentId()).toBe(second);

    expect(await b.conversation.earlier.open(first)).toBe(true);
    await until(() => texts(a.store)[0] === 'Where is order 1002?', 'the leader showing the reopened one');
    await until(() => texts(b.store)[0] === 'Where is order 1002?', 'the follower showing it');
    expect(conversationId()).toBe(first);
    expect(a.conversation.earlier.currentId()).toBe(first);
    // The page's personalization stays: the customer is the same.
    expect(a.store.userData.value).toEqual({ name: 'Ann' });

    b.store.send('When will it arrive?');
    await until(() => answered(a.store) === 2 && answered(b.store) === 2, 'the answer in the reopened one');
    expect(texts(a.store)).toEqual(texts(b.store));
    const reopened = await stored(first);
    expect(reopened.messages.filter((m) => m.role === 'user').map((m) => m.parts[0]?.text)).toEqual([
      'Where is order 1002?',
      'When will it arrive?',
    ]);
    // The conversation left keeps its messages, and was not cleared on the service as a reset() would.
    expect(requests()).not.toContain(`PUT /v0/widget/shop/conversations/${second}/context`);
    expect((await stored(second)).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('another device lists and reopens the customer’s conversation with a token of its own; another customer opens nothing', async () => {
    const token = await signIdentity({ sub: 'customer-earlier-2' });
    const phone = openTab(createTestTransport(), { identityToken: token });
    await settle();
    phone.store.send('Do you ship to Austria?');
    await until(() => answered(phone.store) === 1, 'the answer on the phone');
    const id = conversationId();
    const phoneToken = localStorage.getItem('_service_shop_token');
    phone.close();
    // The laptop: a browser of its own (no storage in common).
    localStorage.clear();
    const laptop = openTab(createTestTransport(), { identityToken: token });
    await settle();
    expect(laptop.store.messages.value).toEqual([]);
    expect((await laptop.conversation.earlier.list()).map((c) => c.id)).toEqual([id]);
    expect(await laptop.conversation.earlier.open(id)).toBe(true);
    await until(() => texts(laptop.store)[0] === 'Do you ship to Austria?', 'the history on the laptop');
    expect(localStorage.getItem('_service_shop_token')).not.toBe(phoneToken);
    laptop.close();

    localStorage.clear();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stranger = openTab(createTestTransport(), {
      identityToken: await signIdentity({ sub: 'customer-earlier-3' }),
    });
    await settle();
    expect(await stranger.conversation.earlier.list()).toEqual([]);
    expect(await stranger.conversation.earlier.open(id)).toBe(false);
    expect(stranger.store.messages.value).toEqual([]);
    expect(conversationId()).toBe('');
    expect(String(errors.mock.calls[0]?.[0])).toContain('could not open the earlier conversation');
  });
});

describe('unread answers', () => {
  it('an answer that ends while the shopper reads the open chat of a tab in front counts as unread in no tab', async () => {
    const transport = createTestTransport();
    const a = openTab(transport, { isOpen: true });
    await settle();
    const b = openTab(transport, { isOpen: false });
    await settle();
    a.store.send('Hello');
    await until(() => answered(b.store) === 1, 'the answer in the closed tab');
    await settle();
    expect(b.store.unread.value).toBe(0);
  });

  it('a tab that joins after the shopper read the answer in another tab counts nothing', async () => {
    const transport = createTestTransport();
    const a = openTab(transport, { isOpen: true });
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    const b = openTab(transport, { isOpen: false });
    await until(() => answered(b.store) === 1, 'the conversation in the new tab');
    await settle();
    expect(b.store.unread.value).toBe(0);
  });

  it('a tab that joins a conversation whose answer ended while no chat was open counts it', async () => {
    const transport = createTestTransport();
    const a = openTab(transport, { isOpen: false });
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    expect(a.store.unread.value).toBe(1);
    const b = openTab(transport, { isOpen: false });
    await until(() => answered(b.store) === 1, 'the conversation in the new tab');
    await settle();
    expect(b.store.unread.value).toBe(1);
  });

  it('opening the chat in one tab clears the count in the others', async () => {
    const transport = createTestTransport();
    const a = openTab(transport, { isOpen: false });
    await settle();
    const b = openTab(transport, { isOpen: false });
    await settle();
    a.store.send('Hello');
    await until(() => b.store.unread.value === 1 && a.store.unread.value === 1, 'an unread answer in both');
    b.store.openChat();
    await settle();
    expect(a.store.unread.value).toBe(0);
    // Open or closed is each tab's own.
    expect(a.store.isOpen.value).toBe(false);
  });
});

describe('one tab alone', () => {
  it('posts nothing on the channel while no other tab has said hello, then relays to the one that does', async () => {
    const base = createTestTransport();
    const posted: string[] = [];
    const transport: TabTransport = {
      lock: base.lock,
      channel: (name) => {
        const channel = base.channel(name);
        const post = channel.postMessage.bind(channel);
        channel.postMessage = (message: TabMessage) => {
          posted.push(message.type);
          post(message);
        };
        return channel;
      },
    };
    const a = openTab(transport);
    await settle();
    a.store.send('Hello');
    await until(() => answered(a.store) === 1, 'the answer');
    // Its hello, one whole state as it took the lead, and the chat being open (read): no state per change.
    expect(posted.filter((type) => type === 'state')).toHaveLength(1);
    const b = openTab(transport);
    await until(() => answered(b.store) === 1, 'the conversation in the second tab');
    a.store.send('Again');
    await until(() => answered(b.store) === 2, 'the next answer in the second tab');
    expect(posted.filter((type) => type === 'state').length).toBeGreaterThan(3);
  });
});

describe('storage other than local', () => {
  it('a follower whose storage stops being local (consent withdrawn) leaves the tabs and leads on its own', async () => {
    const transport = createTestTransport();
    const leader = openTab(transport);
    await settle();
    const calls: string[] = [];
    const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: false });
    const sync = createTabSync(store, 'shop', host(calls), transport);
    await settle();
    expect(sync?.isLeader()).toBe(false);
    setStorageMode('shop', 'none');
    // The next thing the sync does (here the leader's next state) finds storage no longer local.
    leader.store.send('Hello');
    await until(() => calls.includes('lead'), 'the follower to lead on its own');
    expect(sync?.isLeader()).toBe(true);
    sync?.dispose();
  });

  it.each(['session', 'none'] as const)(
    'with storage %s each tab keeps its own conversation: no sync',
    (mode) => {
      setStorageMode('shop', mode);
      const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: false });
      expect(createTabSync(store, 'shop', host(), createTestTransport())).toBeUndefined();
    },
  );

  it('without BroadcastChannel or Web Locks (as in Node) the tab keeps its own conversation', () => {
    const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: false });
    expect(createTabSync(store, 'shop', host())).toBeUndefined();
  });
});

/** A host that records what the sync asks of the conversation. */
function host(calls: string[] = []): TabHost {
  return {
    lead: () => calls.push('lead'),
    want: () => calls.push('want'),
    reset: (mark) => calls.push(`reset ${mark}`),
    retry: (id) => calls.push(`retry ${id}`),
    finished: (id) => calls.push(`finished ${id}`),
    sent: (text) => calls.push(`sent ${text}`),
    pageContext: () => ({}),
    mode: (mode, agent, isNews) => calls.push(`mode ${mode} ${agent} ${isNews}`),
    handoff: () => calls.push('handoff'),
  };
}

describe('what another script of the page posts on the channel', () => {
  const valid = {
    id: 'm1',
    role: 'assistant',
    parts: [{ type: 'text', text: 'Hi' }],
    createdAt: '2025-01-01T00:00:00.000Z',
    status: 'done',
  };
  const outgoing = { clientMessageId: 'c-1', text: 'Hi', tab: 't', identityToken: null };
  const JUNK: [string, unknown][] = [
    ['not an object', 42],
    ['null', null],
    ['an array', ['state']],
    ['an unknown type', { type: 'constructor' }],
    ['a state without its fields', { type: 'state' }],
    [
      'a state with a message of the wrong shape',
      { type: 'state', from: 'x', seq: 1, base: 0, tail: [{ id: 1 }], status: 'online' },
    ],
    [
      'a state whose parts are no list',
      { type: 'state', from: 'x', seq: 1, base: 0, tail: [{ ...valid, parts: 'x' }], status: 'online' },
    ],
    [
      'a state whose part is no object',
      { type: 'state', from: 'x', seq: 1, base: 0, tail: [{ ...valid, parts: ['x'] }], status: 'online' },
    ],
    [
      'a state with an unknown status',
      { type: 'state', from: 'x', seq: 1, base: 0, tail: [], status: 'hacked' },
    ],
    [
      'a state with a negative base',
      { type: 'state', from: 'x', seq: 1, base: -1, tail: [], status: 'online' },
    ],
    [
      'a diff from a stranger',
      { type: 'state', from: 'x', seq: 99, base: 1, tail: [valid], status: 'online', readAt: 0 },
    ],
    [
      'a send with a path for a clientMessageId',
      { type: 'send', message: { ...outgoing, clientMessageId: '../../admin' } },
    ],
    ['a send without text', { type: 'send', message: { ...outgoing, text: '   ' } }],
    ['a send over the text limit', { type: 'send', message: { ...outgoing, text: 'x'.repeat(4001) } }],
    [
      'a send with a bad page context',
      { type: 'send', message: { ...outgoing, pageContext: { page: 'x' } } },
    ],
    [
      'a send with a proactive message over its cap',
      { type: 'send', message: { ...outgoing, proactive: 'x'.repeat(501) } },
    ],
    ['a send with an unknown answer', { type: 'send', message: { ...outgoing, answer: 'maybe' } }],
    ['a send with an object for a token', { type: 'send', message: { ...outgoing, identityToken: {} } }],
    ['a retry of no id', { type: 'retry', id: { toString: 1 } }],
    ['a reset with an object for its mark', { type: 'reset', mark: {} }],
    [
      'a reset to a conversation whose id is a path',
      { type: 'reset', to: { conversationId: '../../admin', token: 't' } },
    ],
    ['a reset to a conversation without a token', { type: 'reset', to: { conversationId: 'c-1' } }],
    ['a reset to a conversation that is a string', { type: 'reset', to: 'c-1' }],
  ];

  it('ignores junk and forged messages: nothing thrown, nothing sent, both tabs as they were', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    b.store.send('Hello');
    await until(() => answered(a.store) === 1 && answered(b.store) === 1, 'the answer');
    const before = [shown(a.store), shown(b.store)];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const requestsBefore = requests().length;
    const rogue = new BroadcastChannel('_service_shop_tabs');
    for (const [, junk] of JUNK) rogue.postMessage(junk);
    await settle();
    rogue.close();
    expect([shown(a.store), shown(b.store)]).toEqual(before);
    expect(requests().slice(requestsBefore)).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    // The follower still follows: the next message goes out once and shows in both.
    b.store.send('Still there?');
    await until(() => answered(a.store) === 2 && answered(b.store) === 2, 'the next answer');
    expect(posts()).toHaveLength(2);
  });

  it.each(JUNK.filter(([, junk]) => (junk as { type?: string })?.type === 'send'))(
    'refuses %s before the outbox',
    (_, junk) => {
      expect(checkOutgoing((junk as { message: unknown }).message)).toBeUndefined();
    },
  );

  it("takes a follower's message as the widget writes it, field by field", () => {
    const message = checkOutgoing({
      ...outgoing,
      answer: 'yes',
      pageContext: { product: { name: 'Trail shoe' } },
      extra: 'dropped',
    });
    expect(message).toMatchObject({
      id: 'c-1',
      clientMessageId: 'c-1',
      role: 'user',
      parts: [{ type: 'text', text: 'Hi' }],
      status: 'pending',
      tab: 't',
      identityToken: null,
      answer: 'yes',
      pageContext: { product: { name: 'Trail shoe' } },
    });
    expect(message).not.toHaveProperty('extra');
  });

  it('accepts the messages the widget relays, null for what another service leaves out', () => {
    expect(isWidgetMessage(valid)).toBe(true);
    expect(isWidgetMessage({ ...valid, clientMessageId: null, error: null })).toBe(true);
    expect(isWidgetMessage({ ...valid, role: 'system' })).toBe(false);
    expect(isWidgetMessage({ ...valid, error: { text: 'x' } })).toBe(false);
  });
});
