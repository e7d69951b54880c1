import { describe, expect, it } from 'vitest';
import { previewSettings } from './preview-frame';

// The preview page's settings come from its fragment: only this origin's preview routes may be the widget's baseUrl.

const ORIGIN = 'https://service.example';

describe('previewSettings', () => {
  it('mounts inline, keeps nothing in the browser, on the preview base URL', () => {
    const hash = `#${new URLSearchParams({ widgetId: 'demo', baseUrl: `${ORIGIN}/preview/pv_abc` })}`;
    expect(previewSettings(hash, ORIGIN)).toEqual({
      widgetId: 'demo',
      baseUrl: `${ORIGIN}/preview/pv_abc`,
      container: '#preview-chat',
      storage: 'none',
      hidden: false,
    });
  });

  it.each([
    ['another origin', { widgetId: 'demo', baseUrl: 'https://evil.example/preview/pv_abc' }],
    ['not a preview route', { widgetId: 'demo', baseUrl: `${ORIGIN}/v0/admin` }],
    ['no widget id', { baseUrl: `${ORIGIN}/preview/pv_abc` }],
    ['not a URL', { widgetId: 'demo', baseUrl: 'javascript:alert(1)' }],
  ])('refuses %s', (_, params) => {
    expect(previewSettings(`#${new URLSearchParams(params)}`, ORIGIN)).toBeNull();
  });
});
