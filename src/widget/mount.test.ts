import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_READY,
  type HistoryResponse,
  type ServiceApi,
  type ServiceSettings,
} from '../protocol';
import { type MountDefaults, mount } from './mount';
import { storageKey } from './storage';
import {
  flush,
  globalApi,
  hang,
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

let service: TestService;
let consoleError: ReturnType<typeof spyConsoleError>;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());
beforeEach(() => {
  service.handle(json(TEST_CONFIG));
  consoleError = spyConsoleError();
});
afterEach(() => {
  resetPage();
  history.replaceState(null, '', '/');
});

const mountWidget = (
  settings: ServiceSettings = {},
  defaults: Partial<MountDefaults> = {},
): Promise<ServiceApi> => mountWidgetAt(service.baseUrl, settings, defaults);

/** Pretends the page runs in a frame, as `window.self !== window.top` sees it. */
const pretendIframe = (): void => {
  vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
};

describe('mount()', () => {
  it('defines window.Service only when ready, then dispatches service:ready once', async () => {
    const seen: unknown[] = [];
    const onReady = vi.fn();
    const listener = (event: Event): void => {
      seen.push([(event as CustomEvent).detail, globalApi()]);
    };
    window.addEventListener(EVENT_READY, listener);
    const pending = mount({ widgetId: 'demo', onReady }, { baseUrl: service.baseUrl });
    expect(globalApi()).toBeUndefined();
    const result = await pending;
    window.removeEventListener(EVENT_READY, listener);
    if (!result.ok) throw new Error(result.error);
    expect(seen).toEqual([[{ widgetId: 'demo' }, result.value]]);
    expect(onReady).toHaveBeenCalledExactlyOnceWith({ widgetId: 'demo' });
    expect(globalApi()).toBe(result.value);
  });

  it('fetches its config from baseUrl', async () => {
    const before = service.requests.length;
    await mountWidget({ widgetId: 'shop-7' });
    expect(service.requests.slice(before)).toEqual(['/v0/widget/shop-7/config']);
  });

  it('appends one <service-widget> to the body, with an open shadow root and a constructed stylesheet', async () => {
    await mountWidget();
    const hosts = document.querySelectorAll<HTMLElement>('service-widget');
    expect(hosts).toHaveLength(1);
    expect(hosts[0]?.parentElement).toBe(document.body);
    expect(hosts[0]?.shadowRoot?.mode).toBe('open');
    expect(hosts[0]?.shadowRoot?.adoptedStyleSheets).toHaveLength(1);
    expect(hosts[0]?.shadowRoot?.querySelector('style')).toBeNull();
    // No inline style attribute for a strict CSP to block: only CSSOM custom properties.
    expect(hosts[0]?.style.getPropertyValue('--service-color')).toBe('#ff6600');
  });

  it('is idempotent: concurrent and later calls get the same API and one host element', async () => {
    const calls = [
      mount({ widgetId: 'demo' }, { baseUrl: service.baseUrl }),
      mount({ widgetId: 'demo' }, { baseUrl: service.baseUrl }),
    ];
    const ready = recordEvents(EVENT_READY);
    const [first, second] = await Promise.all(calls);
    const third = await mount({ widgetId: 'other' }, { baseUrl: service.baseUrl });
    ready.stop();
    expect(first?.ok && second?.ok && third.ok).toBe(true);
    if (first?.ok && second?.ok && third.ok) {
      expect(second.value).toBe(first.value);
      expect(third.value).toBe(first.value);
    }
    expect(document.querySelectorAll('service-widget')).toHaveLength(1);
    expect(ready.events).toHaveLength(1);
  });

  it('applies the config: colours, launcher position, title and greeting', async () => {
    await mountWidget();
    // Near-black reads better than white on this orange (WCAG contrast).
    expect(hostElement()?.style.getPropertyValue('--service-on-color')).toBe('#111827');
    expect(part('.root').classList.contains('left')).toBe(true);
    await untilPanel();
    expect(part('#service-title').textContent).toBe('Acme helper');
    expect(part('[part="messages"]').textContent).toContain('Welcome to Acme! Ask me anything.');
  });

  it('falls back to defaults for config fields that are invalid', async () => {
    service.handle(
      json({ ...TEST_CONFIG, theme: { color: 'red; background: url(x)' }, launcherPosition: 'top' }),
    );
    await mountWidget();
    expect(hostElement()?.style.getPropertyValue('--service-color')).toBe('#1d4ed8');
    expect(part('.root').classList.contains('right')).toBe(true);
  });

  it('speaks the locale it is given', async () => {
    await mountWidget({ locale: 'de-DE' });
    expect(part('[part="launcher"]').getAttribute('aria-label')).toBe('Chat öffnen');
    expect(part('.root').getAttribute('lang')).toBe('de');
  });

  it('logs one [service] error per invalid setting and still loads', async () => {
    await mountWidget({ hidden: 'yes' as unknown as boolean, userData: { cart: [1] } as never });
    expect(serviceErrors(consoleError)).toEqual([
      expect.stringMatching(/^\[service\] hidden/),
      expect.stringMatching(/^\[service\] userData\.cart/),
    ]);
    expect(globalApi()).toBeDefined();
  });

  it('without a widget id: one [service] error, no element, no global, an error value', async () => {
    const result = await mount({}, { baseUrl: service.baseUrl });
    expect(result.ok).toBe(false);
    expect(serviceErrors(consoleError)).toHaveLength(1);
    expect(serviceErrors(consoleError)[0]).toMatch(/widgetId/);
    expect(hostElement()).toBeNull();
    expect(globalApi()).toBeUndefined();
  });

  it('tries again on the next call after a failed one', async () => {
    await mount({}, { baseUrl: service.baseUrl });
    expect((await mount({ widgetId: 'demo' }, { baseUrl: service.baseUrl })).ok).toBe(true);
  });
});

describe('when the service is unreachable', () => {
  const expectOfflineButUsable = async (): Promise<void> => {
    expect(globalApi()).toBeDefined();
    const launcher = part('[part="launcher"]');
    expect(launcher.hidden).toBe(false);
    launcher.click();
    await flush();
    expect(part('[part="panel"]').hidden).toBe(false);
    expect(part('[part="messages"]').textContent).toContain('The assistant cannot be reached right now.');
    expect(serviceErrors(consoleError)).toEqual([expect.stringMatching(/offline/)]);
  };

  it('loads offline when the config answers 500', async () => {
    service.handle(json({ error: 'boom' }, 500));
    await mountWidget();
    await expectOfflineButUsable();
  });

  it('loads offline when the connection is refused', async () => {
    const gone = await startTestService();
    await gone.close();
    const result = await mount({ widgetId: 'demo', baseUrl: gone.baseUrl }, { baseUrl: service.baseUrl });
    expect(result.ok).toBe(true);
    await flush();
    await expectOfflineButUsable();
  });

  it('loads offline when the config never answers, at the deadline', async () => {
    service.handle(hang);
    const started = Date.now();
    await mountWidget({}, { configTimeoutMs: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await expectOfflineButUsable();
  });

  it("refused for the page's origin: one error naming allowedOrigins and the origin, and a message is not retried", async () => {
    const message = `this page's origin ${location.origin} is not in the widget's allowedOrigins: add it to the widget's config`;
    service.handle(json({ error: { code: 'origin_not_allowed', message } }, 403));
    const api = await mountWidget();
    api.openChat({ message: 'Is this in stock?', autoSend: true });
    await untilPanel();
    const until = Date.now() + 5000;
    while (!service.requests.some((path) => path.endsWith('/conversations')) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // A widget that retried would have asked again within 1.5 s (the backoff's first two waits are at most 1.5 s).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(service.requests.filter((path) => path.endsWith('/conversations'))).toHaveLength(1);
    expect(serviceErrors(consoleError)).toEqual([`[service] ${message}: the assistant shows as offline`]);
  });

  it('says so in German too', async () => {
    service.handle(json({}, 503));
    await mountWidget({ locale: 'de' });
    await untilPanel();
    expect(part('[part="messages"]').textContent).toContain('Der Assistent ist gerade nicht erreichbar.');
  });
});

describe('boot work', () => {
  it('builds only the launcher before service:ready, and the closed panel in a later task', async () => {
    await mountWidget();
    expect(part('[part="launcher"]')).toBeTruthy();
    expect(hostElement()?.shadowRoot?.querySelector('[part="panel"]')).toBeNull();
    expect((await untilPanel()).hidden).toBe(true);
  });

  it('builds the panel at once when the chat is opened before the idle task ran', async () => {
    const api = await mountWidget();
    api.openChat();
    await flush();
    expect(part('[part="panel"]').hidden).toBe(false);
  });
});

describe('hidden', () => {
  const launcherHidden = (): boolean => part('[part="launcher"]').hidden;

  it('true: the launcher starts hidden', async () => {
    const api = await mountWidget({ hidden: true });
    expect(launcherHidden()).toBe(true);
    expect(api.hidden).toBe(true);
  });

  it('false: the launcher shows, even in an iframe', async () => {
    pretendIframe();
    const api = await mountWidget({ hidden: false });
    expect(launcherHidden()).toBe(false);
    expect(api.hidden).toBe(false);
  });

  it('absent, at the top: the launcher shows', async () => {
    const api = await mountWidget();
    expect(launcherHidden()).toBe(false);
    expect(api.hidden).toBe(false);
  });

  it('absent, in an iframe: the launcher starts hidden', async () => {
    pretendIframe();
    const api = await mountWidget();
    expect(launcherHidden()).toBe(true);
    expect(api.hidden).toBe(true);
  });

  it("absent, on a page the config's hideUrls lists: the launcher starts hidden", async () => {
    history.replaceState(null, '', '/checkout/payment');
    const api = await mountWidget();
    expect(api.hidden).toBe(true);
  });

  it("false wins over the config's hideUrls", async () => {
    history.replaceState(null, '', '/checkout');
    expect((await mountWidget({ hidden: false })).hidden).toBe(false);
  });
});

describe('open state', () => {
  it('is remembered per widget in localStorage', async () => {
    const api = await mountWidget();
    api.openChat();
    expect(localStorage.getItem('_service_demo_open')).toBe('1');
    api.closeChat();
    expect(localStorage.getItem('_service_demo_open')).toBeNull();
  });

  it('resumes after a reload, quietly: no event, no focus taken', async () => {
    localStorage.setItem('_service_demo_open', '1');
    const opened = recordEvents(EVENT_CHAT_OPEN);
    const api = await mountWidget();
    opened.stop();
    expect(api.isOpen).toBe(true);
    expect(part('[part="panel"]').hidden).toBe(false);
    expect(opened.events).toHaveLength(0);
    expect(document.activeElement).toBe(document.body);
  });

  it('is not resumed where the launcher is hidden by default (an iframe)', async () => {
    localStorage.setItem('_service_demo_open', '1');
    pretendIframe();
    expect((await mountWidget()).isOpen).toBe(false);
  });

  it('still loads when localStorage is unavailable', async () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const api = await mountWidget();
    api.openChat();
    expect(api.isOpen).toBe(true);
    vi.restoreAllMocks();
  });
});

describe('destroy()', () => {
  it('removes the element and window.Service; a new mount works', async () => {
    const api = await mountWidget();
    api.destroy();
    expect(document.querySelector('service-widget')).toBeNull();
    expect(globalApi()).toBeUndefined();
    expect('Service' in window).toBe(false);

    const ready = recordEvents(EVENT_READY);
    const again = await mountWidget();
    ready.stop();
    expect(again).not.toBe(api);
    expect(document.querySelectorAll('service-widget')).toHaveLength(1);
    expect(ready.events).toHaveLength(1);
  });

  it('removes every listener it added to the page', async () => {
    const viewport = Object.assign(new EventTarget(), { height: 640, offsetTop: 0, scale: 1 });
    vi.stubGlobal('visualViewport', viewport);
    const targets = [window, document, document.body, viewport];
    const added = targets.map((target) => vi.spyOn(target, 'addEventListener'));
    const removed = targets.map((target) => vi.spyOn(target, 'removeEventListener'));

    const api = await mountWidget();
    expect(hostElement()?.style.getPropertyValue('--service-viewport-height')).toBe('640px');
    api.openChat();
    api.closeChat();
    api.destroy();

    const count = (spies: typeof added): number[] => spies.map((spy) => spy.mock.calls.length);
    expect(count(added)[3]).toBeGreaterThan(0);
    expect(count(removed)).toEqual(count(added));
    for (const [index, spy] of added.entries()) {
      for (const [type, listener] of spy.mock.calls) {
        expect(removed[index]?.mock.calls).toContainEqual(expect.arrayContaining([type, listener]));
      }
    }
    vi.unstubAllGlobals();
  });

  it('stops announcing state: no events after destroy', async () => {
    const api = await mountWidget();
    const events = recordEvents(EVENT_CHAT_OPEN, EVENT_CHAT_CLOSE);
    api.openChat();
    api.destroy();
    events.stop();
    expect(events.events.map((event) => event.type)).toEqual([EVENT_CHAT_OPEN]);
  });
});

describe('look', () => {
  /** A `matchMedia` whose `(prefers-color-scheme: dark)` answer the test changes, as the device would. */
  function stubColorScheme(isDark: boolean) {
    const query = Object.assign(new EventTarget(), {
      matches: isDark,
      media: '(prefers-color-scheme: dark)',
    });
    const add = vi.spyOn(query, 'addEventListener');
    const remove = vi.spyOn(query, 'removeEventListener');
    vi.stubGlobal('matchMedia', (media: string) =>
      media === query.media ? query : Object.assign(new EventTarget(), { matches: false, media }),
    );
    return {
      add,
      remove,
      change(next: boolean) {
        query.matches = next;
        query.dispatchEvent(new Event('change'));
      },
    };
  }
  const isDark = () => part('.root').classList.contains('dark');
  const colorText = () => hostElement()?.style.getPropertyValue('--service-color-text');
  afterEach(() => vi.unstubAllGlobals());

  it('is light by default, with the merchant colour as text where it reads on white', async () => {
    await mountWidget();
    expect(isDark()).toBe(false);
    // #ff6600 reads at 2.9:1 on white: text in it would be the scheme's text colour.
    expect(colorText()).toBe('#111827');
  });

  it("takes the merchant's mode from the config, and the page's theme setting over it", async () => {
    service.handle(json({ ...TEST_CONFIG, theme: { color: '#ff6600', mode: 'dark' } }));
    await mountWidget();
    expect(isDark()).toBe(true);
    expect(colorText()).toBe('#ff6600');
    resetPage();
    await mountWidget({ theme: 'light' });
    expect(isDark()).toBe(false);
  });

  it("auto follows the device's colour scheme live, and destroy() stops listening", async () => {
    const scheme = stubColorScheme(true);
    const api = await mountWidget({ theme: 'auto' });
    expect(isDark()).toBe(true);
    scheme.change(false);
    await flush();
    expect(isDark()).toBe(false);
    expect(colorText()).toBe('#111827');
    scheme.change(true);
    await flush();
    expect(isDark()).toBe(true);
    api.destroy();
    expect(scheme.remove.mock.calls).toEqual(scheme.add.mock.calls);
  });

  it('lays the widget out right to left in Arabic, in Arabic', async () => {
    await mountWidget({ locale: 'ar-SA' });
    expect(part('.root').getAttribute('dir')).toBe('rtl');
    expect(part('.root').getAttribute('lang')).toBe('ar');
    expect(part('[part="launcher"]').getAttribute('aria-label')).toBe('فتح الدردشة');
    expect((await untilPanel()).querySelector('textarea')?.labels?.[0]?.textContent).toBe('الرسالة');
  });

  it('stays left to right in a left-to-right language, whatever the page', async () => {
    document.documentElement.dir = 'rtl';
    await mountWidget({ locale: 'de' });
    document.documentElement.removeAttribute('dir');
    // No `dir` of its own: it keeps the host's `direction: ltr`, which the page cannot change (e2e/look.e2e.ts).
    expect(part('.root').hasAttribute('dir')).toBe(false);
  });
});

describe('card signals (issue 35): what the shopper does with a card is told to the service', () => {
  const TRAIL = { name: 'Trail Runner 3', url: 'https://shop.example/p/trail-runner-3', price: '129,90 €' };
  /** A card without a link: the page still gets the press, the service hears nothing of it. */
  const GIFT = { name: 'Gift card', price: '25 €' };
  const HISTORY: HistoryResponse = {
    messages: [
      {
        id: 'm1',
        role: 'user',
        parts: [{ type: 'text', text: 'Trail shoes?' }],
        createdAt: '2026-01-01T00:00:00.000Z',
        clientMessageId: 'q1',
      },
      {
        id: 'm2',
        role: 'assistant',
        parts: [{ type: 'products', cards: [TRAIL, GIFT] }],
        createdAt: '2026-01-01T00:00:01.000Z',
      },
    ],
    lastSeq: 2,
    mode: 'assistant',
  };
  let signals: { authorization: string | undefined; body: unknown }[];

  /** The page's stored conversation (`c1`, token `t1`), whose history shows the cards; the service records signals. */
  beforeEach(() => {
    signals = [];
    localStorage.setItem(storageKey('demo', 'conversation'), 'c1');
    localStorage.setItem(storageKey('demo', 'token'), 't1');
    service.handle((request, response) => {
      const path = request.url ?? '';
      if (path.endsWith('/config')) return json({ ...TEST_CONFIG, cart: true })(request, response);
      if (path.endsWith('/conversations/c1/messages')) return json(HISTORY)(request, response);
      if (!path.endsWith('/conversations/c1/signals'))
        return json({ error: { code: 'not_found' } }, 404)(request, response);
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        signals.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
        response.writeHead(204, { 'access-control-allow-origin': '*' });
        response.end();
      });
    });
  });

  /** Opens the chat and waits until the products of the stored conversation are on screen. */
  async function cards(settings: ServiceSettings = {}): Promise<[HTMLElement, HTMLElement]> {
    const api = await mountWidget(settings);
    api.openChat();
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = hostElement()?.shadowRoot?.querySelectorAll<HTMLElement>('[part="product-card"]') ?? [];
      if (found.length === 2 && found[0]?.querySelector('.pc-add'))
        return [found[0], found[1] as HTMLElement];
      if (Date.now() > deadline) throw new Error('the cards never showed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const button = (card: HTMLElement) => card.querySelector('.pc-add') as HTMLButtonElement;
  /** Waits until the service has `count` signals, then a little longer: time enough for one more to arrive. */
  const untilSignals = async (count: number): Promise<void> => {
    const deadline = Date.now() + 3000;
    while (signals.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((resolve) => setTimeout(resolve, 150));
  };

  it('"Add to cart" tells add-to-cart once per press that starts an add: not again while pending, nor once added', async () => {
    let finish = (): void => {};
    const onAddToCart = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const [trail] = await cards({ onAddToCart });
    button(trail).click();
    await flush();
    expect(button(trail).dataset.state).toBe('pending');
    button(trail).click();
    await untilSignals(1);
    finish();
    await flush();
    expect(button(trail).dataset.state).toBe('done');
    button(trail).click();
    await untilSignals(1);
    expect(onAddToCart).toHaveBeenCalledOnce();
    expect(signals).toEqual([{ authorization: 'Bearer t1', body: { type: 'add-to-cart', url: TRAIL.url } }]);
  });

  it("is told whatever the page's handler does: one that throws is contained, and a press again after the failure is told again", async () => {
    const onAddToCart = vi.fn(() => {
      throw new Error('the cart is down');
    });
    const [trail] = await cards({ onAddToCart });
    expect(() => button(trail).click()).not.toThrow();
    await untilSignals(1);
    expect(button(trail).dataset.state).toBe('failed');
    button(trail).click();
    await untilSignals(2);
    expect(onAddToCart).toHaveBeenCalledTimes(2);
    expect(signals.map((s) => s.body)).toEqual([
      { type: 'add-to-cart', url: TRAIL.url },
      { type: 'add-to-cart', url: TRAIL.url },
    ]);
  });

  it("following a card's link tells product-click with the card's URL", async () => {
    const [trail] = await cards();
    const link = trail.querySelector('a') as HTMLAnchorElement;
    // The page stays (a real browser would follow the link; e2e/shopping.e2e.ts does).
    link.addEventListener('click', (event) => event.preventDefault());
    link.click();
    await untilSignals(1);
    expect(signals).toEqual([
      { authorization: 'Bearer t1', body: { type: 'product-click', url: TRAIL.url } },
    ]);
  });

  it('a card without a link: the page gets the press, the service hears nothing', async () => {
    const onAddToCart = vi.fn();
    const [trail, gift] = await cards({ onAddToCart });
    expect(gift.querySelector('a')).toBeNull();
    button(gift).click();
    expect(onAddToCart).toHaveBeenCalledExactlyOnceWith({
      widgetId: 'demo',
      product: { name: GIFT.name, price: GIFT.price },
    });
    // Then a card with one: its signal is the only one to arrive.
    button(trail).click();
    await untilSignals(1);
    expect(signals.map((s) => s.body)).toEqual([{ type: 'add-to-cart', url: TRAIL.url }]);
  });
});
