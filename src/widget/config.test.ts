import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../protocol';
import { CONFIG_TIMEOUT_MS, fetchWidgetConfig, matchesHideUrls, parseWidgetConfig } from './config';
import { hang, json, startTestService, TEST_CONFIG, type TestService } from './test-support';

const fallback: WidgetConfig = {
  greeting: 'Hi!',
  title: 'Assistant',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
};

describe('parseWidgetConfig()', () => {
  it('takes a valid config as is', () => {
    expect(parseWidgetConfig(TEST_CONFIG, fallback)).toEqual(TEST_CONFIG);
  });

  it.each([[null], ['text'], [[]], [42]])('falls back entirely for %j', (raw) => {
    expect(parseWidgetConfig(raw, fallback)).toEqual(fallback);
  });

  it('falls back field by field', () => {
    const parsed = parseWidgetConfig(
      {
        ...TEST_CONFIG,
        greeting: '',
        title: 'x'.repeat(101),
        theme: { color: 'url(https://tracker.example/pixel)' },
        launcherPosition: 'top-left',
        linkTarget: '_parent',
      },
      fallback,
    );
    expect(parsed).toEqual({ ...fallback, hideUrls: TEST_CONFIG.hideUrls });
  });

  it('keeps only path-like hideUrls', () => {
    expect(
      parseWidgetConfig({ hideUrls: ['/cart', 7, 'https://x.example/', null] }, fallback).hideUrls,
    ).toEqual(['/cart']);
    expect(parseWidgetConfig({ hideUrls: '/cart' }, fallback).hideUrls).toEqual([]);
  });

  it('does not choke on a theme that is not an object', () => {
    expect(parseWidgetConfig({ theme: 'blue' }, fallback).theme).toEqual(fallback.theme);
  });
});

describe('matchesHideUrls()', () => {
  it('matches whole path segments', () => {
    expect(matchesHideUrls('/checkout', ['/checkout'])).toBe(true);
    expect(matchesHideUrls('/checkout/pay', ['/checkout'])).toBe(true);
    expect(matchesHideUrls('/checkouts', ['/checkout'])).toBe(false);
    expect(matchesHideUrls('/account/orders', ['/account/'])).toBe(true);
    expect(matchesHideUrls('/', [])).toBe(false);
  });
});

describe('fetchWidgetConfig()', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('waits 4 seconds by default', () => {
    expect(CONFIG_TIMEOUT_MS).toBe(4000);
  });

  it('GETs /v0/widget/{widgetId}/config, id encoded', async () => {
    service.handle(json(TEST_CONFIG));
    const result = await fetchWidgetConfig(service.baseUrl, 'shop/1');
    expect(result).toEqual({ ok: true, value: TEST_CONFIG });
    expect(service.requests.at(-1)).toBe('/v0/widget/shop%2F1/config');
  });

  it('reports a non-2xx answer', async () => {
    service.handle(json({ error: 'boom' }, 500));
    expect(await fetchWidgetConfig(service.baseUrl, 'demo')).toEqual({
      ok: false,
      error: 'GET config answered 500',
    });
  });

  it("reports the service's own message when it has one: a refused origin names the setting (issue 36)", async () => {
    const message = "this page's origin http://localhost:3000 is not in the widget's allowedOrigins: add it";
    service.handle(json({ error: { code: 'origin_not_allowed', message } }, 403));
    expect(await fetchWidgetConfig(service.baseUrl, 'demo')).toEqual({ ok: false, error: message });
  });

  it('reports a body that is not JSON', async () => {
    service.handle((_request, response) => {
      response.writeHead(200, { 'access-control-allow-origin': '*' });
      response.end('<html>');
    });
    const result = await fetchWidgetConfig(service.baseUrl, 'demo');
    expect(result.ok).toBe(false);
  });

  it('gives up at the deadline', async () => {
    service.handle(hang);
    const started = Date.now();
    expect(await fetchWidgetConfig(service.baseUrl, 'demo', { timeoutMs: 100 })).toEqual({
      ok: false,
      error: 'GET config timed out after 100 ms',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops when the caller aborts', async () => {
    service.handle(hang);
    const controller = new AbortController();
    const before = service.requests.length;
    const pending = fetchWidgetConfig(service.baseUrl, 'demo', { signal: controller.signal });
    await vi.waitUntil(() => service.requests.length > before);
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: 'GET config aborted' });
  });

  it('reports an unreachable service', async () => {
    const gone = await startTestService();
    await gone.close();
    const result = await fetchWidgetConfig(gone.baseUrl, 'demo');
    expect(result.ok).toBe(false);
  });
});

describe('parseWidgetConfig: issue 20 fields', () => {
  const fallback = {
    greeting: 'Hi',
    title: 'Shop',
    theme: { color: '#1d4ed8' },
    launcherPosition: 'bottom-right' as const,
    linkTarget: '_self' as const,
    hideUrls: [],
  };

  it('takes cart, handoff, up to four starters and a theme mode', () => {
    const config = parseWidgetConfig(
      {
        cart: true,
        handoff: true,
        starters: ['Where is my order?', 'Do you ship to Austria?'],
        theme: { color: '#000000', mode: 'dark' },
      },
      fallback,
    );
    expect(config.cart).toBe(true);
    expect(config.handoff).toBe(true);
    expect(config.starters).toEqual(['Where is my order?', 'Do you ship to Austria?']);
    expect(config.theme).toEqual({ color: '#000000', mode: 'dark' });
  });

  it('drops what a hostile or newer service sends that it cannot show: a cart or handoff that is not true, starters that are not short text, a fifth starter, an unknown mode', () => {
    const config = parseWidgetConfig(
      {
        cart: 'yes',
        handoff: 1,
        starters: ['a', 42, '', 'x'.repeat(81), 'b', 'c', 'd', 'e'],
        theme: { mode: 'neon' },
      },
      fallback,
    );
    expect(config.cart).toBeUndefined();
    expect(config.handoff).toBeUndefined();
    expect(config.starters).toEqual(['a', 'b', 'c', 'd']);
    expect(config.theme).toEqual({ color: '#1d4ed8' });
  });
});
