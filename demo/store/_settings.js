// The settings a merchant puts before the loader tag. The demo reads a few query parameters so every page can
// be driven by tests and by hand:
//   ?hidden=true|false|absent  the `hidden` setting (default: absent)
//   ?service=URL               `baseUrl`, e.g. a closed port to see the widget offline
//   ?bad=1                     invalid settings: each bad field logs a [service] error, the widget loads anyway
//   ?widget=none               no widget at all (_loader.js leaves the loader out; ?loaders=N is there too)
//   ?widget=demo-xml           the widget whose order endpoint answers XML (the service parses it into the card)
//   ?widget=demo-limited       the widget with tiny limits: the third message in a minute gets 429 ("Send again")
//   ?widget=demo-after-hours   the widget whose team is away: "Talk to a person" offers to leave an email address
//   ?customer=ada              signed in as customer "ada": the store's back end put an identity token here
//   ?theme=light|dark|auto     the `theme` setting (auto follows the device's colour scheme)
//   ?locale=TAG                the `locale` setting, e.g. ar or he (right to left) or de
(() => {
  const query = new URLSearchParams(location.search);
  const settings = {
    userData: { customerId: 'c-1042', firstName: 'Ada', loyaltyTier: 'gold', cartItems: 2, newsletter: true },
    customInstructions:
      'The shopper is on the Ridgeline Outfitters demo store (outdoor and running gear). Prefer items that are in stock.',
  };
  const hidden = query.get('hidden');
  if (hidden === 'true') settings.hidden = true;
  if (hidden === 'false') settings.hidden = false;
  const widget = query.get('widget');
  if (widget) settings.widgetId = widget;
  const service = query.get('service');
  if (service) settings.baseUrl = service;
  const theme = query.get('theme');
  if (theme) settings.theme = theme;
  const locale = query.get('locale');
  if (locale) settings.locale = locale;
  if (query.get('bad') === '1') {
    settings.userData = { nested: { a: 1 } };
    settings.customInstructions = '';
    settings.hidden = 'yes';
  }
  // Filled in by the store's server for a signed-in customer (docs/security.md "Identity"); empty otherwise.
  const identityToken = '%IDENTITY_TOKEN%';
  if (identityToken) settings.identityToken = identityToken;
  // The store's cart (demo/store-cart.ts). The widget config's `cart: true` puts "Add to cart" on the assistant's
  // product cards; the widget calls onAddToCart and shows progress, then done or failed, from the promise it returns.
  // A product out of stock answers 409: the promise rejects and the button says it failed.
  const addToCart = (product) =>
    fetch('/cart/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: product.id, url: product.url }),
    }).then(async (res) => {
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.error?.message ?? `The cart answered ${res.status}.`);
      dispatchEvent(new CustomEvent('store:cart-changed', { detail: body }));
      return body;
    });
  settings.onAddToCart = ({ product }) => addToCart(product);
  window.storeAddToCart = addToCart;
  window.serviceSettings = settings;
})();
