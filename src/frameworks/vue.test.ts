import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createApp, defineComponent, h, nextTick } from 'vue';
import { EVENT_READY } from '../index';
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
import { ServicePlugin, useService } from './vue';

let service: TestService;
let consoleError: ReturnType<typeof spyConsoleError>;
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
  container.remove();
  resetPage();
});

const hosts = () => document.querySelectorAll('service-widget');
const Help = defineComponent({
  setup() {
    const service = useService();
    return () => h('button', { type: 'button' }, service.value ? service.value.widgetId : 'loading');
  },
});

describe('ServicePlugin', () => {
  it('loads nothing when installed, the widget once the app has mounted, and useService() follows it', async () => {
    const app = createApp(Help).use(ServicePlugin, { widgetId: 'demo', baseUrl: service.baseUrl });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.requests).toEqual([]);
    expect(hosts()).toHaveLength(0);
    const ready = recordEvents(EVENT_READY);
    app.mount(container);
    expect(container.textContent).toBe('loading');
    await vi.waitFor(() => expect(container.textContent).toBe('demo'));
    ready.stop();
    expect(ready.events).toHaveLength(1);
    expect(hosts()).toHaveLength(1);
    app.unmount();
    expect(hosts()).toHaveLength(0);
    expect(globalApi()).toBeUndefined();
    expect(consoleError.mock.calls).toEqual([]);
  });

  it('app.unmount() before the widget has loaded leaves nothing once it would have', async () => {
    service.handle((request, response) => setTimeout(() => json(TEST_CONFIG)(request, response), 100));
    onTestFinished(() => service.handle(json(TEST_CONFIG)));
    const app = createApp(Help).use(ServicePlugin, { widgetId: 'demo', baseUrl: service.baseUrl });
    const ready = recordEvents(EVENT_READY);
    app.mount(container);
    await nextTick();
    app.unmount();
    // The widget still loads (load() cannot be called off), and is destroyed as soon as it has.
    await vi.waitFor(() => expect(ready.events).toHaveLength(1));
    ready.stop();
    expect(hosts()).toHaveLength(0);
    expect(globalApi()).toBeUndefined();
  });

  it('a new app after unmount (a full client-side navigation) gets a widget of its own', async () => {
    const settings = { widgetId: 'demo', baseUrl: service.baseUrl };
    const first = createApp(Help).use(ServicePlugin, settings);
    first.mount(container);
    await vi.waitFor(() => expect(container.textContent).toBe('demo'));
    const firstApi = globalApi();
    first.unmount();
    const second = createApp(Help).use(ServicePlugin, settings);
    second.mount(container);
    await vi.waitFor(() => expect(container.textContent).toBe('demo'));
    expect(globalApi()).not.toBe(firstApi);
    expect(hosts()).toHaveLength(1);
    second.unmount();
    expect(hosts()).toHaveLength(0);
  });
});

describe('useService()', () => {
  it('outside an app with the plugin, is a ref of null', () => {
    const app = createApp(Help);
    app.mount(container);
    expect(container.textContent).toBe('loading');
    app.unmount();
  });
});
