'use client';

import { useEffect } from 'react';
import type { PageContext } from 'service-widget';
import { useService } from 'service-widget/react';

type Product = NonNullable<PageContext['product']>;

// Tells the assistant which product the shopper is looking at, so "does it come in blue?" is about this one; cleared
// when the shopper leaves the page.
export function ProductContext({ product }: { product: Product }) {
  const service = useService();
  useEffect(() => {
    if (!service) return;
    service.setPageContext({ page: { type: 'product', url: location.href }, product });
    return () => service.setPageContext(null);
  }, [service, product]);
  return null;
}
