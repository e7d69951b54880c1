import Link from 'next/link';
import type { ReactNode } from 'react';
import { ServiceWidget } from 'service-widget/react';
import { HelpButton } from './help-button';

// Inlined at build time; the default is the service `npm start` runs in the service-widget checkout.
const SERVICE_URL = process.env.NEXT_PUBLIC_SERVICE_URL ?? 'http://127.0.0.1:8787';

// The shop's pages share this layout, so the widget loads once and stays while the shopper moves between them.
// `/checkout` is outside it: going there unmounts <ServiceWidget>, which destroys the widget.
export default function ShopLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header>
        <nav>
          <Link href="/">Home</Link> · <Link href="/products/NL-MERINO-BLK">Merino tee</Link> ·{' '}
          <Link href="/checkout">Checkout</Link>
        </nav>
        <HelpButton />
      </header>
      <main>{children}</main>
      <ServiceWidget widgetId="demo" baseUrl={SERVICE_URL} />
    </>
  );
}
