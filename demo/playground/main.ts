// The playground page (`index.html`, `npm run dev`): mounts the widget from source with the settings in the form and
// re-mounts it through the public API when they change. The settings live in the query string, so a reload (Vite's,
// after an edit) keeps them.
import {
  EVENT_ADD_TO_CART,
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_LINK_CLICK,
  EVENT_MESSAGE_SENT,
  EVENT_PRODUCT_CLICK,
  EVENT_READY,
  load,
  type ServiceApi,
  type ServiceSettings,
} from '../../src/index';
import './playground.css';

const form = document.getElementById('settings') as HTMLFormElement;
const status = document.getElementById('status') as HTMLElement;
const log = document.getElementById('log') as HTMLOListElement;
const meta = (name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.replace(/^%.*%$/, '') ?? '';
const serviceUrl = meta('playground-service-url');
const adaToken = meta('playground-identity-token');

const FIELDS = [
  'widgetId',
  'baseUrl',
  'locale',
  'hidden',
  'userData',
  'customInstructions',
  'identityToken',
  'theme',
  'storage',
  'analytics',
  'inline',
  'failCart',
];
const CHECKBOXES = new Set(['inline', 'failCart']);
const calls = document.getElementById('calls') as HTMLFormElement;
const cartCount = document.getElementById('cart-count') as HTMLOutputElement;
const inlineBox = document.getElementById('inline-chat') as HTMLElement;
const DEFAULTS: Record<string, string> = {
  widgetId: 'demo',
  baseUrl: serviceUrl || location.origin,
  userData: '{ "firstName": "Ada", "channel": "playground" }',
};

const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
/** A field's value as the query string keeps it: a checkbox is "1" when checked. */
const fieldValue = (name: string) =>
  CHECKBOXES.has(name) ? (field(name).checked ? '1' : '') : field(name).value.trim();

function addLog(text: string): void {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  log.prepend(item);
  while (log.children.length > 30) log.lastElementChild?.remove();
}

/**
 * The form as settings: an empty field is an absent setting. Values go to the widget as typed (a bad one is the
 * widget's to report), except userData's JSON, which must parse.
 */
function readSettings(): ServiceSettings {
  const value = (name: string) => field(name).value.trim();
  const settings: Record<string, unknown> = {};
  for (const name of [
    'widgetId',
    'baseUrl',
    'locale',
    'customInstructions',
    'identityToken',
    'theme',
    'storage',
    'analytics',
  ]) {
    if (value(name)) settings[name] = value(name);
  }
  if (value('hidden')) settings.hidden = value('hidden') === 'true';
  if (value('userData')) settings.userData = JSON.parse(value('userData'));
  if (field('inline').checked) settings.container = inlineBox;
  // A cart of the page's own: the widget shows progress while this promise runs, then done or failed.
  const onAddToCart: ServiceSettings['onAddToCart'] = ({ product }) =>
    new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        if (field('failCart').checked) return reject(new Error('the playground was told to fail'));
        cartCount.value = String(Number(cartCount.value) + 1);
        addLog(`cart: added ${product.name}`);
        resolve();
      }, 600),
    );
  settings.onAddToCart = onAddToCart;
  return settings as ServiceSettings;
}

let api: ServiceApi | undefined;

async function mountWidget(): Promise<void> {
  let settings: ServiceSettings;
  try {
    settings = readSettings();
  } catch (error) {
    status.textContent = `Not applied: userData is not JSON (${(error as Error).message})`;
    return;
  }
  api?.destroy();
  api = undefined;
  status.textContent = 'Widget: loading…';
  try {
    api = await load(settings);
    status.textContent = `Widget: mounted (v${api.version}, widgetId ${api.widgetId}, locale ${settings.locale ?? 'the browser’s'})`;
  } catch (error) {
    status.textContent = `Widget: not mounted: ${(error as Error).message}`;
  }
}

// The widget reports bad settings with one `[service]` console error each; the page shows them too.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('[service]')) addLog(args.map(String).join(' '));
  consoleError(...args);
};
for (const type of [
  EVENT_READY,
  EVENT_CHAT_OPEN,
  EVENT_CHAT_CLOSE,
  EVENT_MESSAGE_SENT,
  EVENT_LINK_CLICK,
  EVENT_ADD_TO_CART,
  EVENT_PRODUCT_CLICK,
]) {
  window.addEventListener(type, (event) =>
    addLog(`${type} ${JSON.stringify((event as CustomEvent).detail)}`),
  );
}

// What a tag manager would read: every push to window.dataLayer shows in the log.
const page = window as unknown as { dataLayer?: unknown[] };
page.dataLayer ??= [];
const layer = page.dataLayer;
const push = layer.push.bind(layer);
layer.push = (...items: unknown[]) => {
  for (const item of items) addLog(`dataLayer.push ${JSON.stringify(item)}`);
  return push(...items);
};

const query = new URLSearchParams(location.search);
for (const name of FIELDS) {
  if (CHECKBOXES.has(name)) field(name).checked = query.get(name) === '1';
  else field(name).value = query.get(name) ?? DEFAULTS[name] ?? '';
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const next = new URLSearchParams();
  for (const name of FIELDS) if (fieldValue(name)) next.set(name, fieldValue(name));
  history.replaceState(null, '', `?${next}`);
  void mountWidget();
});
(document.getElementById('sign-in-ada') as HTMLButtonElement).addEventListener('click', () => {
  field('identityToken').value = adaToken;
});
(document.getElementById('open-chat') as HTMLButtonElement).addEventListener('click', () => api?.openChat());
(document.getElementById('reset') as HTMLButtonElement).addEventListener('click', () => api?.reset());

const onClick = (id: string, run: () => void) =>
  (document.getElementById(id) as HTMLButtonElement).addEventListener('click', run);
const callField = (name: string) => calls.elements.namedItem(name) as HTMLInputElement;
onClick('page-product', () =>
  api?.setPageContext({
    page: { url: `${location.origin}/product/trail-runner-3`, title: 'Trail Runner 3', type: 'product' },
    product: {
      id: 'trail-runner-3',
      url: `${location.origin}/product/trail-runner-3`,
      name: 'Trail Runner 3',
      price: '129,90 €',
      description: 'Light trail running shoe with a grippy sole. Colours: blue, black.',
    },
  }),
);
onClick('page-clear', () => api?.setPageContext(null));
onClick('show-message', () =>
  api?.showMessage(callField('proactive').value, { delayMs: Number(callField('delayMs').value) || 0 }),
);
onClick('consent-yes', () => api?.setConsent(true));
onClick('consent-no', () => api?.setConsent(false));
onClick('mount-inline', () => api?.mount(inlineBox));

void mountWidget();
