// The store's cart on every page (demo/store-cart.ts): the header's count follows the cart (the server renders it;
// `store:cart-changed`, from _settings.js's addToCart, updates it), and the page's own "Add to cart" buttons add
// through the same function the widget's buttons call, saying in the header's status line what happened.
(() => {
  const status = document.querySelector('[data-cart-status]');
  addEventListener('store:cart-changed', (event) => {
    for (const el of document.querySelectorAll('[data-cart-count]'))
      el.textContent = String(event.detail.count);
  });
  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-add-to-cart]') : null;
    if (!button || button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    if (status) status.textContent = 'Adding to your cart…';
    try {
      await window.storeAddToCart({ id: button.dataset.id });
      if (status) status.textContent = 'Added to your cart.';
    } catch (error) {
      if (status) status.textContent = `Not added: ${error.message}`;
    } finally {
      button.removeAttribute('aria-disabled');
    }
  });
})();
