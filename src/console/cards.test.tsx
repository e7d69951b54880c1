import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderCard as OrderCardData, ProductCard as ProductCardData } from '../protocol/cards';
import type { InboxMessage } from '../protocol/inbox';
import { OrderCard } from './order-card';
import { ProductCard } from './product-card';
import { Transcript } from './transcript';

afterEach(cleanup);

const XSS = '<img src=x onerror=alert(1)>';

const ORDER: OrderCardData = {
  order_id_label: 'Order number',
  order_id_value: '6666',
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Paid', status: 'failed' },
    ],
  },
  items: {
    item: [
      {
        name: '<script>alert(1)</script>',
        quantity: '2',
        price: '€10.00',
        image: 'https://img.example/a.png',
      },
      { name: 'No picture', quantity: '1', price: '€5.00', image: 'javascript:alert(1)' },
    ],
  },
  total_label: 'Total',
  total_amount: '€25.00',
  customer_name: XSS,
  shipping_label: 'Shipping',
  shipping_method: 'Standard <b>delivery</b>',
  payment_label: 'Payment',
  payment_method_label: 'Method',
  payment_method_value: 'Card',
  payment_status_label: 'Status',
  payment_status_value: 'Paid',
  order_tracking_label: 'Track your parcel',
  order_tracking_url: 'https://tracking.example/p/6666',
};

describe('<OrderCard>', () => {
  it('shows every field as text, with step statuses and a safe tracking link', () => {
    const { container } = render(<OrderCard card={ORDER} />);
    expect(screen.getByText(XSS)).toBeTruthy();
    expect(screen.getByText('<script>alert(1)</script>')).toBeTruthy();
    expect(screen.getByText('Standard <b>delivery</b>')).toBeTruthy();
    expect(container.querySelector('script, b, img[onerror]')).toBeNull();
    expect([...container.querySelectorAll('.step')].map((s) => s.textContent)).toEqual([
      'Ordered Completed',
      'Paid Failed',
    ]);
    const link = screen.getByRole('link', { name: 'Track your parcel' });
    expect(link.getAttribute('href')).toBe('https://tracking.example/p/6666');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // Only the http(s) picture is shown.
    expect([...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://img.example/a.png',
    ]);
  });

  it.each(['javascript:alert(1)', 'data:text/html,<b>x</b>', '//evil.example/x', ' https://a.example'])(
    'shows no tracking link for %s',
    (url) => {
      const { container } = render(<OrderCard card={{ ...ORDER, order_tracking_url: url }} />);
      expect(container.querySelector('a')).toBeNull();
    },
  );
});

describe('<ProductCard>', () => {
  const card: ProductCardData = {
    url: 'https://shop.example/p/1',
    name: XSS,
    price: '€19.90',
    description: 'Line one\nLine <i>two</i>',
    image: 'https://shop.example/p/1.jpg',
  };

  it('links the name and shows the picture for http(s) URLs, all text as text', () => {
    const { container } = render(<ProductCard card={card} />);
    const link = screen.getByRole('link', { name: XSS });
    expect(link.getAttribute('href')).toBe('https://shop.example/p/1');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://shop.example/p/1.jpg');
    expect(container.querySelector('.description')?.textContent).toBe('Line one\nLine <i>two</i>');
    expect(container.querySelector('i, img[onerror]')).toBeNull();
  });

  it('drops a javascript: link and a data: picture but keeps the text', () => {
    const { container } = render(
      <ProductCard
        card={{ ...card, url: 'JaVaScRiPt:alert(1)', image: 'data:image/svg+xml,<svg onload=alert(1)>' }}
      />,
    );
    expect(container.querySelector('a, img')).toBeNull();
    expect(screen.getByText(XSS)).toBeTruthy();
  });
});

describe('<Transcript>', () => {
  const message = (over: Partial<InboxMessage>): InboxMessage => ({
    id: Math.random().toString(36),
    role: 'assistant',
    parts: [],
    createdAt: '2026-06-01T10:00:00.000Z',
    status: 'done',
    ...over,
  });

  it('marks a failed and a streaming reply, and keeps user text as text', () => {
    const { container } = render(
      <Transcript
        items={[
          message({ role: 'user', parts: [{ type: 'text', text: '<b>hi</b>\nthere' }] }),
          message({ status: 'failed', parts: [{ type: 'text', text: 'Half an ans' }] }),
          message({ status: 'streaming', parts: [] }),
        ].map((m) => ({ kind: 'message', message: m }))}
      />,
    );
    // The shopper's words as written (the widget shows them so too): markup and links stay text.
    expect(container.querySelector('.message.user .text')?.textContent).toBe('<b>hi</b>\nthere');
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText('Reply failed')).toBeTruthy();
    expect(screen.getByText('Being written')).toBeTruthy();
    expect([...container.querySelectorAll('.message')].map((m) => m.getAttribute('data-status'))).toEqual([
      'done',
      'failed',
      'streaming',
    ]);
  });
});
