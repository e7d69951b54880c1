// @vitest-environment node
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HandoffDetail, WidgetConfig } from '../../protocol';
import { pickStrings } from '../locales/all';
import { setStorageMode } from '../storage';
import { createStore, type Store } from '../store';
import { type Conversation, createConversation } from './conversation';
import { type HandoffTestService, startHandoffTestService } from './handoff-test-service';
import { localStorage, pageEvents } from './node-page-globals';
import { isWidgetMessage } from './tab-sync';
import { createTestTransport } from './tab-test-support';

// Several tabs of one store during a handoff (issue 21): the leader alone holds the events stream, and the followers
// show the mode, the agent and the agents' messages it relays. Tabs as in tab-sync.test.ts (Node's BroadcastChannel,
// a Web Locks stand-in, one localStorage), against the handoff protocol's local service (handoff-test-service.ts).
// `service:handoff` and `service:feedback` are dispatched on the window, as in a page.
Object.assign(globalThis, { dispatchEvent: pageEvents.dispatchEvent.bind(pageEvents), window: globalThis });

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
  handoff: true,
};

interface Tab {
  store: Store;
  conversation: Conversation;
  handoffs: HandoffDetail[];
}

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
});

function openTab(transport: ReturnType<typeof createTestTransport>): Tab {
  const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: true });
  const handoffs: HandoffDetail[] = [];
  const conversation = createConversation({
    store,
    strings: pickStrings('en'),
    baseUrl: service.url,
    widgetId: 'shop',
    onSent: () => {},
    backoff: () => 30,
    tabs: transport,
    settings: { onHandoff: (d) => handoffs.push(d) },
  });
  open.push(conversation);
  store.mountPanel();
  return { store, conversation, handoffs };
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));
const shown = (store: Store) =>
  store.messages.value.map((m) => [
    m.role,
    m.author,
    m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''),
  ]);
const streamsOpened = () => service.requests.filter((r) => r.path.includes('/events')).length;

describe('two tabs during a handoff', () => {
  it('a follower\'s "Talk to a person" is asked once, by the leader; both tabs show the mode, the agent and their messages', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    b.store.requestHuman();
    await until(
      () => a.store.mode.value === 'waiting' && b.store.mode.value === 'waiting',
      'waiting in both',
    );
    expect(service.requests.filter((r) => r.path.endsWith('/handoff'))).toHaveLength(1);
    service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Hi, Anna here.' }] });
    await until(() => shown(b.store).some((m) => m[0] === 'agent'), "the agent's message in the follower");
    await settle();
    expect(b.store.agent.value).toBe('Anna');
    expect(shown(b.store)).toEqual(shown(a.store));
    expect(shown(b.store).at(-1)).toEqual(['agent', 'Anna', 'Hi, Anna here.']);
    // Only the leader holds the events stream.
    expect(service.openStreams()).toBe(1);
    expect(streamsOpened()).toBe(1);
    // Each tab's page hears of each change once.
    expect(a.handoffs.map((h) => h.mode)).toEqual(['waiting', 'agent']);
    expect(b.handoffs.map((h) => h.mode)).toEqual(['waiting', 'agent']);
    expect(b.handoffs.at(-1)).toEqual({ widgetId: 'shop', mode: 'agent', agent: { name: 'Anna' } });
  });

  it('"Talk to a person" pressed before the tab knows it leads (the lock is granted a moment after start) is asked once it leads', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    // At once, as `Service.requestHuman()` on page load does: no tab leads yet, so no one hears a forwarded request.
    a.store.requestHuman();
    await until(() => a.store.mode.value === 'waiting', 'waiting');
    expect(service.requests.filter((r) => r.path.endsWith('/handoff'))).toHaveLength(1);
  });

  it('when the leader tab closes, the next one takes the events stream up after the last event', async () => {
    const transport = createTestTransport();
    const a = openTab(transport);
    await settle();
    const b = openTab(transport);
    await settle();
    a.store.requestHuman();
    await until(() => b.store.mode.value === 'waiting' && service.openStreams() === 1, 'the stream');
    open.shift()?.dispose();
    await until(() => streamsOpened() === 2 && service.openStreams() === 1, 'the new leader’s stream');
    service.write({ role: 'agent', author: 'Ben', parts: [{ type: 'text', text: 'Ben here.' }] });
    await until(() => shown(b.store).some((m) => m[2] === 'Ben here.'), 'the message in the new leader');
    expect(b.store.messages.value.filter((m) => m.role !== 'user')).toHaveLength(2);
  });

  it('relays only agent messages of the right shape', () => {
    const agent = {
      id: 'a1',
      role: 'agent',
      author: 'Anna',
      parts: [{ type: 'text', text: 'Hi' }],
      createdAt: '2026-01-01T00:00:00.000Z',
      status: 'done',
    };
    expect(isWidgetMessage(agent)).toBe(true);
    expect(isWidgetMessage({ ...agent, author: { name: 'Anna' } })).toBe(false);
    expect(isWidgetMessage({ ...agent, author: 'x'.repeat(201) })).toBe(false);
  });
});
