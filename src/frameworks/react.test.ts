import { createElement, Fragment, type ReactNode, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  expectTypeOf,
  it,
  onTestFinished,
  vi,
} from 'vitest';
import { EVENT_CHAT_OPEN, EVENT_READY, type EventDetail, type ServiceApi } from '../index';
import {
  globalApi,
  json,
  recordEvents,
  resetPage,
  spyConsoleError,
  startTestService,
  TEST_CONFIG,
  type TestService,
} from '../widget/test-support';
import { ServiceWidget, useService, useServiceEvent } from './react';

let service: TestService;
let consoleError: ReturnType<typeof spyConsoleError>;
let root: Root | undefined;
let container: HTMLElement;

beforeAll(async () => {
  service = await startTestService(json(TEST_CONFIG));
});
afterAll(() => service.close());
beforeEach(() => {
  consoleError = spyConsoleError();
  container = document.createElement('div');
  document.body.append(container);
});
afterEach(() => {
  root?.unmount();
  root = undefined;
  container.remove();
  resetPage();
});

const render = (node: ReactNode) => {
  root ??= createRoot(container);
  root.render(node);
};
const hosts = () => document.querySelectorAll('service-widget');
const untilLoaded = () => vi.waitFor(() => expect(globalApi()).toBeDefined());
const widget = () => createElement(ServiceWidget, { widgetId: 'demo', baseUrl: service.baseUrl });

/** What `Help` rendered with, render after render. */
const seen: (ServiceApi | null)[] = [];
function Help() {
  const api = useService();
  seen.push(api);
  return createElement('button', { type: 'button', disabled: !api }, api ? api.widgetId : 'loading');
}
function Page({ withWidget }: { withWidget: boolean }) {
  return createElement(Fragment, null, createElement(Help), withWidget ? widget() : null);
}

/** The `service:chat-open` events `Listener` handled, as `label:widgetId`. */
const calls: string[] = [];
function Listener({ label }: { label: string }) {
  useServiceEvent(EVENT_CHAT_OPEN, (event) => {
    expectTypeOf(event).toEqualTypeOf<CustomEvent<EventDetail>>();
    calls.push(`${label}:${event.detail.widgetId}`);
  });
  return createElement('span', null, label);
}

describe('<ServiceWidget />', () => {
  it('renders nothing itself, loads the widget on mount and destroys it on unmount', async () => {
    render(createElement('main', null, widget()));
    await untilLoaded();
    expect(container.innerHTML).toBe('<main></main>');
    expect(hosts()).toHaveLength(1);
    root?.unmount();
    root = undefined;
    expect(hosts()).toHaveLength(0);
    expect(globalApi()).toBeUndefined();
  });

  it('under Strict Mode (the effect runs, is cleaned up and runs again) ends with one widget and no error', async () => {
    const ready = recordEvents(EVENT_READY);
    render(createElement(StrictMode, null, widget()));
    await untilLoaded();
    // Long enough for a second widget, or a destroy of the first, to have happened.
    await new Promise((resolve) => setTimeout(resolve, 100));
    ready.stop();
    expect(ready.events).toHaveLength(1);
    expect(hosts()).toHaveLength(1);
    expect(globalApi()?.widgetId).toBe('demo');
    expect(consoleError.mock.calls).toEqual([]);
  });

  it('on a route change (unmounted on one route, mounted on another) leaves one widget, the first destroyed', async () => {
    const home = () => createElement('section', { id: 'home' }, widget());
    const product = () => createElement('article', { id: 'product' }, widget());
    render(createElement(StrictMode, null, createElement(home)));
    await untilLoaded();
    const first = globalApi();
    render(createElement(StrictMode, null, createElement(product)));
    await vi.waitFor(() => expect(globalApi()).not.toBe(first));
    await untilLoaded();
    expect(hosts()).toHaveLength(1);
    expect(first?.isOpen).toBe(false);
    // A route without the widget: nothing left behind.
    render(createElement(StrictMode, null, createElement('p', null, 'checkout')));
    await vi.waitFor(() => expect(container.textContent).toBe('checkout'));
    expect(hosts()).toHaveLength(0);
    expect(globalApi()).toBeUndefined();
    expect(consoleError.mock.calls).toEqual([]);
  });

  it('a route change before the widget has loaded still ends with one widget, and none once unmounted', async () => {
    // A slow service: the config answers after 200 ms, so the widget is still loading when the route changes.
    service.handle((request, response) => setTimeout(() => json(TEST_CONFIG)(request, response), 200));
    onTestFinished(() => service.handle(json(TEST_CONFIG)));
    render(createElement('section', null, widget()));
    await vi.waitFor(() => expect(container.innerHTML).toBe('<section></section>'));
    expect(globalApi()).toBeUndefined();
    render(createElement('article', null, widget()));
    await vi.waitFor(() => expect(container.innerHTML).toBe('<article></article>'));
    await untilLoaded();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hosts()).toHaveLength(1);
    root?.unmount();
    root = undefined;
    expect(hosts()).toHaveLength(0);
  });
});

describe('useService()', () => {
  it('is null until the widget has loaded, then the API (re-rendering), and null again once it is destroyed', async () => {
    seen.length = 0;
    render(createElement(Page, { withWidget: true }));
    await vi.waitFor(() => expect(container.textContent).toBe('demo'));
    expect(seen[0]).toBeNull();
    expect(seen.at(-1)).toBe(globalApi());
    render(createElement(Page, { withWidget: false }));
    await vi.waitFor(() => expect(container.textContent).toBe('loading'));
    expect(consoleError.mock.calls).toEqual([]);
  });
});

describe('useServiceEvent()', () => {
  it('calls the latest handler with the typed event, listening once', async () => {
    const addListener = vi.spyOn(window, 'addEventListener');
    calls.length = 0;
    render(createElement(Fragment, null, createElement(Listener, { label: 'first' }), widget()));
    await untilLoaded();
    render(createElement(Fragment, null, createElement(Listener, { label: 'second' }), widget()));
    await vi.waitFor(() => expect(container.textContent).toBe('second'));
    // The passive effects of that render (the handler's update) run after it is painted.
    await new Promise((resolve) => setTimeout(resolve, 20));
    globalApi()?.openChat();
    expect(calls).toEqual(['second:demo']);
    expect(addListener.mock.calls.filter(([name]) => name === EVENT_CHAT_OPEN)).toHaveLength(1);
    root?.unmount();
    root = undefined;
    const before = calls.length;
    window.dispatchEvent(new CustomEvent(EVENT_CHAT_OPEN, { detail: { widgetId: 'demo' } }));
    expect(calls).toHaveLength(before);
  });
});
