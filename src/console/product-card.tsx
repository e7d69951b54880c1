import { isHttpUrl } from '../cards/safe-url';
import type { ProductCard as ProductCardData } from '../protocol/cards';

/** A product card as the shopper saw it: picture and link only for http(s) URLs, every string as text. */
export function ProductCard({ card }: { card: ProductCardData }) {
  const hasLink = isHttpUrl(card.url);
  return (
    <article class="card product-card">
      {isHttpUrl(card.image) && <img class="product-image" src={card.image} alt="" loading="lazy" />}
      <div class="card-body">
        <h4 class="card-title">
          {hasLink ? (
            <a href={card.url} target="_blank" rel="noopener noreferrer">
              {card.name}
            </a>
          ) : (
            card.name
          )}
        </h4>
        {card.price && <p class="price">{card.price}</p>}
        {card.description && <p class="text description">{card.description}</p>}
      </div>
    </article>
  );
}

/** Up to ten product cards in one reply (`{ type: 'products' }`). */
export function ProductList({ cards }: { cards: readonly ProductCardData[] }) {
  return (
    <ul class="product-list" aria-label={`${cards.length} products`}>
      {cards.map((card, i) => (
        <li key={i}>
          <ProductCard card={card} />
        </li>
      ))}
    </ul>
  );
}
