// The README's browser examples as a storefront's TypeScript writes them, with no `global.d.ts` of its own: compiled
// by e2e/package-install.e2e.ts against the packed package installed into an empty project (strict, bundler
// resolution, the package's declarations checked). Every line that needs the package's global augmentation or one of
// its exports says so; the `@ts-expect-error` lines prove the types are real, not `any`.
import {
  EVENT_ADD_TO_CART,
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_FEEDBACK,
  EVENT_HANDOFF,
  EVENT_LINK_CLICK,
  EVENT_MESSAGE_SENT,
  EVENT_PRODUCT_CLICK,
  EVENT_READY,
  type FeedbackDetail,
  type HandoffDetail,
  load,
  type ServiceApi,
  type ServiceSettings,
} from 'service-widget';

// "Add to a store": the settings the loader reads (window.serviceSettings, typed by the augmentation).
window.serviceSettings = {
  userData: { name: 'Ada', tier: 'gold' },
  customInstructions: 'Answer in a friendly tone.',
};
// @ts-expect-error `storage` is one of local, session or none
window.serviceSettings = { storage: 'disk' };

// "npm and single-page storefronts".
const service = await load({ widgetId: 'demo', baseUrl: 'https://YOUR-SERVICE' });
service.openChat();
service.destroy();
service.destroy(); // a second destroy() is harmless (React's Strict Mode runs an effect twice)

// "API (window.Service)": undefined until the widget has loaded.
window.addEventListener('service:ready', (event) => {
  const help = document.querySelector<HTMLButtonElement>('#help');
  if (help) help.onclick = () => window.Service?.openChat({ message: 'Where is my order?' });
  const widgetId: string = event.detail.widgetId;
  void widgetId;
});
const api: ServiceApi | undefined = window.Service;
void api;

// load()'s JSDoc example.
const buyButton = document.createElement('button');
window.addEventListener(EVENT_CHAT_OPEN, (event) => console.log('chat opened', event.detail.widgetId));
buyButton.addEventListener('click', () => service.openChat({ message: 'Is this in stock?', autoSend: true }));

// "Events": each with its detail, by constant and by name.
window.addEventListener(EVENT_READY, (event) => event.detail.widgetId);
window.addEventListener(EVENT_CHAT_CLOSE, (event) => event.detail.widgetId);
window.addEventListener(EVENT_MESSAGE_SENT, (event) => event.detail.text.length);
window.addEventListener(EVENT_LINK_CLICK, (event) => new URL(event.detail.url));
window.addEventListener(EVENT_PRODUCT_CLICK, (event) => event.detail.product.url);
window.addEventListener(EVENT_ADD_TO_CART, (event) => {
  const { id, name, price } = event.detail.product;
  return `${id ?? ''} ${name} ${price}`;
});
window.addEventListener(EVENT_HANDOFF, (event) => {
  const detail: HandoffDetail = event.detail;
  if (detail.mode === 'agent') console.log('an agent joined:', detail.agent?.name);
});
window.addEventListener('service:feedback', (event) => {
  const detail: FeedbackDetail = event.detail;
  console.log(detail.messageId, detail.rating === 'up');
});
// @ts-expect-error a handoff's detail has no rating
window.addEventListener(EVENT_HANDOFF, (event) => event.detail.rating);
// @ts-expect-error a feedback's rating is up or down
window.addEventListener(EVENT_FEEDBACK, (event) => event.detail.rating === 'sideways');

// "Settings": the callbacks get the matching event's detail.
const settings: ServiceSettings = {
  widgetId: 'demo',
  onHandoff: (detail) => console.log(detail.mode),
  onFeedback: (detail) => console.log(detail.rating),
  onAddToCart: async ({ product }) => {
    await fetch('/cart', { method: 'POST', body: JSON.stringify({ id: product.id }) });
  },
};
void load(settings);
