import type { ProductCard as Product } from '../../protocol';
import type { Strings } from '../i18n';
import { Link, type LinkOptions } from './link';
import type { PartProps } from './part-view';
import css from './product-cards.css?inline';
import { safeHref } from './safe-link';

/** The stylesheet of product cards, adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

export interface ProductCardProps extends LinkOptions {
  card: Product;
}

/** A text field worth showing. The widget may be pointed at any service: a field of another type is left out. */
const has = (value: unknown): value is string => typeof value === 'string' && !!value.trim();

/** A product card worth showing: an object with a name (the service leaves out every other field it cannot show). */
const isShown = (card: Product | null | undefined): card is Product => has(card?.name);

/**
 * One product, the whole card one link (`part="product-card"`), or its content alone when it has no http(s) link.
 * The image box has a fixed aspect ratio, so a picture that loads late shifts nothing; without an image, description
 * or price, those elements are not rendered at all.
 */
export function ProductCard({ card, ...link }: ProductCardProps) {
  const image = safeHref(card.image, true);
  return (
    <Link {...link} href={card.url} httpOnly class="pc" part="product-card">
      {image && <img class="pc-img" src={image} alt={card.name} loading="lazy" decoding="async" />}
      <span class="pc-name">{card.name}</span>
      {has(card.description) && <span class="pc-desc">{card.description}</span>}
      {has(card.price) && <span class="pc-price">{card.price}</span>}
    </Link>
  );
}

export interface ProductListProps extends LinkOptions {
  cards: Product[];
  strings: Strings;
}

/**
 * The product list's name by the widget's language (`Strings['lang']`; English for one not here): in this chunk, not
 * in i18n.ts, whose strings load before the chat opens. A language added to i18n.ts is added here too.
 */
const LIST_NAME: Record<string, string> = { en: 'Products', de: 'Produkte' };

/**
 * Several products: a horizontal, snapping scroll list. Each card is a link, so Tab walks them (the browser scrolls
 * the focused one into view), swipes scroll, and screen readers hear "Products, list, 3 items". The items are
 * `display: flex`, so no marker shows while `list-style` stays untouched (WebKit drops the list role of a list
 * styled `list-style: none`).
 */
export function ProductList({ cards, strings, ...link }: ProductListProps) {
  return (
    <ul class="pcs" aria-label={LIST_NAME[strings.lang] ?? LIST_NAME.en}>
      {cards.map((card) => (
        <li>
          <ProductCard card={card} {...link} />
        </li>
      ))}
    </ul>
  );
}

/** The `product-card` part (part-view.tsx); nothing for a card without a name. */
export const ProductCardPart = ({ part, strings, ...link }: PartProps<'product-card'>) =>
  isShown(part.card) ? <ProductCard card={part.card} {...link} /> : null;

/** The `products` part (part-view.tsx): its cards with a name; nothing when none has one. */
export const ProductsPart = ({ part, ...rest }: PartProps<'products'>) => {
  const cards = Array.isArray(part.cards) ? part.cards.filter(isShown) : [];
  return cards.length > 0 ? <ProductList cards={cards} {...rest} /> : null;
};
