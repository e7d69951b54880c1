import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProductCard as Product } from '../../protocol';
import { ALL_STRINGS, pickStrings } from '../locales/all';
import { ProductCard, ProductList } from './product-cards';
import { expectInert, HOSTILE_STRINGS } from './test-support';

afterEach(cleanup);
// happy-dom would follow a clicked link (a real fetch); the page's navigation is not what these tests check.
const stopNavigation = (event: Event) => event.preventDefault();
beforeAll(() => document.addEventListener('click', stopNavigation));
afterAll(() => document.removeEventListener('click', stopNavigation));

const SHOE: Product = {
  url: 'https://shop.example/p/trail-runner',
  name: 'Trail Runner 3',
  price: '129,90 €',
  description: 'Light trail shoe with a grippy sole.',
  image: 'https://cdn.shop.example/img/trail.jpg',
};
const SOCKS: Product = { url: 'https://shop.example/p/socks', name: 'Merino socks', price: '19,90 €' };
const JACKET: Product = { url: 'https://shop.example/p/jacket', name: 'Rain jacket', price: '$89.00' };

function renderCard(card: Product, linkTarget: '_self' | '_blank' = '_blank') {
  const onLinkClick = vi.fn();
  const { container } = render(
    <ProductCard card={card} strings={pickStrings('en')} linkTarget={linkTarget} onLinkClick={onLinkClick} />,
  );
  return { card: container.querySelector('[part="product-card"]')!, onLinkClick };
}

describe('<ProductCard>', () => {
  it('is one link, to the product, with image, name, description and price as given', () => {
    const { card } = renderCard(SHOE);
    expect(card.tagName).toBe('A');
    expect(card.getAttribute('href')).toBe(SHOE.url);
    expect(card.getAttribute('target')).toBe('_blank');
    expect(card.getAttribute('rel')).toBe('noopener noreferrer');
    expect([...card.children].map((el) => el.className)).toEqual([
      'pc-img',
      'pc-name',
      'pc-desc',
      'pc-price',
    ]);
    expect(card.querySelector('.pc-price')?.textContent).toBe('129,90 €');
    expect(card.querySelector('.pc-desc')?.textContent).toBe(SHOE.description);
  });

  it('loads its image lazily, with the name as alt text, in a box that does not shift layout', () => {
    const img = renderCard(SHOE).card.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(SHOE.image);
    expect(img.getAttribute('alt')).toBe('Trail Runner 3');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('decoding')).toBe('async');
    expect(img.className).toBe('pc-img'); // parts.css: width 100% and a fixed aspect-ratio
  });

  it('leaves no element behind for a missing image or description', () => {
    const { card } = renderCard(SOCKS);
    expect([...card.children].map((el) => el.className)).toEqual(['pc-name', 'pc-price']);
    expect(card.textContent).toBe('Merino socks19,90 €');
  });

  it('a picture that fails to load gives way to a quiet tile in its place: no broken image, nothing shifts', () => {
    const { card } = renderCard(SHOE);
    fireEvent.error(card.querySelector('img')!);
    expect(card.querySelector('img')).toBeNull();
    const tile = card.firstElementChild!;
    expect(tile.className).toBe('pc-img pc-none'); // the picture's box: same width and aspect ratio
    expect(tile.textContent).toBe('');
    expect(card.textContent).toBe('Trail Runner 3Light trail shoe with a grippy sole.129,90 €');
  });

  it('treats a non-http image as missing, never putting it in src', () => {
    for (const image of ['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '/img.png']) {
      const { card } = renderCard({ ...SOCKS, image });
      expect(card.querySelector('img')).toBeNull();
      cleanup();
    }
  });

  it('reports a click with the URL and follows target _self', () => {
    const { card, onLinkClick } = renderCard(SHOE, '_self');
    expect(card.getAttribute('target')).toBe('_self');
    expect(card.hasAttribute('rel')).toBe(false);
    fireEvent.click(card);
    expect(onLinkClick).toHaveBeenCalledExactlyOnceWith(SHOE.url);
  });

  it.each(['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'mailto:a@b.example', 'data:text/html,x'])(
    'renders a card whose url is %j as text, not a link',
    (url) => {
      const { card, onLinkClick } = renderCard({ ...SHOE, url });
      expect(card.tagName).toBe('SPAN');
      expect(card.hasAttribute('href')).toBe(false);
      fireEvent.click(card);
      expect(onLinkClick).not.toHaveBeenCalled();
      expect(card.textContent).toContain('Trail Runner 3');
    },
  );

  it.each(HOSTILE_STRINGS)('shows %j in every text field as text', (hostile) => {
    const { card } = renderCard({ ...SHOE, name: hostile, description: hostile, price: hostile });
    expect(card.textContent).toBe(hostile.repeat(3));
    expect(card.querySelector('img')?.getAttribute('alt')).toBe(hostile);
    expectInert(card);
  });
});

describe('<ProductList>', () => {
  function renderList(cards: Product[], locale = 'en') {
    const onLinkClick = vi.fn();
    render(
      <ProductList
        cards={cards}
        strings={pickStrings(locale)}
        linkTarget="_self"
        onLinkClick={onLinkClick}
      />,
    );
    return { list: screen.getByRole('list'), onLinkClick };
  }

  it('is a labelled list with one item per product, each item one link', () => {
    const { list } = renderList([SHOE, SOCKS, JACKET]);
    expect(list.getAttribute('aria-label')).toBe('Products');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items.map((item) => within(item).getByRole('link').getAttribute('href'))).toEqual([
      SHOE.url,
      SOCKS.url,
      JACKET.url,
    ]);
  });

  it('labels the list in the UI language', () => {
    expect(renderList([SHOE, SOCKS], 'de').list.getAttribute('aria-label')).toBe('Produkte');
  });

  // A language's card words come with its locale (locales/<tag>.ts): one that lacks them would read English here.
  it.each(Object.keys(ALL_STRINGS).filter((lang) => lang !== 'en'))(
    "has the list's name and the cart button in every language of the widget: %s",
    (lang) => {
      expect(renderList([SHOE, SOCKS], lang).list.getAttribute('aria-label')).not.toBe('Products');
      cleanup();
      render(
        <ProductCard
          card={SHOE}
          strings={pickStrings(lang)}
          cardActions={{ onAddToCart: vi.fn(), onProductClick: vi.fn() }}
          linkTarget="_self"
          onLinkClick={vi.fn()}
        />,
      );
      expect(screen.getByRole('button').textContent).not.toBe('Add to cart');
    },
  );

  it('puts the cards in Tab order, in list order', () => {
    const { list } = renderList([SHOE, SOCKS, JACKET]);
    const links = within(list).getAllByRole('link');
    // Links are focusable by default; nothing removes them from the tab sequence or reorders it.
    for (const link of links) {
      expect(link.hasAttribute('tabindex')).toBe(false);
      link.focus();
      expect(document.activeElement).toBe(link);
    }
    expect(links.map((l) => l.textContent)).toEqual([
      'Trail Runner 3Light trail shoe with a grippy sole.129,90 €',
      'Merino socks19,90 €',
      'Rain jacket$89.00',
    ]);
  });

  it('reports a click on any card', () => {
    const { list, onLinkClick } = renderList([SHOE, SOCKS]);
    fireEvent.click(within(list).getAllByRole('link')[1]!);
    expect(onLinkClick).toHaveBeenCalledExactlyOnceWith(SOCKS.url);
  });

  // Issue 31: the list's row is as tall as its tallest card, so a card without a picture beside pictured ones was an
  // empty frame below its price.
  it('gives a card without a picture a tile in its place when another card has one, and none in a list without', () => {
    const classes = (list: HTMLElement) =>
      within(list)
        .getAllByRole('link')
        .map((link) => link.firstElementChild?.className);
    expect(classes(renderList([SHOE, SOCKS, { ...JACKET, image: 'javascript:alert(1)' }]).list)).toEqual([
      'pc-img',
      'pc-img pc-none',
      'pc-img pc-none',
    ]);
    cleanup();
    expect(classes(renderList([SOCKS, JACKET]).list)).toEqual(['pc-name', 'pc-name']);
  });

  it('renders an empty list as an empty list, without throwing', () => {
    expect(within(renderList([]).list).queryAllByRole('listitem')).toHaveLength(0);
  });
});

describe('<ProductCard> with a cart (widget config cart: true)', () => {
  const renderCartCard = (onAddToCart: (p: unknown) => unknown, card: Product = { ...SHOE, id: 'sku-1' }) => {
    const onProductClick = vi.fn();
    const onLinkClick = vi.fn();
    render(
      <ProductCard
        card={card}
        strings={pickStrings('en')}
        cardActions={{ onAddToCart, onProductClick }}
        linkTarget="_blank"
        onLinkClick={onLinkClick}
      />,
    );
    return { button: screen.getByRole('button'), onProductClick, onLinkClick };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('hands the page the product (id, url, name, price) and shows pending, then done, each said to screen readers', async () => {
    let resolve!: () => void;
    const onAdd = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    const { button } = renderCartCard(onAdd);
    expect(button.textContent).toBe('Add to cart');
    fireEvent.click(button);
    expect(onAdd).toHaveBeenCalledExactlyOnceWith({
      id: 'sku-1',
      url: SHOE.url,
      name: 'Trail Runner 3',
      price: '129,90 €',
    });
    expect(button.textContent).toBe('Adding…');
    expect(screen.getByRole('status').textContent).toBe('Adding Trail Runner 3 to the cart');
    fireEvent.click(button);
    expect(onAdd).toHaveBeenCalledTimes(1);
    resolve();
    await settle();
    expect(button.textContent).toBe('Added ✓');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Trail Runner 3 is in the cart');
  });

  it('a rejected promise shows failed, said so, and the button tries again', async () => {
    const onAdd = vi.fn().mockRejectedValueOnce(new Error('out of stock')).mockResolvedValueOnce(undefined);
    const { button } = renderCartCard(onAdd);
    fireEvent.click(button);
    await settle();
    expect(button.textContent).toBe('Not added. Try again');
    expect(screen.getByRole('status').textContent).toBe('Trail Runner 3 could not be added to the cart');
    fireEvent.click(button);
    await settle();
    expect(onAdd).toHaveBeenCalledTimes(2);
    expect(button.textContent).toBe('Added ✓');
  });

  it('a callback that throws shows failed and throws nothing; one that returns no promise shows done at once', async () => {
    const { button } = renderCartCard(() => {
      throw new Error('page bug');
    });
    expect(() => fireEvent.click(button)).not.toThrow();
    expect(button.textContent).toBe('Not added. Try again');
    cleanup();
    const plain = renderCartCard(() => undefined);
    fireEvent.click(plain.button);
    expect(plain.button.textContent).toBe('Added ✓');
  });

  it('keeps the button out of the link (a button inside a link is invalid), and a click on the link reports the product', () => {
    const { button, onProductClick, onLinkClick } = renderCartCard(() => undefined);
    expect(button.closest('a')).toBeNull();
    fireEvent.click(screen.getByRole('link'));
    expect(onLinkClick).toHaveBeenCalledWith(SHOE.url);
    expect(onProductClick).toHaveBeenCalledExactlyOnceWith({
      id: 'sku-1',
      url: SHOE.url,
      name: 'Trail Runner 3',
      price: '129,90 €',
    });
  });

  it('without a cart there is no button', () => {
    render(<ProductCard card={SHOE} strings={pickStrings('en')} linkTarget="_blank" onLinkClick={vi.fn()} />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
