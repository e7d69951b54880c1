import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHAT_CLOSE, EVENT_CHAT_OPEN, type ServiceApi, type ServiceSettings } from '../protocol';
import {
  flush,
  globalApi,
  hostElement,
  json,
  mountWidget as mountWidgetAt,
  part,
  recordEvents,
  resetPage,
  serviceErrors,
  spyConsoleError,
  startTestService,
  TEST_CONFIG,
  type TestService,
  untilPanel,
} from './test-support';
import { VERSION } from './version';

let service: TestService;
let consoleError: ReturnType<typeof spyConsoleError>;

beforeAll(async () => {
  service = await startTestService(json(TEST_CONFIG));
});
afterAll(() => service.close());
beforeEach(() => {
  consoleError = spyConsoleError();
});
afterEach(resetPage);

const mountWidget = (settings: ServiceSettings = {}): Promise<ServiceApi> =>
  mountWidgetAt(service.baseUrl, settings);

const launcher = (): HTMLButtonElement => part<HTMLButtonElement>('[part="launcher"]');
const panel = (): HTMLElement => part('[part="panel"]');
const textarea = (): HTMLTextAreaElement => part<HTMLTextAreaElement>('textarea');
const messageTexts = (): string[] =>
  [...part('[part="messages"]').querySelectorAll('.user')].map(
    (bubble) => bubble.firstChild?.textContent ?? '',
  );

describe('window.Service', () => {
  it('has the methods and read-only properties DESIGN lists', async () => {
    const api = await mountWidget();
    for (const name of [
      'showLauncher',
      'hideLauncher',
      'openChat',
      'closeChat',
      'setHidden',
      'setUserData',
      'setCustomInstructions',
      'reset',
      'destroy',
    ] as const) {
      expect(typeof api[name]).toBe('function');
    }
    expect(api.widgetId).toBe('demo');
    expect(api.version).toBe(VERSION);
    expect(api.isOpen).toBe(false);
    expect(api.hidden).toBe(false);
    expect(() => {
      (api as { isOpen: boolean }).isOpen = true;
    }).toThrow(TypeError);
    expect(api.isOpen).toBe(false);
  });
});

describe('showLauncher() / hideLauncher() / setHidden()', () => {
  it('hide and show the launcher, and `hidden` follows', async () => {
    const api = await mountWidget();
    api.hideLauncher();
    await flush();
    expect(launcher().hidden).toBe(true);
    expect(api.hidden).toBe(true);
    api.showLauncher();
    await flush();
    expect(launcher().hidden).toBe(false);
    api.setHidden(true);
    await flush();
    expect(launcher().hidden).toBe(true);
    api.setHidden(false);
    expect(api.hidden).toBe(false);
  });

  it('showLauncher() overrides hidden: true from the settings', async () => {
    const api = await mountWidget({ hidden: true });
    api.showLauncher();
    await flush();
    expect(launcher().hidden).toBe(false);
  });

  it('hiding the launcher leaves an open panel open', async () => {
    const api = await mountWidget();
    api.openChat();
    api.hideLauncher();
    await untilPanel();
    await flush();
    expect(api.isOpen).toBe(true);
    expect(panel().hidden).toBe(false);
  });
});

describe('openChat()', () => {
  it('opens the panel and dispatches service:chat-open once', async () => {
    const onChatOpen = vi.fn();
    const api = await mountWidget({ onChatOpen });
    const events = recordEvents(EVENT_CHAT_OPEN);
    api.openChat();
    api.openChat();
    events.stop();
    await untilPanel();
    await flush();
    expect(api.isOpen).toBe(true);
    expect(panel().hidden).toBe(false);
    expect(events.events.map((event) => event.detail)).toEqual([{ widgetId: 'demo' }]);
    expect(onChatOpen).toHaveBeenCalledExactlyOnceWith({ widgetId: 'demo' });
  });

  it('works while the launcher is hidden (the merchant opens the chat from a button of its own)', async () => {
    const api = await mountWidget({ hidden: true });
    api.openChat();
    await untilPanel();
    await flush();
    expect(panel().hidden).toBe(false);
    expect(launcher().hidden).toBe(true);
  });

  it('puts `message` in the composer', async () => {
    const api = await mountWidget();
    api.openChat({ message: 'Do you ship to Austria?' });
    await untilPanel();
    await flush();
    expect(textarea().value).toBe('Do you ship to Austria?');
    expect(messageTexts()).toEqual([]);
  });

  it('with autoSend, sends `message` as a pending user message and clears the composer', async () => {
    const api = await mountWidget();
    api.openChat({ message: 'Is the blue one in stock?', autoSend: true });
    await untilPanel();
    await flush();
    expect(messageTexts()).toEqual(['Is the blue one in stock?']);
    expect(part('[part="messages"] .user').getAttribute('data-status')).toBe('pending');
    expect(textarea().value).toBe('');
  });

  it('with autoSend and a blank message, only opens', async () => {
    const api = await mountWidget();
    api.openChat({ message: '  ', autoSend: true });
    await untilPanel();
    await flush();
    expect(api.isOpen).toBe(true);
    expect(messageTexts()).toEqual([]);
  });

  it('moves focus into the panel', async () => {
    const api = await mountWidget();
    api.openChat();
    await untilPanel();
    await flush();
    expect(hostElement()?.shadowRoot?.activeElement).toBe(textarea());
  });

  it('contains a callback that throws: logged once, the event still dispatched, nothing thrown', async () => {
    const api = await mountWidget({
      onChatOpen: () => {
        throw new Error('merchant bug');
      },
    });
    const events = recordEvents(EVENT_CHAT_OPEN);
    expect(() => api.openChat()).not.toThrow();
    events.stop();
    expect(events.events).toHaveLength(1);
    expect(api.isOpen).toBe(true);
    expect(serviceErrors(consoleError)).toEqual([expect.stringMatching(/service:chat-open callback threw/)]);
  });
});

describe('closeChat()', () => {
  it('closes the panel and dispatches service:chat-close once', async () => {
    const onChatClose = vi.fn();
    const api = await mountWidget({ onChatClose });
    api.openChat();
    const events = recordEvents(EVENT_CHAT_CLOSE);
    api.closeChat();
    api.closeChat();
    events.stop();
    await untilPanel();
    await flush();
    expect(panel().hidden).toBe(true);
    expect(events.events.map((event) => event.detail)).toEqual([{ widgetId: 'demo' }]);
    expect(onChatClose).toHaveBeenCalledExactlyOnceWith({ widgetId: 'demo' });
  });

  it('dispatches nothing when the chat is already closed', async () => {
    const api = await mountWidget();
    const events = recordEvents(EVENT_CHAT_CLOSE);
    api.closeChat();
    events.stop();
    expect(events.events).toHaveLength(0);
  });

  it('leaves focus on the host page when the shopper is there', async () => {
    const api = await mountWidget();
    const search = document.createElement('input');
    document.body.append(search);
    api.openChat();
    await untilPanel();
    await flush();
    search.focus();
    api.closeChat();
    await flush();
    expect(document.activeElement).toBe(search);
    search.remove();
  });
});

describe('setUserData() / setCustomInstructions()', () => {
  it('accept valid values silently', async () => {
    const api = await mountWidget();
    api.setUserData({ email: 'ada@example.com', orders: 2, vip: false, phone: null });
    api.setUserData({});
    api.setCustomInstructions('Answer in a friendly tone.');
    expect(serviceErrors(consoleError)).toEqual([]);
  });
});

describe('reset()', () => {
  it("clears messages, the draft and this widget's storage, and leaves the panel open", async () => {
    const api = await mountWidget();
    api.openChat({ message: 'first', autoSend: true });
    api.openChat({ message: 'half-typed' });
    localStorage.setItem('_service_demo_conversation', 'c-1');
    localStorage.setItem('_service_other_open', '1');
    localStorage.setItem('theme', 'dark');
    const events = recordEvents(EVENT_CHAT_CLOSE);
    api.reset();
    events.stop();
    await untilPanel();
    await flush();
    expect(messageTexts()).toEqual([]);
    expect(textarea().value).toBe('');
    expect(api.isOpen).toBe(true);
    expect(events.events).toHaveLength(0);
    expect(Object.keys(localStorage).sort()).toEqual(['_service_other_open', 'theme']);
  });
});

describe('bad arguments', () => {
  const cases: [string, (api: ServiceApi) => void][] = [
    ['openChat("hello")', (api) => api.openChat('hello' as never)],
    ['openChat(null)', (api) => api.openChat(null as never)],
    ['openChat([])', (api) => api.openChat([] as never)],
    ['openChat({ message: 42 })', (api) => api.openChat({ message: 42 } as never)],
    ['openChat({ message: 4001 chars })', (api) => api.openChat({ message: 'x'.repeat(4001) })],
    ['openChat({ autoSend: "yes" })', (api) => api.openChat({ message: 'hi', autoSend: 'yes' } as never)],
    ['setHidden()', (api) => (api.setHidden as (value?: unknown) => void)()],
    ['setHidden("true")', (api) => api.setHidden('true' as never)],
    ['setHidden(1)', (api) => api.setHidden(1 as never)],
    ['setUserData()', (api) => (api.setUserData as (value?: unknown) => void)()],
    ['setUserData(null)', (api) => api.setUserData(null as never)],
    ['setUserData([])', (api) => api.setUserData([] as never)],
    ['setUserData(nested)', (api) => api.setUserData({ address: { city: 'Berlin' } } as never)],
    ['setUserData(NaN)', (api) => api.setUserData({ score: Number.NaN })],
    ['setUserData(__proto__)', (api) => api.setUserData(JSON.parse('{"__proto__": {"isAdmin": true}}'))],
    ['setCustomInstructions("")', (api) => api.setCustomInstructions('')],
    ['setCustomInstructions(5001 chars)', (api) => api.setCustomInstructions('x'.repeat(5001))],
    ['setCustomInstructions(42)', (api) => api.setCustomInstructions(42 as never)],
    [
      'openChat(an object whose getters throw)',
      (api) =>
        api.openChat(
          new Proxy(
            {},
            {
              get() {
                throw new Error('hostile');
              },
            },
          ),
        ),
    ],
  ];

  it.each(cases)('%s: one [service] console.error, nothing thrown, nothing changed', async (_, call) => {
    const api = await mountWidget();
    const shadow = hostElement()?.shadowRoot;
    const events = recordEvents(EVENT_CHAT_OPEN, EVENT_CHAT_CLOSE);
    const before = {
      hidden: api.hidden,
      isOpen: api.isOpen,
      html: shadow?.innerHTML,
      storage: localStorage.length,
    };
    expect(() => call(api)).not.toThrow();
    await flush();
    events.stop();
    expect(serviceErrors(consoleError)).toHaveLength(1);
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(events.events).toHaveLength(0);
    expect({
      hidden: api.hidden,
      isOpen: api.isOpen,
      html: shadow?.innerHTML,
      storage: localStorage.length,
    }).toEqual(before);
  });
});

describe('after destroy()', () => {
  it('every method is a harmless no-op, reported once', async () => {
    const api = await mountWidget();
    api.destroy();
    const events = recordEvents(EVENT_CHAT_OPEN);
    expect(() => {
      api.openChat();
      api.showLauncher();
      api.setUserData({ a: 1 });
      api.reset();
      api.destroy();
    }).not.toThrow();
    events.stop();
    expect(events.events).toHaveLength(0);
    expect(hostElement()).toBeNull();
    expect(globalApi()).toBeUndefined();
    expect(api.isOpen).toBe(false);
    expect(api.hidden).toBe(true);
    expect(serviceErrors(consoleError)).toEqual([expect.stringMatching(/destroyed/)]);
  });

  it('a second destroy() is silent, as under React Strict Mode (issue 36)', async () => {
    const api = await mountWidget();
    api.destroy();
    api.destroy();
    expect(consoleError).not.toHaveBeenCalled();
    expect(hostElement()).toBeNull();
  });

  it('does not touch a newer widget', async () => {
    const old = await mountWidget();
    old.destroy();
    const current = await mountWidget();
    old.openChat();
    old.destroy();
    expect(current.isOpen).toBe(false);
    expect(globalApi()).toBe(current);
    expect(hostElement()).not.toBeNull();
  });
});

describe('setPageContext()', () => {
  it('takes a product page context and null (clears) silently', async () => {
    const api = await mountWidget();
    api.setPageContext({ product: { name: 'Trail Runner 3', price: '129,90 €' } });
    api.setPageContext(null);
    expect(serviceErrors(consoleError)).toEqual([]);
  });

  it.each([
    ['a string', 'https://shop.example/p/1'],
    ['an array', []],
    ['an object over 8,192 characters as JSON', { product: { name: 'x', description: 'y'.repeat(9000) } }],
  ])('refuses %s with one [service] error', async (_, value) => {
    const api = await mountWidget();
    api.setPageContext(value as never);
    expect(serviceErrors(consoleError)).toHaveLength(1);
  });

  it('a cyclic object is refused with one [service] error, nothing thrown', async () => {
    const api = await mountWidget();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => api.setPageContext(cyclic as never)).not.toThrow();
    expect(serviceErrors(consoleError)).toHaveLength(1);
  });
});

describe('requestHuman()', () => {
  afterEach(() => service.handle(json(TEST_CONFIG)));

  it('without handoff in the widget config: one [service] error, nothing thrown, the chat stays closed', async () => {
    const api = await mountWidget();
    expect(() => api.requestHuman()).not.toThrow();
    expect(serviceErrors(consoleError)).toEqual(['[service] requestHuman(): this widget has no handoff']);
    await untilPanel();
    expect(panel().hidden).toBe(true);
  });

  it('with handoff: opens the chat and asks the service; its 409 is one [service] error, nothing thrown', async () => {
    service.handle((request, response) => {
      const path = request.url ?? '';
      const reply = path.endsWith('/config')
        ? json({ ...TEST_CONFIG, handoff: true })
        : path.endsWith('/conversations')
          ? json({ conversationId: 'c1', token: 't' }, 201)
          : json({ error: { code: 'handoff_unavailable', message: 'No one to hand to.' } }, 409);
      reply(request, response);
    });
    const api = await mountWidget();
    api.requestHuman();
    await untilPanel();
    expect(panel().hidden).toBe(false);
    const deadline = Date.now() + 3000;
    while (serviceErrors(consoleError).length === 0 && Date.now() < deadline) await flush();
    expect(service.requests.filter((path) => path.endsWith('/handoff'))).toEqual([
      '/v0/widget/demo/conversations/c1/handoff',
    ]);
    expect(serviceErrors(consoleError)).toEqual([
      '[service] requestHuman(): the service has no one to hand the conversation to',
    ]);
  });
});
