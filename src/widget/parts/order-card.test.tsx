import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findOrder, orderCard } from '../../../demo/integrator/orders';
import fixture from '../../cards/fixtures/order.json';
import { ORDER_CARD_TEXT_FIELDS, type OrderCard as Order, type OrderStepStatus } from '../../protocol';
import { ALL_STRINGS, pickStrings } from '../locales/all';
import { OrderCard } from './order-card';
import { expectInert, HOSTILE_STRINGS } from './test-support';

afterEach(cleanup);
// happy-dom would follow a clicked link (a real fetch); the page's navigation is not what these tests check.
const stopNavigation = (event: Event) => event.preventDefault();
beforeAll(() => document.addEventListener('click', stopNavigation));
afterAll(() => document.removeEventListener('click', stopNavigation));

const FULL = fixture as Order;
const MINIMAL: Order = {
  order_id_value: 'A-1',
  timeline: { step: [{ label: 'Ordered', status: 'completed' }] },
};

function renderOrder(card: Order, locale = 'en') {
  const onLinkClick = vi.fn();
  const { container } = render(
    <OrderCard card={card} strings={pickStrings(locale)} linkTarget="_blank" onLinkClick={onLinkClick} />,
  );
  return { root: container.querySelector<HTMLElement>('[part="order-card"]')!, onLinkClick };
}

/** The card's direct children, as a reader sees them: class and text. */
const rows = (root: Element) => [...root.children].map((el) => [el.className, el.textContent]);
const steps = (root: HTMLElement) =>
  within(root)
    .getAllByRole('listitem')
    .filter((li) => li.className === 'oc-step');

describe('<OrderCard>', () => {
  it('renders every field of a full card, in SPEC order', () => {
    const { root } = renderOrder(FULL);
    expect(root.tagName).toBe('ARTICLE');
    expect(root.getAttribute('aria-label')).toBe('Order number FR-2024-10937');
    expect(rows(root)).toEqual([
      ['oc-row oc-id', 'Order number FR-2024-10937'],
      [
        'oc-steps',
        'Order placed, completedPayment confirmed, completedShipped, in progressDelivered, pending',
      ],
      [
        'oc-items',
        'Merino wool sweater, navy, MQuantity: 189,00 €' +
          'Cotton socks (3 pairs) & laundry bagQuantity: 224,00 €' +
          'Gift wrapping <recycled paper>Quantity: 14,50 €',
      ],
      ['oc-row', 'Total 141,50 €'],
      ['oc-row', ' Camille Dupont'],
      ['oc-row', 'Shipping Colissimo, 2–3 business days'],
      ['oc-row oc-h', 'Payment'],
      ['oc-row', 'Method Visa •••• 4242'],
      ['oc-row', 'Status Paid'],
      ['oc-track', 'Track my parcel'],
    ]);
  });

  it('leaves only the id and the timeline when only the required fields are given', () => {
    const { root } = renderOrder(MINIMAL);
    expect(rows(root)).toEqual([
      ['oc-row oc-id', 'Order A-1'],
      ['oc-steps', 'Ordered, completed'],
    ]);
    expect(root.querySelectorAll('img, a, .oc-items')).toHaveLength(0);
  });

  it('treats blank and null optional fields as missing, and a label without its value as nothing', () => {
    const card = { ...MINIMAL, items: { item: [] } } as unknown as Record<string, unknown>;
    for (const field of ORDER_CARD_TEXT_FIELDS) card[field] = field.endsWith('_label') ? 'Label' : '  ';
    card.customer_name = null;
    card.order_id_label = ' ';
    card.order_tracking_url = '';
    const { root } = renderOrder(card as unknown as Order);
    expect(rows(root)).toEqual([
      ['oc-row oc-id', 'Order A-1'],
      ['oc-steps', 'Ordered, completed'],
    ]);
  });

  it('shows an item without its image, quantity or price without empty elements', () => {
    const { root } = renderOrder({
      ...MINIMAL,
      items: { item: [{ name: 'Gift card', quantity: '', price: '' }] },
    });
    const item = root.querySelector('.oc-item')!;
    expect([...item.children].map((el) => el.className)).toEqual(['oc-name']);
  });

  it('shows item images lazily, as decoration beside the name, and only http(s) ones', () => {
    const { root } = renderOrder(FULL);
    const imgs = [...root.querySelectorAll('img')];
    expect(imgs.map((img) => img.getAttribute('src'))).toEqual([
      'https://cdn.shop.example/img/sweater-navy.jpg',
      'https://cdn.shop.example/img/gift-wrap.png?v=3&size=200',
    ]);
    for (const img of imgs) {
      expect(img.getAttribute('alt')).toBe('');
      expect(img.getAttribute('loading')).toBe('lazy');
    }
    cleanup();
    const hostile = renderOrder({
      ...MINIMAL,
      items: { item: [{ name: 'x', quantity: '1', price: '1 €', image: 'javascript:alert(1)' }] },
    });
    expect(hostile.root.querySelector('img')).toBeNull();
  });

  describe('timeline', () => {
    const ALL: OrderStepStatus[] = ['completed', 'in_progress', 'pending', 'failed'];

    it('gives each status its own shape hook and its own text', () => {
      const { root } = renderOrder({
        order_id_value: '1',
        timeline: { step: ALL.map((status) => ({ label: `Step ${status}`, status })) },
      });
      const items = steps(root);
      expect(items.map((li) => li.dataset.status)).toEqual(ALL);
      expect(items.map((li) => li.querySelector('.sr-only')?.textContent)).toEqual([
        ', completed',
        ', in progress',
        ', pending',
        ', failed',
      ]);
      for (const li of items) expect(li.querySelector('.oc-dot')?.getAttribute('aria-hidden')).toBe('true');
      expect(within(root).getByRole('list', { name: 'Order status' })).toBeTruthy();
    });

    it('says the status in German too', () => {
      const { root } = renderOrder(
        {
          order_id_value: '1',
          timeline: { step: ALL.map((status) => ({ label: 'S', status })) },
        },
        'de',
      );
      expect(steps(root).map((li) => li.querySelector('.sr-only')?.textContent)).toEqual([
        ', erledigt',
        ', in Bearbeitung',
        ', ausstehend',
        ', fehlgeschlagen',
      ]);
    });

    // A language's card words come with its locale (locales/<tag>.ts): one that lacks them would read English here.
    it.each(Object.keys(ALL_STRINGS).filter((lang) => lang !== 'en'))(
      "says the status and the card's labels in every language of the widget: %s",
      (lang) => {
        const { root } = renderOrder(
          {
            order_id_value: '1',
            timeline: { step: ALL.map((status) => ({ label: 'S', status })) },
            order_tracking_url: 'https://t.example/1',
          },
          lang,
        );
        const said = steps(root).map((li) => li.querySelector('.sr-only')?.textContent);
        for (const text of said) expect(text).not.toMatch(/completed|progress|pending|failed/);
        expect(new Set(said).size).toBe(ALL.length);
        expect(root.getAttribute('aria-label')).not.toBe('Order 1');
        expect(within(root).getByRole('link').textContent).not.toBe('Track your order');
      },
    );

    it.each([
      [['completed', 'in_progress', 'pending'], 1],
      [['completed', 'failed', 'pending'], 1],
      [['completed', 'completed', 'pending'], 1],
      [['completed', 'completed', 'completed', 'completed', 'completed'], 4],
      [['pending', 'pending'], -1],
    ] as [OrderStepStatus[], number][])('marks the current step of %j', (statuses, current) => {
      const { root } = renderOrder({
        order_id_value: '1',
        timeline: { step: statuses.map((status, i) => ({ label: `S${i}`, status })) },
      });
      expect(steps(root).map((li) => li.getAttribute('aria-current'))).toEqual(
        statuses.map((_, i) => (i === current ? 'step' : null)),
      );
    });
  });

  describe('tracking link', () => {
    it('links to the tracking URL, reports the click and honours the target', () => {
      const { root, onLinkClick } = renderOrder(FULL);
      const link = within(root).getByRole('link', { name: 'Track my parcel' });
      expect(link.getAttribute('href')).toBe(FULL.order_tracking_url);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      fireEvent.click(link);
      expect(onLinkClick).toHaveBeenCalledExactlyOnceWith(FULL.order_tracking_url);
    });

    it('falls back to a default label', () => {
      renderOrder({ ...MINIMAL, order_tracking_url: 'https://t.example/1' }, 'de');
      expect(screen.getByRole('link', { name: 'Sendung verfolgen' })).toBeTruthy();
    });

    it.each([
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:a@b.example',
      '/track/1',
    ])('drops the whole link for %j', (url) => {
      const { root } = renderOrder({ ...FULL, order_tracking_url: url });
      expect(root.querySelector('a, .oc-track')).toBeNull();
      expect(root.textContent).not.toContain('Track my parcel');
    });
  });

  it.each(HOSTILE_STRINGS)('shows %j in every string field as text', (hostile) => {
    const card: Order = {
      order_id_value: hostile,
      timeline: { step: [{ label: hostile, status: 'in_progress' }] },
      items: { item: [{ name: hostile, quantity: hostile, price: hostile }] },
      order_tracking_url: 'https://t.example/1',
    };
    for (const field of ORDER_CARD_TEXT_FIELDS) card[field] = hostile;
    const { root } = renderOrder(card);
    expectInert(root);
    expect(root.getAttribute('aria-label')).toBe(`${hostile} ${hostile}`);
    // 17 occurrences (so 18 pieces): id label and value, step, item name, quantity, price, and 11 more fields.
    expect(root.textContent?.split(hostile)).toHaveLength(1 + 2 + 1 + 3 + 11);
  });

  it("shows the demo integrator's hostile order 6666 as text", () => {
    const card = orderCard(findOrder('6666')!, 'http://127.0.0.1:4100');
    const { root } = renderOrder(card);
    expectInert(root);
    for (const text of [
      '<img src=x onerror=alert(1)>',
      '<script>alert(1)</script>',
      "\"><svg onload=alert(1)> & 'quotes'",
      'Standard <b>delivery</b> & co',
    ]) {
      expect(root.textContent).toContain(text);
    }
    expect(root.querySelectorAll('b, script, svg')).toHaveLength(0);
  });

  it('leaves no empty step list behind for a card without a timeline or with no steps (never throws)', () => {
    for (const card of [{ order_id_value: 'X' } as Order, { order_id_value: 'X', timeline: { step: [] } }]) {
      const { root } = renderOrder(card);
      expect(rows(root)).toEqual([['oc-row oc-id', 'Order X']]);
      cleanup();
    }
  });
});
