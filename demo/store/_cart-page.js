// /cart.html: the visitor's cart, read from GET /cart and read again whenever it changes (an "Add to cart" in the
// chat on this page), built as DOM nodes (product names are data, never markup); "Empty the cart" sends DELETE /cart.
(() => {
  const list = document.querySelector('[data-cart-items]');
  const empty = document.querySelector('[data-cart-empty]');
  const total = document.querySelector('[data-cart-total]');
  const clear = document.querySelector('[data-cart-clear]');
  const show = (cart) => {
    list.replaceChildren(
      ...cart.items.map((item) => {
        const li = document.createElement('li');
        const link = document.createElement('a');
        link.href = item.url;
        link.textContent = item.name;
        const line = document.createElement('span');
        line.className = 'cart-line';
        line.textContent = `${item.quantity} × ${item.price}`;
        li.append(link, ' ', line);
        return li;
      }),
    );
    empty.hidden = cart.items.length > 0;
    total.hidden = clear.hidden = cart.items.length === 0;
    total.querySelector('strong').textContent = cart.total;
    for (const el of document.querySelectorAll('[data-cart-count]')) el.textContent = String(cart.count);
  };
  const load = () =>
    fetch('/cart', { headers: { accept: 'application/json' } })
      .then((res) => res.json())
      .then(show);
  addEventListener('store:cart-changed', load);
  clear.addEventListener('click', () => fetch('/cart', { method: 'DELETE' }).then(load));
  load();
})();
