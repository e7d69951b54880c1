import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_READY, type ServiceApi } from '../protocol';
import { bootFromScript } from './script-boot';
import {
  globalApi,
  json,
  resetPage,
  serviceErrors,
  spyConsoleError,
  startTestService,
  TEST_CONFIG,
  type TestService,
} from './test-support';

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

const nextReady = (): Promise<CustomEvent> =>
  new Promise((resolve) =>
    window.addEventListener(EVENT_READY, (event) => resolve(event as CustomEvent), { once: true }),
  );

const settings = (value: unknown): void => {
  (window as unknown as Record<string, unknown>).serviceSettings = value;
};

describe('boot.ts (dist/widget.js)', () => {
  it('mounts from window.serviceSettings when imported', async () => {
    settings({ widgetId: 'demo', baseUrl: service.baseUrl });
    const ready = nextReady();
    await import('./boot');
    expect((await ready).detail).toEqual({ widgetId: 'demo' });
    expect(globalApi()?.widgetId).toBe('demo');
  });

  it('without any widget id: one [service] error, no global, nothing thrown', async () => {
    settings(undefined);
    // @ts-expect-error: the query only makes Vite evaluate the entry once more, as a second page load would.
    await import('./boot?case=no-id');
    await vi.waitUntil(() => consoleError.mock.calls.length > 0);
    expect(serviceErrors(consoleError)).toEqual([expect.stringMatching(/widgetId is required/)]);
    expect(globalApi() as ServiceApi | undefined).toBeUndefined();
  });
});

describe('bootFromScript()', () => {
  it('takes the widget id from the module URL (?widgetId=) when the settings have none', async () => {
    settings({ baseUrl: service.baseUrl });
    const ready = nextReady();
    bootFromScript('https://cdn.example.com/sdk/widget.js?widgetId=from-tag');
    expect((await ready).detail).toEqual({ widgetId: 'from-tag' });
  });

  it('prefers serviceSettings.widgetId over ?widgetId=', async () => {
    settings({ widgetId: 'from-settings', baseUrl: service.baseUrl });
    const ready = nextReady();
    bootFromScript('https://cdn.example.com/sdk/widget.js?widgetId=from-tag');
    expect((await ready).detail).toEqual({ widgetId: 'from-settings' });
  });

  it("looks for the service at the module's origin by default", async () => {
    settings(undefined);
    const before = service.requests.length;
    const ready = nextReady();
    bootFromScript(`${service.baseUrl}/sdk/widget.js?widgetId=demo`);
    await ready;
    expect(service.requests.slice(before)).toEqual(['/v0/widget/demo/config']);
  });

  it('never throws, whatever the URL', () => {
    expect(() => bootFromScript('not a url')).not.toThrow();
    expect(serviceErrors(consoleError)).toEqual([expect.stringMatching(/could not start/)]);
  });
});
