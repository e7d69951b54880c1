import { describe, expect, it, vi } from 'vitest';
import type { InboxConversation } from '../protocol/inbox';
import { createInboxApi } from './api';
import { createInboxStore, KEY_STORAGE_KEY, MESSAGES } from './store';

// The store against a fake service at the fetch boundary: what the admin API answers, and what the page keeps.

const KEY = 'right-key';

const conversation = (id: string): InboxConversation => ({
  id,
  createdAt: '2026-06-01T10:00:00.000Z',
  updatedAt: '2026-06-01T10:00:00.000Z',
  userData: { name: id },
  customInstructions: null,
  messageCount: 2,
  lastMessageAt: '2026-06-01T10:00:00.000Z',
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unauthorized = () => json(401, { error: { code: 'unauthorized', message: 'no' } });

function setup(options: { stored?: string; rotateKey?: boolean } = {}) {
  const memory = new Map<string, string>(options.stored ? [[KEY_STORAGE_KEY, options.stored]] : []);
  const storage = {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, v),
    removeItem: (k: string) => void memory.delete(k),
  };
  let isRotated = false;
  const calls: string[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(url);
    const auth = new Headers(init?.headers).get('authorization');
    if (auth !== `Bearer ${KEY}` || isRotated) return unauthorized();
    if (url === '/v0/admin/widgets')
      return json(200, {
        widgets: [
          { id: 'demo', title: 'Demo' },
          { id: 'b', title: 'B' },
        ],
      });
    if (url === '/v0/admin/widgets/demo/conversations')
      return json(200, { conversations: [conversation('c1'), conversation('c2')], nextCursor: 'k1' });
    if (url === '/v0/admin/widgets/demo/conversations?before=k1')
      return json(200, { conversations: [conversation('c2'), conversation('c3')], nextCursor: null });
    if (url === '/v0/admin/widgets/b/conversations')
      return json(200, { conversations: [], nextCursor: null });
    return json(404, {
      error: { code: 'unknown_conversation', message: 'No such conversation for this widget.' },
    });
  });
  const store = createInboxStore(createInboxApi(fetchFn as typeof fetch), storage);
  return { store, memory, calls, rotate: () => (isRotated = true) };
}

const settled = () => new Promise((done) => setTimeout(done, 0));

describe('signing in', () => {
  it('keeps a wrong key nowhere and says so', async () => {
    const { store, memory } = setup();
    await store.signIn('wrong-key');
    expect(store.key.value).toBeNull();
    expect(store.signInError.value).toBe(MESSAGES.wrongKey);
    expect(memory.size).toBe(0);
  });

  it('refuses an empty key or one with spaces without asking the service', async () => {
    const { store, calls } = setup();
    await store.signIn('   ');
    expect(store.signInError.value).toBe(MESSAGES.emptyKey);
    await store.signIn('two words');
    expect(store.signInError.value).toBe(MESSAGES.badKey);
    expect(calls).toEqual([]);
  });

  it('keeps an accepted key in sessionStorage and opens the first widget', async () => {
    const { store, memory } = setup();
    await store.signIn(` ${KEY} `);
    await settled();
    expect(store.key.value).toBe(KEY);
    expect(memory.get(KEY_STORAGE_KEY)).toBe(KEY);
    expect(store.widgetId.value).toBe('demo');
    expect(store.conversations.value.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(store.nextCursor.value).toBe('k1');
  });

  it('resumes with the key this tab kept', async () => {
    const { store } = setup({ stored: KEY });
    await store.resume();
    expect(store.key.value).toBe(KEY);
  });

  it('drops a kept key the service no longer accepts', async () => {
    const { store, memory } = setup({ stored: 'old-key' });
    await store.resume();
    expect(store.key.value).toBeNull();
    expect(store.signInError.value).toBe(MESSAGES.expiredKey);
    expect(memory.size).toBe(0);
  });
});

describe('browsing', () => {
  it('loads more without repeating a conversation, and resets on another widget', async () => {
    const { store } = setup();
    await store.signIn(KEY);
    await settled();
    await store.loadMore();
    expect(store.conversations.value.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(store.nextCursor.value).toBeNull();
    store.selectWidget('b');
    await settled();
    expect(store.conversations.value).toEqual([]);
    expect(store.listStatus.value).toBe('ready');
  });

  it('shows the error of a conversation that is gone', async () => {
    const { store } = setup();
    await store.signIn(KEY);
    await store.openConversation('gone');
    expect(store.detailStatus.value).toBe('error');
    expect(store.detailError.value).toBe('No such conversation for this widget.');
  });

  it('goes back to the key form when the key stops working', async () => {
    const { store, memory, rotate } = setup();
    await store.signIn(KEY);
    rotate();
    await store.openConversation('c1');
    expect(store.key.value).toBeNull();
    expect(store.signInError.value).toBe(MESSAGES.expiredKey);
    expect(store.conversations.value).toEqual([]);
    expect(memory.size).toBe(0);
  });

  it('forgets the key and everything shown on sign out', async () => {
    const { store, memory } = setup();
    await store.signIn(KEY);
    await settled();
    store.signOut();
    expect(store.key.value).toBeNull();
    expect(store.signInError.value).toBeNull();
    expect(store.widgets.value).toEqual([]);
    expect(store.conversations.value).toEqual([]);
    expect(memory.size).toBe(0);
  });
});
