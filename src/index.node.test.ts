// @vitest-environment node
import { describe, expect, it } from 'vitest';

describe('the npm entry on a server (no window, no document)', () => {
  it('imports without throwing', async () => {
    expect(typeof window).toBe('undefined');
    const entry = await import('./index');
    expect(typeof entry.load).toBe('function');
    expect(entry.EVENT_READY).toBe('service:ready');
  });

  it('load() rejects with a clear [service] message instead of throwing', async () => {
    const { load } = await import('./index');
    const pending = load({ widgetId: 'demo' });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toThrow(/^\[service\] load\(\) needs a browser/);
  });

  it('the widget code itself imports without a DOM as well', async () => {
    const { mount } = await import('./widget/mount');
    const result = await mount({ widgetId: 'demo' }, { baseUrl: 'https://example.com' });
    expect(result.ok).toBe(false);
  });
});
