import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../protocol/chat';
import type { InboxConversation, InboxConversationResponse, InboxMessage } from '../protocol/inbox';
import { createConsoleApi } from './api';
import { ACTION_MESSAGES, createConversationStore } from './conversation-store';
import { modeLineText } from './live-transcript';

// The open conversation against a fake agent API at the fetch boundary: the stored conversation, its event stream
// (written by the test as the service would), take / messages / release with the service's answers.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeService() {
  const conversation: InboxConversation = {
    id: 'c1',
    createdAt: '2026-06-01T10:00:00.000Z',
    updatedAt: '2026-06-01T10:00:00.000Z',
    userData: null,
    customInstructions: null,
    messageCount: 1,
    lastMessageAt: '2026-06-01T10:00:00.000Z',
    mode: 'waiting',
    agent: null,
    waitingSince: '2026-06-01T10:00:00.000Z',
  };
  const messages: InboxMessage[] = [
    {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'text', text: 'A person please' }],
      createdAt: '2026-06-01T10:00:00.000Z',
      status: 'done',
    },
  ];
  let seq = 0;
  let push: ((chunk: string) => void) | null = null;
  const state = { conversation, messages, holder: null as string | null, lastSeq: 0 };
  const emit = (event: StreamEvent) => {
    const { type, ...data } = event;
    push?.(`id: ${++seq}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const base = '/v0/admin/widgets/demo/conversations/c1';
    if (url === base)
      return json(200, {
        conversation: state.conversation,
        messages: state.messages,
        lastSeq: state.lastSeq,
      } satisfies InboxConversationResponse);
    if (url === `${base}/events`) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (chunk) => controller.enqueue(new TextEncoder().encode(chunk));
          init?.signal?.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    if (url === `${base}/take` && method === 'POST') {
      if (state.holder && state.holder !== 'anna')
        return json(409, { error: { code: 'conversation_taken', message: 'Taken.' } });
      state.holder = 'anna';
      state.conversation = { ...state.conversation, mode: 'agent', agent: { id: 'anna', name: 'Anna' } };
      return json(200, { conversation: state.conversation });
    }
    if (url === `${base}/release` && method === 'POST') {
      state.holder = null;
      state.conversation = { ...state.conversation, mode: 'assistant', agent: null };
      return json(200, { conversation: state.conversation });
    }
    if (url === `${base}/messages` && method === 'POST') {
      const { text } = JSON.parse(String(init?.body)) as { text: string };
      const message: InboxMessage = {
        id: `a${seq + 1}`,
        role: 'agent',
        author: 'Anna',
        parts: [{ type: 'text', text }],
        createdAt: '2026-06-01T10:05:00.000Z',
        status: 'done',
      };
      state.messages = [...state.messages, message];
      return json(201, { message });
    }
    return json(404, { error: { code: 'not_found', message: 'No.' } });
  };
  /** Another agent takes the conversation behind the console's back. */
  const takenBy = (id: string, name: string) => {
    state.holder = id;
    state.conversation = { ...state.conversation, mode: 'agent', agent: { id, name } };
  };
  return { fetchFn, emit, state, takenBy };
}

const stores: { close(): void }[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function setup() {
  const service = fakeService();
  const failures: string[] = [];
  const store = createConversationStore(createConsoleApi(service.fetchFn as typeof fetch), {
    key: () => 'anna-key',
    widgetId: () => 'demo',
    agentId: () => 'anna',
    failed: (e) => {
      failures.push(e.message);
      return e.message;
    },
  });
  stores.push(store);
  return { store, service, failures };
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const texts = (store: ReturnType<typeof setup>['store']) =>
  store
    .items()
    .map((i) =>
      i.kind === 'mode'
        ? modeLineText(i.mode, i.agent)
        : `${i.message.author ?? i.message.role}: ${i.message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}`,
    );

describe('the open conversation', () => {
  it('follows the log live and announces only events after the seq the conversation was read at', async () => {
    const { store, service } = setup();
    // The log held two events when the console read the conversation: their replay is not news.
    service.state.lastSeq = 2;
    await store.open('c1');
    await tick();
    expect(store.streamStatus.value).toBe('live');
    // The replay of the past: merged, not announced.
    service.emit({ type: 'message.user', messageId: 'u1', text: 'A person please' });
    service.emit({ type: 'conversation.mode', mode: 'waiting' });
    await tick(10);
    expect(texts(store)).toEqual(['user: A person please', 'The shopper asked for a person']);
    expect(store.announcement.value).toBe('');
    // At once, not after a quiet spell: a shopper answering within a second is announced too.
    service.emit({ type: 'message.user', messageId: 'u2', text: 'Hello?' });
    await tick(10);
    expect(texts(store)).toEqual(['user: A person please', 'The shopper asked for a person', 'user: Hello?']);
    expect(store.announcement.value).toBe('Shopper: Hello?');
  });

  it('takes over, shows a sent reply once when its own event arrives, and hands back', async () => {
    const { store, service } = setup();
    await store.open('c1');
    expect(store.isMine()).toBe(false);
    expect(await store.take()).toBe(true);
    expect(store.isMine()).toBe(true);
    expect(store.mode()).toBe('agent');

    expect(await store.send('Hi, Anna here')).toBe(true);
    expect(texts(store).at(-1)).toBe('Anna: Hi, Anna here');
    service.emit({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    const id = service.state.messages.at(-1)!.id;
    service.emit({
      type: 'message.delta',
      messageId: id,
      role: 'agent',
      author: 'Anna',
      text: 'Hi, Anna here',
    });
    service.emit({ type: 'message.done', messageId: id, role: 'agent', author: 'Anna' });
    await tick(10);
    expect(texts(store).filter((t) => t === 'Anna: Hi, Anna here')).toHaveLength(1);

    expect(await store.release()).toBe(true);
    expect(store.isMine()).toBe(false);
    expect(store.mode()).toBe('assistant');
  });

  it('says who has the conversation when another agent took it first', async () => {
    const { store, service } = setup();
    await store.open('c1');
    service.takenBy('ben', 'Ben');
    expect(await store.take()).toBe(false);
    expect(store.actionError.value).toBe(ACTION_MESSAGES.taken('Ben'));
    expect(store.actionError.value).toBe('Ben has this conversation.');
    expect(store.isMine()).toBe(false);
    expect(store.conversation.value?.agent?.name).toBe('Ben');
  });
});
