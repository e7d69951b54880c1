// The script-tag loader as a host page sees it: window.Service appears once, at service:ready, and never breaks the
// page, whatever the settings or the network.
import { describe, expect, it } from 'vitest';
import {
  eventCount,
  isLauncherShown,
  isPanelShown,
  READY_TIMEOUT,
  recorded,
  serviceErrors,
  settle,
  setupE2E,
  type TestWindow,
  waitForReady,
} from './harness';

const e2e = setupE2E();

describe('loader tag', () => {
  it('leaves window.Service undefined at DOMContentLoaded and load, and defines it by service:ready', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    const rec = await recorded(page);
    expect(rec.serviceAtDomContentLoaded).toBe('undefined');
    // Loading is deliberately delayed past the page's own `load` (SPEC: widget browser controls).
    expect(rec.serviceAtLoad).toBe('undefined');
    const ready = rec.events.filter((e) => e.type === 'service:ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ widgetId: 'demo', serviceType: 'object' });
  });

  it('exposes the public API on window.Service at service:ready', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    const api = await page.evaluate(() => {
      const s = (window as unknown as TestWindow).Service;
      if (!s) return null;
      const methods = [
        'showLauncher',
        'hideLauncher',
        'openChat',
        'closeChat',
        'setHidden',
        'setUserData',
        'setCustomInstructions',
        'reset',
        'destroy',
      ] as const;
      return {
        methods: methods.filter((m) => typeof s[m] === 'function'),
        widgetId: s.widgetId,
        version: typeof s.version,
        isOpen: s.isOpen,
        hidden: s.hidden,
      };
    });
    expect(api).toEqual({
      methods: [
        'showLauncher',
        'hideLauncher',
        'openChat',
        'closeChat',
        'setHidden',
        'setUserData',
        'setCustomInstructions',
        'reset',
        'destroy',
      ],
      widgetId: 'demo',
      version: 'string',
      isOpen: false,
      hidden: false,
    });
  });

  it('dispatches service:ready exactly once', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    await settle(page);
    expect(await eventCount(page, 'service:ready')).toBe(1);
  });

  it('passes the page nonce on to the module script it injects', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/csp.html'));
    await waitForReady(page);
    const nonces = await page.evaluate(() => {
      const loader = document.querySelector<HTMLScriptElement>('script[src*="/sdk/loader.js"]');
      const injected = [...document.querySelectorAll<HTMLScriptElement>('script[type="module"]')].filter(
        (s) => s.src.includes('/sdk/'),
      );
      return { page: loader?.nonce ?? null, injected: injected.map((s) => s.nonce) };
    });
    expect(nonces.page).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonces.injected).toEqual([nonces.page]);
  });

  it('mounts one widget when the loader tag is on the page twice', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/?loaders=2'));
    // The demo adds its loader tags after the page's load event (the README's snippet): counted once the widget is up.
    await waitForReady(page);
    expect(await page.locator('script[src$="/sdk/loader.js"]').count()).toBe(2);
    await settle(page);
    expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);
    expect(await eventCount(page, 'service:ready')).toBe(1);
    expect(await isLauncherShown(page)).toBe(true);
  });
});

describe('settings', () => {
  it('logs one [service] error per invalid field and still loads with defaults', async () => {
    const { page, console } = await e2e.newPage();
    await page.goto(e2e.url('/?bad=1'));
    expect(await page.evaluate(() => (window as unknown as TestWindow).serviceSettings)).toEqual({
      userData: { nested: { a: 1 } },
      customInstructions: '',
      hidden: 'yes',
    });
    await waitForReady(page);
    await settle(page);
    const errors = serviceErrors(console);
    expect(errors, errors.join('\n')).toHaveLength(3);
    for (const field of ['userData', 'customInstructions', 'hidden']) {
      expect(
        errors.filter((e) => e.includes(field)),
        `one error names ${field}:\n${errors.join('\n')}`,
      ).toHaveLength(1);
    }
    // `hidden: 'yes'` is ignored, so the top-level default applies: launcher visible.
    expect(await page.evaluate(() => (window as unknown as TestWindow).Service?.hidden)).toBe(false);
    await expect.poll(() => isLauncherShown(page)).toBe(true);
  });
});

describe('service unreachable', () => {
  it('still shows the launcher, and the panel says the assistant is offline', async () => {
    const { page } = await e2e.newPage();
    // The widget's files come from the service; its API calls go to a closed port.
    await page.goto(e2e.url(`/?service=${encodeURIComponent('http://127.0.0.1:9')}`));
    await waitForReady(page);
    await expect.poll(() => isLauncherShown(page)).toBe(true);
    await page.locator('service-widget [part~="launcher"]').click();
    await expect.poll(() => isPanelShown(page), { timeout: READY_TIMEOUT }).toBe(true);
    const panel = page.locator('service-widget [part~="panel"]');
    await expect.poll(() => panel.textContent(), { timeout: READY_TIMEOUT }).toMatch(/cannot be reached/i);
  });
});
