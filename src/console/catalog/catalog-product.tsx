import { useId } from 'preact/hooks';
import { isHttpUrl } from '../../cards/safe-url';
import type { CatalogLookupProduct, CatalogMatch } from '../../protocol/catalog-admin';
import { formatDateTime } from '../format';

const MATCH_TEXT: Record<Exclude<CatalogMatch['by'], 'search'>, string> = {
  identifier: 'its catalog identifier',
  url: 'its url',
  sku: 'its sku',
  mpn: 'its mpn',
  gtin: 'its gtin',
};

/** How the lookup found it: "its sku", or the search's scores as the merchant can weigh them. */
export function matchText(match: CatalogMatch): string {
  if (match.by !== 'search') return MATCH_TEXT[match.by];
  const why = match.exactCode
    ? 'its code is in the words'
    : match.allTerms
      ? 'every word'
      : 'some of the words';
  return `search: ${why}, rank ${match.rank.toFixed(3)}`;
}

/** Cut at a word near `max` characters, for the card; the whole text stays one click away. */
const DESCRIPTION_SHOWN = 280;

/**
 * A looked-up product as the catalog holds it: the card the assistant would show (or why it shows none), whether
 * shoppers see it, where it came from, what the push API changed, and every field. Every string is text.
 */
export function CatalogProductView({ product }: { product: CatalogLookupProduct }) {
  const p = product.productData;
  const link = isHttpUrl(p.url) ? p.url : null;
  const image = isHttpUrl(p.imageUrl) ? p.imageUrl : null;
  const headingId = useId();
  const facts: Array<[string, string | null | undefined]> = [
    ['Identifier', product.identifier],
    ['Found by', matchText(product.match)],
    ['Source', product.source === 'push' ? 'Added by the push API' : (product.feedUrl ?? 'A feed')],
    ['Changed by push', product.pushedFields.length > 0 ? product.pushedFields.join(', ') : null],
    ['Updated', formatDateTime(product.updatedAt)],
    ['SKU', p.sku],
    ['MPN', p.mpn],
    ['GTIN', p.gtin],
    ['Brand', p.brand],
    ['Category', p.category],
    ['Product group', p.productGroupID],
    ['Rating', p.rating === undefined ? null : String(p.rating)],
    ['Product url', link ? null : p.url],
  ];
  const attributes = Object.entries(p.attributes ?? {});
  const description = p.description?.trim() ?? '';
  return (
    <article
      class="catalog-product"
      aria-labelledby={headingId}
      data-identifier={product.identifier}
      data-visible={String(product.visible)}
    >
      {image && <img class="catalog-product-image" src={image} alt="" loading="lazy" />}
      <div class="catalog-product-body">
        <h4 id={headingId} class="catalog-product-name">
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer">
              {p.displayText}
            </a>
          ) : (
            p.displayText
          )}
        </h4>
        <p class="catalog-product-price">
          {product.card?.price ??
            (p.price ? `${p.price}${p.priceCurrency ? ` ${p.priceCurrency}` : ''}` : 'No price')}
          {p.oldPrice && <s class="old-price"> {p.oldPrice}</s>}
        </p>
        <p class="catalog-product-badges">
          {p.availability && <span class="chip">{p.availability}</span>}
          {!product.visible && <span class="chip chip-warn">Hidden from shoppers</span>}
          {product.card === null && (
            <span class="chip chip-warn">No card: needs a price and an http(s) url</span>
          )}
        </p>
        {description &&
          (description.length > DESCRIPTION_SHOWN ? (
            <details class="description">
              <summary class="text">{`${description.slice(0, DESCRIPTION_SHOWN).trimEnd()}…`}</summary>
              <p class="text">{description}</p>
            </details>
          ) : (
            <p class="text description">{description}</p>
          ))}
        <dl class="catalog-facts">
          {facts
            .filter((f): f is [string, string] => typeof f[1] === 'string' && f[1] !== '')
            .map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd class="text">{value}</dd>
              </div>
            ))}
        </dl>
        {attributes.length > 0 && (
          <table class="attributes">
            <caption>Attributes</caption>
            <tbody>
              {attributes.map(([name, value]) => (
                <tr key={name}>
                  <th scope="row" class="text">
                    {name}
                  </th>
                  <td class="text">{String(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </article>
  );
}
