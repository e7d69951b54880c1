// A product page tells the assistant which product the shopper is looking at (`Service.setPageContext`, issue 20):
// "does it come in blue?" is then about this product. The product is the catalog's (the server wrote it into the
// page as JSON in `data-product`: its SKU, the feed's URL, name, price, description). Sent as soon as the widget is there: at once when
// `window.Service` exists, else when it dispatches `service:ready`.
(() => {
  const product = JSON.parse(document.querySelector('[data-product]').dataset.product);
  const context = { page: { url: location.href, title: document.title, type: 'product' }, product };
  const send = () => {
    if (typeof window.Service?.setPageContext === 'function') window.Service.setPageContext(context);
  };
  if (window.Service) send();
  else addEventListener('service:ready', send, { once: true });
})();
