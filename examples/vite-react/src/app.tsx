import { useEffect } from 'react';
import { Link, Outlet, Route, Routes, useParams } from 'react-router';
import { ServiceWidget, useService } from 'service-widget/react';

// Inlined at build time; the default is the service `npm start` runs in the service-widget checkout.
const SERVICE_URL = import.meta.env.VITE_SERVICE_URL ?? 'http://127.0.0.1:8787';

// The shop's own product data; in a real store, its catalog. The ids are the demo catalog's, which the service knows.
const PRODUCTS: Record<string, { name: string; price: string }> = {
  'NL-MERINO-BLK': { name: 'Northline Merino Tee, black', price: '49.00 EUR' },
};

export function App() {
  return (
    <Routes>
      <Route element={<ShopLayout />}>
        <Route index element={<HomePage />} />
        <Route path="products/:id" element={<ProductPage />} />
      </Route>
      <Route path="checkout" element={<CheckoutPage />} />
    </Routes>
  );
}

// The shop's pages share this layout, so the widget loads once and stays while the shopper moves between them.
// `/checkout` is outside it: going there unmounts <ServiceWidget>, which destroys the widget.
function ShopLayout() {
  return (
    <>
      <header>
        <nav>
          <Link to="/">Home</Link> · <Link to="/products/NL-MERINO-BLK">Merino tee</Link> ·{' '}
          <Link to="/checkout">Checkout</Link>
        </nav>
        <HelpButton />
      </header>
      <main>
        <Outlet />
      </main>
      <ServiceWidget widgetId="demo" baseUrl={SERVICE_URL} />
    </>
  );
}

function HelpButton() {
  const service = useService(); // null until the widget has loaded
  return (
    <button type="button" disabled={!service} onClick={() => service?.openChat()}>
      Help
    </button>
  );
}

function HomePage() {
  return (
    <>
      <h1>Welcome to the shop</h1>
      <p>Questions? Press Help, or the chat button in the corner.</p>
    </>
  );
}

function ProductPage() {
  const { id = '' } = useParams();
  const product = PRODUCTS[id];
  const service = useService();
  // Tells the assistant which product the shopper is looking at, so "does it come in blue?" is about this one;
  // cleared when the shopper leaves the page.
  useEffect(() => {
    if (!service || !product) return;
    service.setPageContext({ page: { type: 'product', url: location.href }, product: { id, ...product } });
    return () => service.setPageContext(null);
  }, [service, id, product]);
  if (!product) return <h1>No such product</h1>;
  return (
    <>
      <h1>{product.name}</h1>
      <p>{product.price}</p>
      <p>Ask the assistant whether it comes in another colour.</p>
    </>
  );
}

function CheckoutPage() {
  return (
    <main>
      <h1>Checkout</h1>
      <p>
        No assistant here. <Link to="/">Back to the shop</Link>
      </p>
    </main>
  );
}
