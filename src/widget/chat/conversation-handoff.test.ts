// @vitest-environment node
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HandoffDetail, WidgetConfig } from '../../protocol';
import { pickStrings } from '../locales/all';
import { createStore, type Store } from '../store';
import { type Conversation, createConversation } from './conversation';
import { type HandoffTestService, startHandoffTestService } from './handoff-test-service';
import { localStorage, pageEvents } from './node-page-globals';

// The widget's side of human handoff (issue 21): the conversation's code against a local HTTP service that speaks the
// handoff protocol (handoff-test-service.ts), the test playing the service's and the agents' part. Node environment
// with the few browser globals the conversation uses (as in conversation.test.ts); e2e/handoff-widget.e2e.ts runs the
// same code in Chromium against the reference service.
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

let service: HandoffTestService;
const open: Conversation[] = [];
beforeAll(async () => {
  service = await startHandoffTestService();
});
afterAll(() => service.close());
beforeEach(() => service.clear());
/** The window events dispatched during the test. */
let dispatched: CustomEvent[] = [];
const record = (event: Event) => void dispatched.push(event as CustomEvent);
beforeEach(() => {
  dispatched = [];
  pageEvents.addEventListener('service:handoff', record);
  pageEvents.addEventListener('service:feedback', record);
});
afterEach(() => {
  pageEvents.removeEventListener('service:handoff', record);
  pageEvents.removeEventListener('service:feedback', record);
  for (const c of open.splice(0)) c.dispose();
  service.cut();
  localStorage.clear();
  vi.restoreAllMocks();
});

/** A widget's store and conversation as mount() makes them, recording what `onHandoff` and `onFeedback` are told. */
function widget() {
  const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: true });
  const handoffs: HandoffDetail[] = [];
  const feedback: unknown[] = [];
  const conversation = createConversation({
    store,
    strings: pickStrings('en'),
    baseUrl: service.url,
    widgetId: 'shop',
    onSent: () => {},
    backoff: () => 30,
    settings: { onHandoff: (d) => handoffs.push(d), onFeedback: (d) => feedback.push(d) },
  });
  open.push(conversation);
  store.mountPanel();
  return { store, conversation, handoffs, feedback };
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

/** What the shopper sees: role, author and text of each message. */
const shown = (store: Store) =>
  store.messages.value.map((m) => [
    m.role,
    m.author,
    m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join(''),
    m.status,
  ]);
/** The texts of the messages marked as the handoff's notice (no thumbs under them). */
const notices = (store: Store) =>
  store.messages.value
    .filter((m) => m.isNotice)
    .map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join(''));
const eventsRequests = () =>
  service.requests.filter((r) => r.path.startsWith('/v0/widget/shop/conversations/c1/events'));

/** Asks for a person and waits until the events stream is open. */
async function askForPerson(store: Store): Promise<void> {
  store.requestHuman();
  await until(() => store.mode.value === 'waiting' && service.openStreams() === 1, 'the events stream');
}

describe('requestHuman() ("Talk to a person")', () => {
  it('creates the conversation, posts …/handoff, shows the promise once and keeps the events stream open', async () => {
    const { store, handoffs } = widget();
    await askForPerson(store);
    // (The chat is open, so the new conversation is followed at once: an agent may step in. That stream is not a POST.)
    expect(
      service.requests
        .filter((r) => r.method === 'POST')
        .map((r) => `${r.method} ${r.path.replace(/\?.*/, '')}`)
        .slice(0, 2),
    ).toEqual(['POST /v0/widget/shop/conversations', 'POST /v0/widget/shop/conversations/c1/handoff']);
    // The stream opened from before the promise was logged: it brings the promise again, which is not shown twice.
    await settle();
    expect(shown(store)).toEqual([
      ['assistant', undefined, 'Someone from our team will answer here shortly.', 'done'],
    ]);
    expect(store.announcement.value).toBe('Someone from our team will answer here shortly.');
    expect(notices(store)).toEqual(['Someone from our team will answer here shortly.']);
    expect(handoffs).toEqual([{ widgetId: 'shop', mode: 'waiting' }]);
    expect(dispatched.map((e) => [e.type, e.detail])).toEqual([
      ['service:handoff', { widgetId: 'shop', mode: 'waiting' }],
    ]);
  });

  it('asked again while waiting: no second promise, no second event', async () => {
    const { store, handoffs } = widget();
    await askForPerson(store);
    store.requestHuman();
    await until(() => service.requests.filter((r) => r.path.endsWith('/handoff')).length === 2, 'the ask');
    await settle();
    expect(store.messages.value).toHaveLength(1);
    expect(handoffs).toHaveLength(1);
  });

  it('409 handoff_unavailable: one [service] console.error, nothing thrown, the mode stays', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    service.handoffStatus = 409;
    const { store, handoffs } = widget();
    store.requestHuman();
    await until(() => errors.mock.calls.length > 0, 'the error');
    await settle();
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
      '[service] requestHuman(): the service has no one to hand the conversation to',
    ]);
    expect(store.mode.value).toBe('assistant');
    expect(store.messages.value).toEqual([]);
    expect(handoffs).toEqual([]);
    // The one stream open is the open chat's (`follow=1`, assistant mode), not a handoff's.
    expect(service.openStreams()).toBe(1);
    expect(eventsRequests().every((r) => r.path.includes('follow=1'))).toBe(true);
  });
});

describe('while a person is asked for or answers', () => {
  it("shows an agent's message live with their name and says each mode change to the page", async () => {
    const { store, handoffs } = widget();
    await askForPerson(store);
    service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    await until(() => store.agent.value === 'Anna', 'the agent');
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Hi, Anna here.' }] });
    await until(
      () => store.messages.value.some((m) => m.role === 'agent' && m.status === 'done'),
      'the message',
    );
    expect(shown(store).at(-1)).toEqual(['agent', 'Anna', 'Hi, Anna here.', 'done']);
    expect(store.mode.value).toBe('agent');
    expect(store.announcement.value).toBe('Anna: Hi, Anna here.');
    expect(handoffs).toEqual([
      { widgetId: 'shop', mode: 'waiting' },
      { widgetId: 'shop', mode: 'agent', agent: { name: 'Anna' } },
    ]);
  });

  it("sends the shopper's messages as stored for the agents (202): sent, no reply and no typing line", async () => {
    const { store } = widget();
    await askForPerson(store);
    store.send('My order 1002 is late');
    await until(() => store.messages.value.at(-1)?.status === 'sent', 'the 202');
    await settle();
    expect(shown(store).slice(1)).toEqual([['user', undefined, 'My order 1002 is late', 'sent']]);
    // `message.user` came through the open stream: ignored (the message shows once, as the shopper's).
    expect(store.messages.value.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(service.openStreams()).toBe(1);
  });

  it('resumes the events stream after a drop from the last event it saw', async () => {
    const { store } = widget();
    await askForPerson(store);
    await settle();
    const seen = service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    await until(() => store.agent.value === 'Anna', 'the agent');
    service.cut();
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Still there?' }] });
    await until(
      () => shown(store).some((m) => m[2] === 'Still there?' && m[3] === 'done'),
      'the resumed message',
    );
    expect(eventsRequests().at(-1)?.path).toMatch(new RegExp(`lastEventId=${seen}$`));
    expect(store.messages.value.filter((m) => m.role === 'agent')).toHaveLength(1);
  });

  it('after a hand-back, the stream ends with the service and the assistant answers again', async () => {
    const { store, handoffs } = widget();
    await askForPerson(store);
    service.append({ type: 'conversation.mode', mode: 'assistant' });
    await until(() => store.mode.value === 'assistant', 'the hand-back');
    service.endStreams();
    await settle();
    const opened = eventsRequests().length;
    store.send('Thanks, and the shoes?');
    await until(() => store.messages.value.at(-1)?.status === 'done', 'the answer');
    await settle();
    expect(shown(store).at(-1)).toEqual(['assistant', undefined, 'Echo: Thanks, and the shoes?', 'done']);
    // The promise is the notice; the answer after the hand-back is an answer again.
    expect(notices(store)).toEqual(['Someone from our team will answer here shortly.']);
    expect(eventsRequests()).toHaveLength(opened);
    expect(handoffs.map((h) => h.mode)).toEqual(['waiting', 'assistant']);
  });

  it("asked in words: the reply's own stream says so, and the events stream opens once the reply has ended", async () => {
    const { store, handoffs } = widget();
    store.send('I want a human please');
    await until(() => store.mode.value === 'waiting' && service.openStreams() === 1, 'the events stream');
    expect(shown(store).at(-1)).toEqual(['assistant', undefined, 'Echo: I want a human please', 'done']);
    expect(notices(store)).toEqual(['Echo: I want a human please']);
    expect(handoffs).toEqual([{ widgetId: 'shop', mode: 'waiting' }]);
  });

  it('after a reload in agent mode: the stream opens again from the history, the known mode is no news', async () => {
    const first = widget();
    await askForPerson(first.store);
    service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Hello!' }] });
    await until(() => first.store.messages.value.some((m) => m.role === 'agent'), 'the message');
    for (const c of open.splice(0)) c.dispose();
    service.cut();

    const again = widget();
    await until(() => service.openStreams() === 1, 'the events stream');
    expect(again.store.mode.value).toBe('agent');
    expect(again.store.agent.value).toBe('Anna');
    expect(shown(again.store).at(-1)).toEqual(['agent', 'Anna', 'Hello!', 'done']);
    // The history does not mark the promise: with a person on the conversation, the assistant's last word is it.
    expect(notices(again.store)).toEqual(['Someone from our team will answer here shortly.']);
    const history = service.requests.filter((r) => r.path.endsWith('/messages') && r.method === 'GET');
    expect(history).toHaveLength(1);
    expect(eventsRequests().at(-1)?.path).toMatch(/lastEventId=\d+$/);
    expect(again.handoffs).toEqual([]);
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Back again.' }] });
    await until(() => shown(again.store).some((m) => m[2] === 'Back again.'), 'the live message');
    expect(again.store.messages.value.filter((m) => m.role === 'agent')).toHaveLength(2);
  });

  it('reset() closes the stream and starts over in assistant mode', async () => {
    const { store, conversation } = widget();
    await askForPerson(store);
    conversation.reset();
    await until(() => service.openStreams() === 0, 'the stream to close');
    expect(store.mode.value).toBe('assistant');
  });
});

describe('an agent stepping in on the assistant (the chat open, nobody asked for)', () => {
  it('the open chat is followed (follow=1): the take and her words arrive live', async () => {
    const { store, handoffs } = widget();
    store.send('Hello');
    await until(() => store.messages.value.at(-1)?.status === 'done', 'the answer');
    await until(() => service.openStreams() === 1, 'the open chat followed');
    expect(eventsRequests().at(-1)?.path).toMatch(/follow=1$/);
    service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Can I help?' }] });
    await until(() => shown(store).some((m) => m[2] === 'Can I help?'), 'her words');
    expect(store.mode.value).toBe('agent');
    expect(handoffs).toEqual([{ widgetId: 'shop', mode: 'agent', agent: { name: 'Anna' } }]);
    // Her message shows once, after the assistant's answer.
    expect(shown(store).map((m) => m[0])).toEqual(['user', 'assistant', 'agent']);
  });

  it('closing the chat ends that stream; opening it again follows from the last event heard, without "reconnecting"', async () => {
    const { store } = widget();
    store.send('Hello');
    await until(
      () => service.openStreams() === 1 && store.messages.value.at(-1)?.status === 'done',
      'followed',
    );
    store.closeChat();
    await until(() => service.openStreams() === 0, 'the stream to end');
    await settle();
    expect(store.status.value).toBe('online');
    // Meanwhile an agent wrote: opening the chat again brings it, once.
    service.append({ type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } });
    service.write({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Still there?' }] });
    store.openChat();
    await until(() => shown(store).some((m) => m[2] === 'Still there?'), 'her words');
    expect(store.messages.value.filter((m) => m.role === 'agent')).toHaveLength(1);
    expect(store.status.value).toBe('online');
  });
});

describe('rate() (thumbs)', () => {
  it('posts the rating for the answer and tells the page', async () => {
    const { store, conversation, feedback } = widget();
    store.send('Shoes?');
    await until(() => store.messages.value.at(-1)?.status === 'done', 'the answer');
    const answer = store.messages.value.at(-1)?.id as string;
    expect(await conversation.rate(answer, 'down')).toBe(true);
    expect(service.requests.at(-1)).toEqual({
      method: 'POST',
      path: `/v0/widget/shop/conversations/c1/messages/${answer}/feedback`,
      body: { rating: 'down' },
    });
    expect(feedback).toEqual([{ widgetId: 'shop', messageId: answer, rating: 'down' }]);
    expect(dispatched.map((e) => [e.type, e.detail])).toEqual([
      ['service:feedback', { widgetId: 'shop', messageId: answer, rating: 'down' }],
    ]);
  });

  it('a rating the service refuses resolves false, logs once and tells the page nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store, conversation, feedback } = widget();
    store.send('Shoes?');
    await until(() => store.messages.value.at(-1)?.status === 'done', 'the answer');
    service.feedbackStatus = 400;
    expect(await conversation.rate(store.messages.value.at(-1)?.id as string, 'up')).toBe(false);
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/^\[service\] could not send the rating/);
    expect(feedback).toEqual([]);
    expect(dispatched).toEqual([]);
  });
});
