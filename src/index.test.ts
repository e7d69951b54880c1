import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_READY, load } from './index';
import {
  globalApi,
  json,
  recordEvents,
  resetPage,
  spyConsoleError,
  startTestService,
  TEST_CONFIG,
  type TestService,
} from './widget/test-support';

let service: TestService;

beforeAll(async () => {
  service = await startTestService(json(TEST_CONFIG));
});
afterAll(() => service.close());
beforeEach(() => {
  spyConsoleError();
});
afterEach(resetPage);

describe('load()', () => {
  it('resolves to the API, the same object as window.Service', async () => {
    const api = await load({ widgetId: 'demo', baseUrl: service.baseUrl });
    expect(api.widgetId).toBe('demo');
    expect(globalApi()).toBe(api);
  });

  it('called twice, even concurrently, gives the same instance and mounts once', async () => {
    const ready = recordEvents(EVENT_READY);
    const [first, second] = await Promise.all([
      load({ widgetId: 'demo', baseUrl: service.baseUrl }),
      load({ widgetId: 'demo', baseUrl: service.baseUrl }),
    ]);
    const third = await load({ widgetId: 'demo', baseUrl: service.baseUrl });
    ready.stop();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(ready.events).toHaveLength(1);
    expect(document.querySelectorAll('service-widget')).toHaveLength(1);
  });

  it('mounts afresh after destroy()', async () => {
    const first = await load({ widgetId: 'demo', baseUrl: service.baseUrl });
    first.destroy();
    const second = await load({ widgetId: 'demo', baseUrl: service.baseUrl });
    expect(second).not.toBe(first);
    expect(document.querySelectorAll('service-widget')).toHaveLength(1);
  });

  it('warns once when called again with other settings while loading or loaded, and says to destroy() first', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onReady = () => {};
    const settings = { widgetId: 'demo', baseUrl: service.baseUrl, userData: { plan: 'gold' }, onReady };
    const loading = load(settings);
    // Deep-equal settings (a new object, the same callback) are the same settings: no warning.
    await load({ ...settings, userData: { plan: 'gold' } });
    expect(warn).not.toHaveBeenCalled();
    // Other settings while it is still loading, and again once it is loaded: one warning.
    const other = load({ ...settings, userData: { plan: 'silver' } });
    const api = await loading;
    expect(await other).toBe(api);
    expect(await load({ widgetId: 'other', baseUrl: service.baseUrl })).toBe(api);
    expect(warn.mock.calls).toEqual([
      ['[service] load() was called again with other settings, which are ignored: call destroy() first'],
    ]);
    // After destroy(), other settings mount afresh, with no warning.
    api.destroy();
    const fresh = await load({ widgetId: 'other', baseUrl: service.baseUrl });
    expect(fresh).not.toBe(api);
    expect(fresh.widgetId).toBe('other');
    expect(warn).toHaveBeenCalledOnce();
  });

  it('rejects with a [service] error without a widget id', async () => {
    await expect(load({})).rejects.toThrow(/^\[service\] widgetId is required/);
    expect(document.querySelector('service-widget')).toBeNull();
  });

  it("looks for the service at the page's origin by default", async () => {
    const page = window as unknown as { happyDOM: { setURL(url: string): void } };
    const before = service.requests.length;
    page.happyDOM.setURL(`${service.baseUrl}/shop/product/1`);
    try {
      await load({ widgetId: 'same-origin' });
    } finally {
      page.happyDOM.setURL('http://localhost:3000/');
    }
    expect(service.requests.slice(before)).toEqual(['/v0/widget/same-origin/config']);
  });

  it('resolves even when the service is down: the widget loads offline', async () => {
    const gone = await startTestService();
    await gone.close();
    const api = await load({ widgetId: 'demo', baseUrl: gone.baseUrl });
    expect(api.isOpen).toBe(false);
  });
});
