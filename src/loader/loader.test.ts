import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOADER_MARK_ATTR } from '../protocol/constants';
import { runLoader } from './run-loader';

type PageWindow = Window & typeof globalThis & { serviceSettings?: unknown; Service?: unknown };

const MARKED = `script[${LOADER_MARK_ATTR}]`;
const pages: HappyWindow[] = [];

interface PageOptions {
  src?: string;
  /** `data-widget-id` of the loader tag; `null` leaves the attribute out. */
  widgetId?: string | null;
  nonce?: string;
  settings?: unknown;
  /** Stub `requestIdleCallback` (the default); `false` leaves the window without one. */
  idle?: boolean;
}

/** A fresh page per test, so no `load` listener or injected script leaks between tests. */
const page = ({
  src = 'https://cdn.test/a/b/loader.js',
  widgetId = 'x',
  nonce,
  settings,
  idle = true,
}: PageOptions = {}) => {
  const happy = new HappyWindow({
    url: 'https://shop.test/',
    settings: { disableJavaScriptFileLoading: true },
  });
  pages.push(happy);
  const win = happy as unknown as PageWindow;
  const doc = win.document;
  const pending: IdleRequestCallback[] = [];
  const requestIdleCallback = vi.fn((callback: IdleRequestCallback, _options?: IdleRequestOptions) => {
    pending.push(callback);
    return pending.length;
  });
  if (idle) win.requestIdleCallback = requestIdleCallback;
  // Settings of any shape, the wrong ones included: what a page may have assigned.
  if (settings !== undefined) (win as { serviceSettings?: unknown }).serviceSettings = settings;
  const addLoaderTag = (tagSrc = src, tagWidgetId = widgetId) => {
    const tag = doc.createElement('script');
    tag.src = tagSrc;
    if (tagWidgetId !== null) tag.dataset.widgetId = tagWidgetId;
    // happy-dom has no `nonce` property of its own; in a browser only the property holds the nonce.
    if (nonce) tag.nonce = nonce;
    doc.body.appendChild(tag);
    return tag;
  };
  return {
    win,
    doc,
    requestIdleCallback,
    addLoaderTag,
    run: (tag: HTMLScriptElement | null = addLoaderTag()) => runLoader(win, tag),
    /** Resolves once happy-dom has set `readyState` to `complete` and fired `load`. */
    load: () => happy.happyDOM.waitUntilComplete(),
    runIdle: () => {
      for (const callback of pending.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
    },
    injected: () => [...doc.querySelectorAll<HTMLScriptElement>(MARKED)],
  };
};

const consoleErrors = () => vi.spyOn(console, 'error').mockImplementation(() => {});

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pages.splice(0).map((happy) => happy.happyDOM.close()));
});

describe('runLoader()', () => {
  it('injects nothing and asks for no idle time before the window load event', () => {
    const p = page();
    expect(p.doc.readyState).not.toBe('complete');
    p.run();
    expect(p.requestIdleCallback).not.toHaveBeenCalled();
    expect(p.injected()).toHaveLength(0);
  });

  it('waits for load, then for an idle period bounded at 2000 ms, then injects the widget module', async () => {
    const p = page();
    p.run();
    await p.load();
    expect(p.requestIdleCallback).toHaveBeenCalledOnce();
    expect(p.requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 });
    expect(p.injected()).toHaveLength(0);
    p.runIdle();
    expect(p.injected()).toHaveLength(1);
  });

  it('goes straight to the idle wait when document.readyState is already complete', async () => {
    const p = page();
    await p.load();
    expect(p.doc.readyState).toBe('complete');
    p.run();
    expect(p.requestIdleCallback).toHaveBeenCalledOnce();
    expect(p.injected()).toHaveLength(0);
    p.runIdle();
    expect(p.injected()).toHaveLength(1);
  });

  it('falls back to setTimeout(…, 1) where requestIdleCallback does not exist', async () => {
    const p = page({ idle: false });
    await p.load();
    vi.useFakeTimers();
    p.run();
    expect(p.injected()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(p.injected()).toHaveLength(1);
  });

  it("injects one type=module script from the loader's own folder, with its nonce and the loader mark", async () => {
    const p = page({ src: 'https://cdn.test/a/b/loader.js?v=3', nonce: 'r4nd0m' });
    const errors = consoleErrors();
    p.run();
    await p.load();
    p.runIdle();
    const [script] = p.injected();
    expect(p.injected()).toHaveLength(1);
    expect(script.type).toBe('module');
    expect(script.src).toBe('https://cdn.test/a/b/widget.js?widgetId=x');
    expect(script.nonce).toBe('r4nd0m');
    expect(script.hasAttribute(LOADER_MARK_ATTR)).toBe(true);
    expect(script.parentNode).toBe(p.doc.head);
    expect(errors).not.toHaveBeenCalled();
  });

  it('resolves a relative loader src against the page, like the browser does', async () => {
    const p = page({ src: '/sdk/loader.js' });
    p.run();
    await p.load();
    p.runIdle();
    expect(p.injected()[0].src).toBe('https://shop.test/sdk/widget.js?widgetId=x');
  });

  it('appends to documentElement when the document has no head', async () => {
    const p = page();
    p.run();
    p.doc.head.remove();
    await p.load();
    p.runIdle();
    expect(p.injected()[0].parentNode).toBe(p.doc.documentElement);
  });

  it('prefers serviceSettings.widgetId over data-widget-id', async () => {
    const p = page({ widgetId: 'from-tag', settings: { widgetId: 'from-settings', hidden: false } });
    p.run();
    await p.load();
    p.runIdle();
    expect(new URL(p.injected()[0].src).searchParams.get('widgetId')).toBe('from-settings');
  });

  it.each([
    ['empty', ''],
    ['not a string', 42],
  ])(
    'uses data-widget-id when serviceSettings.widgetId is %s, leaving field checks to the widget',
    async (_, widgetId) => {
      const p = page({ widgetId: 'from-tag', settings: { widgetId, userData: 'not checked here' } });
      const errors = consoleErrors();
      p.run();
      await p.load();
      p.runIdle();
      expect(new URL(p.injected()[0].src).searchParams.get('widgetId')).toBe('from-tag');
      expect(errors).not.toHaveBeenCalled();
    },
  );

  it('URL-encodes the widget id', async () => {
    const p = page({ widgetId: 'a b&c' });
    p.run();
    await p.load();
    p.runIdle();
    const { src } = p.injected()[0];
    expect(src).toBe('https://cdn.test/a/b/widget.js?widgetId=a%20b%26c');
    expect(new URL(src).searchParams.get('widgetId')).toBe('a b&c');
  });

  it('injects the widget once when two loader tags are both waiting', async () => {
    const p = page();
    p.run();
    p.run(p.addLoaderTag('https://cdn.test/other/loader.js', 'y'));
    await p.load();
    expect(p.requestIdleCallback).toHaveBeenCalledTimes(2);
    p.runIdle();
    expect(p.injected()).toHaveLength(1);
  });

  it('stands down when the widget module was already injected', async () => {
    const p = page();
    const tag = p.addLoaderTag();
    p.run(tag);
    await p.load();
    p.runIdle();
    p.run(tag);
    p.runIdle();
    expect(p.injected()).toHaveLength(1);
  });

  it('finds the last script[src*="loader"] when document.currentScript is null', async () => {
    const p = page();
    p.addLoaderTag('https://cdn.test/first/loader.js', 'first');
    p.addLoaderTag('https://cdn.test/last/loader.js', 'last');
    p.run(null);
    await p.load();
    p.runIdle();
    expect(p.injected()[0].src).toBe('https://cdn.test/last/widget.js?widgetId=last');
  });

  it('logs exactly one [service] error naming both ways to set the id, and injects nothing, without a widget id', async () => {
    const p = page({ widgetId: null, settings: { hidden: true } });
    const errors = consoleErrors();
    p.run();
    await p.load();
    p.runIdle();
    expect(errors).toHaveBeenCalledOnce();
    const [message] = errors.mock.calls[0];
    expect(message).toContain('[service]');
    expect(message).toContain('widgetId');
    expect(message).toContain('data-widget-id');
    expect(p.requestIdleCallback).not.toHaveBeenCalled();
    expect(p.injected()).toHaveLength(0);
  });

  it.each([
    ['a string', 'demo'],
    ['an array', ['demo']],
    ['null', null],
    ['a number', 7],
  ])(
    'logs one [service] error when serviceSettings is %s, then loads with data-widget-id',
    async (_, settings) => {
      const p = page({ widgetId: 'tag-id' });
      (p.win as { serviceSettings?: unknown }).serviceSettings = settings;
      const errors = consoleErrors();
      p.run();
      expect(errors).toHaveBeenCalledOnce();
      expect(errors.mock.calls[0][0]).toContain('[service]');
      expect(errors.mock.calls[0][0]).toContain('serviceSettings');
      await p.load();
      p.runIdle();
      expect(p.injected()[0].src).toBe('https://cdn.test/a/b/widget.js?widgetId=tag-id');
    },
  );

  it('never throws into the host page: a failure is one [service] console.error', () => {
    const p = page();
    Object.defineProperty(p.win, 'serviceSettings', {
      get() {
        throw new Error('hostile getter');
      },
    });
    const errors = consoleErrors();
    expect(() => p.run()).not.toThrow();
    expect(() => page().run(null)).not.toThrow(); // no tag at all to read an id or a URL from
    expect(errors).toHaveBeenCalledTimes(2);
    for (const [message] of errors.mock.calls) expect(message).toMatch(/^\[service\] /);
  });

  it('defines no globals: window.Service stays undefined until the widget itself defines it', async () => {
    const p = page();
    const before = new Set(Object.getOwnPropertyNames(p.win));
    p.run();
    await p.load();
    p.runIdle();
    expect(p.injected()).toHaveLength(1);
    expect(p.win.Service).toBeUndefined();
    expect(Object.getOwnPropertyNames(p.win).filter((name) => !before.has(name))).toEqual([]);
  });
});

describe('loader.js entry (src/loader/index.ts)', () => {
  it('reads its own tag at run time and injects the widget once when the file is executed twice', async () => {
    (
      window as unknown as { happyDOM: { settings: { disableJavaScriptFileLoading: boolean } } }
    ).happyDOM.settings.disableJavaScriptFileLoading = true;
    const tag = document.createElement('script');
    tag.src = 'https://cdn.test/sdk/loader.js';
    tag.dataset.widgetId = 'demo';
    document.body.appendChild(tag);
    vi.useFakeTimers();
    try {
      vi.resetModules();
      await import('./index');
      vi.resetModules();
      await import('./index');
      expect(vi.getTimerCount()).toBe(2); // both executions are waiting (no requestIdleCallback here)
      expect(document.querySelectorAll(MARKED)).toHaveLength(0);
      vi.advanceTimersByTime(1);
      const injected = document.querySelectorAll<HTMLScriptElement>(MARKED);
      expect(injected).toHaveLength(1);
      expect(injected[0].src).toBe('https://cdn.test/sdk/widget.js?widgetId=demo');
      expect((window as PageWindow).Service).toBeUndefined();
    } finally {
      for (const node of [tag, ...document.querySelectorAll(MARKED)]) node.remove();
    }
  });
});
