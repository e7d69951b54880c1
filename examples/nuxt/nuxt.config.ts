// https://nuxt.com/docs/api/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  telemetry: false,
  runtimeConfig: {
    // NUXT_PUBLIC_SERVICE_URL replaces it when the server starts; the default is the service `npm start` runs in the
    // service-widget checkout.
    public: { serviceUrl: 'http://127.0.0.1:8787' },
  },
});
