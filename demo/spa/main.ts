// A merchant's single-page storefront that uses the npm entry instead of the loader tag.
//
// Routes (history.pushState, no framework):
//   /spa/          the shop          widget loaded
//   /spa/about     about the store   widget kept: the same instance across route changes
//   /spa/checkout  checkout          widget destroyed on the way in (no chat next to the payment form) and
//                                    loaded again on the way out: the destroy()/load() cycle of an SPA
//
// The buttons call load() and destroy() by hand. `window.demoSpa` exposes the same for the e2e specs.
import { load } from 'service-widget';
import './spa.css';

type ServiceApi = Awaited<ReturnType<typeof load>>;

declare global {
  interface Window {
    __DEMO_SERVICE_URL__?: string;
    demoSpa?: {
      load(): Promise<ServiceApi>;
      destroy(): void;
      navigate(path: string): Promise<void>;
      readonly api: ServiceApi | undefined;
    };
  }
}

const serviceUrl = window.__DEMO_SERVICE_URL__ ?? '';
const settings = {
  widgetId: 'demo',
  // The page is served by the store; the widget's files and API come from the service.
  baseUrl: serviceUrl.startsWith('%') ? location.origin : serviceUrl,
  userData: { customerId: 'c-1042', firstName: 'Ada', channel: 'spa' },
  customInstructions: 'The shopper is on the single-page version of the Ridgeline Outfitters demo store.',
};

let api: ServiceApi | undefined;
const status = document.getElementById('widget-status') as HTMLElement;

async function loadWidget(): Promise<ServiceApi> {
  api = await load(settings);
  status.textContent = `Widget: loaded (v${api.version})`;
  return api;
}

function destroyWidget(): void {
  api?.destroy();
  api = undefined;
  status.textContent = 'Widget: destroyed';
}

interface Route {
  title: string;
  render(): string;
  /** false: no widget on this route. */
  widget: boolean;
}

const products = [
  ['Strider Tempo 3', 'Light road running shoe with a responsive foam.', '€119.00'],
  ['Stormcell Packable Rain Jacket', 'Packs into its own pocket.', '€79.00'],
  ['Aquila Steel Bottle 750 ml', 'Double-walled, keeps drinks cold for a day.', '€24.95'],
];

const routes: Record<string, Route> = {
  '/spa/': {
    title: 'Shop',
    widget: true,
    render: () =>
      `<h2>Shop</h2><ul class="products" aria-label="Products">${products
        .map(
          ([name, text, price]) =>
            `<li class="product"><h3>${name}</h3><p>${text}</p><p class="price">${price}</p></li>`,
        )
        .join('')}</ul>`,
  },
  '/spa/about': {
    title: 'About',
    widget: true,
    render: () => '<h2>About</h2><p>Small-batch homeware since 2019. The assistant stays with you here.</p>',
  },
  '/spa/checkout': {
    title: 'Checkout',
    widget: false,
    render: () =>
      '<h2>Checkout</h2><p>No chat on the payment step: this route calls <code>destroy()</code>, leaving it calls <code>load()</code>.</p>',
  },
};

const app = document.getElementById('app') as HTMLElement;

async function render(path: string): Promise<void> {
  const route = routes[path] ?? routes['/spa/'];
  app.innerHTML = route.render();
  document.title = `Ridgeline Outfitters · ${route.title}`;
  if (route.widget && !api) await loadWidget();
  if (!route.widget && api) destroyWidget();
}

async function navigate(path: string): Promise<void> {
  if (path !== location.pathname) history.pushState(null, '', path);
  await render(path);
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a[data-route]');
  if (!(link instanceof HTMLAnchorElement)) return;
  event.preventDefault();
  void navigate(link.pathname);
});
window.addEventListener('popstate', () => void render(location.pathname));
document.getElementById('load-widget')?.addEventListener('click', () => void loadWidget());
document.getElementById('destroy-widget')?.addEventListener('click', destroyWidget);
document.getElementById('open-chat')?.addEventListener('click', () => api?.openChat());

window.demoSpa = {
  load: loadWidget,
  destroy: destroyWidget,
  navigate,
  get api() {
    return api;
  },
};

void render(location.pathname);
