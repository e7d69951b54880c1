/** @jsxImportSource react */
// The README's "React (service-widget/react)" example as a storefront's TypeScript writes it: compiled by
// e2e/package-install.e2e.ts against the packed package installed with react and @types/react (strict, bundler
// resolution, the package's declarations checked). The `@ts-expect-error` lines prove the types are real, not `any`.
import { EVENT_ADD_TO_CART, EVENT_HANDOFF } from 'service-widget';
import { ServiceWidget, useService, useServiceEvent } from 'service-widget/react';
import { addToCart } from './cart';

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <>
      {children}
      <ServiceWidget widgetId="demo" baseUrl="https://YOUR-SERVICE" />
    </>
  );
}

export function HelpButton() {
  const service = useService(); // null until the widget has loaded
  useServiceEvent(EVENT_ADD_TO_CART, (event) => addToCart(event.detail.product.id));
  return (
    <button
      type="button"
      disabled={!service}
      onClick={() => service?.openChat({ message: 'Where is my order?' })}
    >
      Help
    </button>
  );
}

export function Typed() {
  // @ts-expect-error a handoff's detail has no product
  useServiceEvent(EVENT_HANDOFF, (event) => event.detail.product);
  // @ts-expect-error only service:* events
  useServiceEvent('click', () => {});
  // @ts-expect-error `storage` is one of local, session or none
  return <ServiceWidget widgetId="demo" storage="disk" />;
}
