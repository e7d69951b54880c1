import { ServicePlugin } from 'service-widget/vue';

// `.client`: the widget loads in the browser only, once Nuxt has mounted the app, and stays for the app's life, so
// it survives every route change. The server renders the pages without it.
export default defineNuxtPlugin((nuxtApp) => {
  const { serviceUrl } = useRuntimeConfig().public;
  nuxtApp.vueApp.use(ServicePlugin, { widgetId: 'demo', baseUrl: serviceUrl });
});
