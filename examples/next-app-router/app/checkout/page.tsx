import Link from 'next/link';

// Outside the (shop) layout: no widget on this page.
export default function CheckoutPage() {
  return (
    <main>
      <h1>Checkout</h1>
      <p>
        No assistant here. <Link href="/">Back to the shop</Link>
      </p>
    </main>
  );
}
