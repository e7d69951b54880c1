/**
 * `service-widget/vue`: the widget as a Vue plugin and a composable (issue 36, DESIGN "Native in a storefront's
 * framework"). On the server the plugin does nothing; on the client the widget loads once the app has mounted, and
 * `app.unmount()` destroys it.
 */
import { type App, type InjectionKey, inject, type ShallowRef, shallowRef } from 'vue';
import type { ServiceApi, ServiceSettings } from '../index';
import { acquireWidget } from './widget-lease';

const SERVICE_KEY: InjectionKey<ShallowRef<ServiceApi | null>> = Symbol('service-widget');

/**
 * Loads the widget with `load()`'s settings after `app.mount()`, and destroys it on `app.unmount()`.
 *
 * @example
 * ```ts
 * import { createApp } from 'vue';
 * import { ServicePlugin } from 'service-widget/vue';
 * import App from './App.vue';
 *
 * createApp(App).use(ServicePlugin, { widgetId: 'demo', baseUrl: 'https://assistant.example.com' }).mount('#app');
 * ```
 */
export const ServicePlugin = {
  install(app: App, settings: ServiceSettings): void {
    const service = shallowRef<ServiceApi | null>(null);
    app.provide(SERVICE_KEY, service);
    // Server-side rendering (Nuxt, `createSSRApp` in Node): nothing to load and nothing to clean up.
    if (typeof window === 'undefined' || typeof document === 'undefined') return;
    // Vue has no app-level hook for "mounted", so `mount` is wrapped; `onUnmount` is Vue 3.5's (hence the peer range).
    const mount = app.mount;
    let release: (() => void) | undefined;
    app.mount = (...args: Parameters<App['mount']>) => {
      const root = mount(...args);
      if (!release) {
        const lease = acquireWidget(settings);
        release = () => {
          lease.release();
          service.value = null;
        };
        void lease.ready.then((api) => {
          if (api) service.value = api;
        });
      }
      return root;
    };
    app.onUnmount(() => {
      release?.();
      release = undefined;
    });
  },
};

/**
 * The widget's API once it has loaded, else `null` (always `null` on the server), as a shallow ref. Call it in a
 * component's `setup` of an app that uses `ServicePlugin`.
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * import { useService } from 'service-widget/vue';
 * const service = useService();
 * </script>
 * <template>
 *   <button type="button" :disabled="!service" @click="service?.openChat({ message: 'I need help' })">Help</button>
 * </template>
 * ```
 */
export function useService(): Readonly<ShallowRef<ServiceApi | null>> {
  return inject(SERVICE_KEY, () => shallowRef(null), true);
}
