// @vitest-environment node
// Server-side rendering (Next.js, Nuxt, Remix): the framework entries render where there is no window or document,
// and nothing is loaded or logged there.
import { renderToString as renderVue } from '@vue/server-renderer';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSSRApp, defineComponent, h } from 'vue';
import { ServiceWidget, useService, useServiceEvent } from './react';
import { ServicePlugin, useService as useVueService } from './vue';

function Help() {
  const service = useService();
  useServiceEvent('service:chat-open', () => {});
  return createElement('button', { type: 'button', disabled: !service }, service ? 'ready' : 'loading');
}

afterEach(() => {
  expect(typeof window).toBe('undefined');
});

describe('service-widget/react on the server', () => {
  it('renders <ServiceWidget /> as nothing, useService() as null, and useServiceEvent() listens to nothing', () => {
    const error = vi.spyOn(console, 'error');
    const html = renderToString(
      createElement(
        'main',
        null,
        createElement(ServiceWidget, { widgetId: 'demo', baseUrl: 'https://assistant.example.com' }),
        createElement(Help),
      ),
    );
    expect(html).toBe('<main><button type="button" disabled="">loading</button></main>');
    expect(error).not.toHaveBeenCalled();
  });
});

describe('service-widget/vue on the server', () => {
  it('installs ServicePlugin as nothing, and useService() is a ref of null', async () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    const VueHelp = defineComponent({
      setup() {
        // biome-ignore lint/correctness/useHookAtTopLevel: a Vue composable in setup(), not a React hook
        const service = useVueService();
        return () =>
          h('button', { type: 'button', disabled: !service.value }, service.value ? 'ready' : 'loading');
      },
    });
    const app = createSSRApp(VueHelp).use(ServicePlugin, { widgetId: 'demo' });
    expect(await renderVue(app)).toBe('<button type="button" disabled>loading</button>');
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
