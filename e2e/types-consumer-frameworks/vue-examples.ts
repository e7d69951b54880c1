// The README's "Vue (service-widget/vue)" example as a storefront's TypeScript writes it: compiled by
// e2e/package-install.e2e.ts against the packed package installed with vue (see react-examples.tsx).

import { ServicePlugin, useService } from 'service-widget/vue';
import { createApp, defineComponent, h } from 'vue';

const HelpButton = defineComponent(() => {
  const service = useService(); // a shallow ref: null until the widget has loaded
  return () => h('button', { disabled: !service.value, onClick: () => service.value?.openChat() }, 'Help');
});

const app = createApp(HelpButton).use(ServicePlugin, { widgetId: 'demo', baseUrl: 'https://YOUR-SERVICE' });
app.mount('#app'); // the widget loads once the app has mounted
app.unmount(); // and is destroyed with it

// @ts-expect-error the plugin's options are load()'s settings
createApp(HelpButton).use(ServicePlugin, { widgetId: 42 });
