import { useState } from 'preact/hooks';
import { safeHref } from '../../cards/safe-link';
import type { CartProduct, ProductCard as Product } from '../../protocol';
import type { Strings } from '../i18n';
import { Link, type LinkOptions } from './link';
import type { CardActions, PartProps } from './part-props';
import { type CartState, PRODUCT_CARDS_ENGLISH, type ProductCardStrings } from './product-card-strings';
import css from './product-cards.css?inline';

/** The stylesheet of product cards, adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

export interface ProductCardProps extends LinkOptions {
  card: Product;
  strings: Strings;
  cardActions?: CardActions;
  /** In a list where another card has a picture: without one of its own, a tile takes the picture's place. */
  isFramed?: boolean;
}

/** What the page gets of a card: `service:add-to-cart` and `service:product-click`'s `detail.product`. */
const toCartProduct = (card: Product): CartProduct => ({
  ...(has(card.id) ? { id: card.id } : {}),
  ...(card.url ? { url: card.url } : {}),
  name: card.name,
  price: has(card.price) ? card.price : '',
});

/** The words in the shopper's language: its locale's table, English for a locale without one. */
const wordsOf = (strings: Strings): ProductCardStrings => strings.productCards ?? PRODUCT_CARDS_ENGLISH;

/**
 * "Add to cart": calls the page (`onAddToCart`), and when that returns a promise shows progress, then done or failed,
 * each said by a polite live region. Pressed again while pending, it does nothing (no double add); after a failure it
 * tries again; once done it stays done (a second press would add a second one, which a chat card should not do by a
 * double tap).
 */
function AddToCart({
  card,
  strings,
  onAdd,
}: {
  card: Product;
  strings: Strings;
  onAdd: (product: CartProduct) => unknown;
}) {
  const [state, setState] = useState<CartState>('idle');
  const words = wordsOf(strings);
  const add = (): void => {
    if (state === 'pending' || state === 'done') return;
    setState('pending');
    let result: unknown;
    try {
      result = onAdd(toCartProduct(card));
    } catch {
      setState('failed');
      return;
    }
    const then = (result as PromiseLike<unknown> | undefined)?.then;
    if (typeof then !== 'function') {
      setState('done');
      return;
    }
    then.call(
      result,
      () => setState('done'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button
        type="button"
        class="pc-add"
        data-state={state}
        aria-disabled={state === 'pending' || state === 'done'}
        onClick={add}
      >
        {words.cart[state]}
      </button>
      <span class="sr-only" role="status">
        {words.said[state].replace('{name}', card.name)}
      </span>
    </>
  );
}

/** A text field worth showing. The widget may be pointed at any service: a field of another type is left out. */
const has = (value: unknown): value is string => typeof value === 'string' && !!value.trim();

/** A product card worth showing: an object with a name (the service leaves out every other field it cannot show). */
const isShown = (card: Product | null | undefined): card is Product => has(card?.name);

/**
 * One product, the whole card one link (`part="product-card"`), or its content alone when it has no http(s) link.
 * The image box has a fixed aspect ratio, so a picture that loads late shifts nothing; without a description or
 * price, those elements are not rendered at all. Without a picture (none, or one that fails to load) the card shows
 * none, unless it sits in a list beside pictured cards or its picture failed: then a quiet tile holds the picture's
 * place, so the cards' rows stay in line and nothing shifts, instead of an empty frame where the list's row height
 * stretched a shorter card.
 */
export function ProductCard({
  card,
  strings,
  cardActions,
  linkTarget,
  onLinkClick,
  isFramed,
}: ProductCardProps) {
  const [isBroken, setBroken] = useState(false);
  const image = isBroken ? undefined : safeHref(card.image, true);
  const onAdd = cardActions?.onAddToCart;
  const onClick = (url: string): void => {
    onLinkClick(url);
    cardActions?.onProductClick(toCartProduct(card));
  };
  const link = (
    <Link
      linkTarget={linkTarget}
      onLinkClick={onClick}
      href={card.url}
      httpOnly
      class={onAdd ? 'pc-link' : 'pc'}
      part={onAdd ? undefined : 'product-card'}
    >
      {image ? (
        <img
          class="pc-img"
          src={image}
          alt={card.name}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
        />
      ) : (
        (isFramed || isBroken) && (
          <span class="pc-img pc-none">
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M5 8h14l-1 12H6zm4 0V6a3 3 0 0 1 6 0v2" />
            </svg>
          </span>
        )
      )}
      <span class="pc-name">{card.name}</span>
      {has(card.description) && <span class="pc-desc">{card.description}</span>}
      {has(card.price) && <span class="pc-price">{card.price}</span>}
    </Link>
  );
  // With a cart, the card is a box holding the link and the button (a button cannot sit inside a link).
  return onAdd ? (
    <div class="pc" part="product-card">
      {link}
      <AddToCart card={card} strings={strings} onAdd={onAdd} />
    </div>
  ) : (
    link
  );
}

export interface ProductListProps extends LinkOptions {
  cards: Product[];
  strings: Strings;
  cardActions?: CardActions;
}

/**
 * Several products: a horizontal, snapping scroll list. Each card is a link, so Tab walks them (the browser scrolls
 * the focused one into view), swipes scroll, and screen readers hear "Products, list, 3 items". The items are
 * `display: flex`, so no marker shows while `list-style` stays untouched (WebKit drops the list role of a list
 * styled `list-style: none`).
 */
export function ProductList({ cards, strings, cardActions, linkTarget, onLinkClick }: ProductListProps) {
  const isFramed = cards.some((card) => safeHref(card.image, true));
  return (
    <ul class="pcs" aria-label={wordsOf(strings).list}>
      {cards.map((card) => (
        <li>
          <ProductCard
            card={card}
            strings={strings}
            cardActions={cardActions}
            linkTarget={linkTarget}
            onLinkClick={onLinkClick}
            isFramed={isFramed}
          />
        </li>
      ))}
    </ul>
  );
}

/** The `product-card` part (part-view.tsx); nothing for a card without a name. */
export const ProductCardPart = ({
  part,
  strings,
  cardActions,
  linkTarget,
  onLinkClick,
}: PartProps<'product-card'>) =>
  isShown(part.card) ? (
    <ProductCard
      card={part.card}
      strings={strings}
      cardActions={cardActions}
      linkTarget={linkTarget}
      onLinkClick={onLinkClick}
    />
  ) : null;

/** The `products` part (part-view.tsx): its cards with a name; nothing when none has one. */
export const ProductsPart = ({
  part,
  strings,
  cardActions,
  linkTarget,
  onLinkClick,
}: PartProps<'products'>) => {
  const cards = Array.isArray(part.cards) ? part.cards.filter(isShown) : [];
  return cards.length > 0 ? (
    <ProductList
      cards={cards}
      strings={strings}
      cardActions={cardActions}
      linkTarget={linkTarget}
      onLinkClick={onLinkClick}
    />
  ) : null;
};
