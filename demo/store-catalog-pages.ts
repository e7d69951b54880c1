// The demo store's catalog on its pages (issue 20): a product page per catalog product (`/product.html?id={sku}`,
// rendered from demo/store/product.html) and the list of all products that the store's front page links to. The
// products are the demo integrator's (demo/integrator/catalog.ts), the same ones its feed gives the service, so the
// page context a product page sends names a product the service's catalog has.

import {
  CATALOG,
  CATEGORY_LABELS,
  type CatalogProduct,
  type Category,
  findBySku,
  formatCents,
  productUrl,
  toCents,
} from './integrator/catalog';
import { productPagePath } from './store-cart';

/** The store's sized-gradient "photo" of each category (demo/store/store.css `.product-image.*`). */
const IMAGE_CLASS: Record<Category, string> = {
  'running-shoes': 'shoe',
  'hiking-boots': 'boot',
  't-shirts': 'tee',
  'rain-jackets': 'jacket',
  socks: 'socks',
  backpacks: 'backpack',
  'water-bottles': 'bottle',
};

const CATEGORY_TITLES: Record<Category, string> = {
  'running-shoes': 'Running shoes',
  'hiking-boots': 'Hiking boots',
  't-shirts': 'T-shirts',
  'rain-jackets': 'Rain jackets',
  socks: 'Socks',
  backpacks: 'Backpacks',
  'water-bottles': 'Water bottles',
};

const AVAILABILITY_TEXT = {
  InStock: 'In stock',
  OutOfStock: 'Out of stock',
  PreOrder: 'Available for pre-order',
} as const;

/** Text for HTML content and attribute values. */
export const html = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const priceOf = (p: CatalogProduct): string => {
  const price = formatCents(toCents(p.price));
  return p.offerRange ? `from ${price}` : price;
};

/**
 * What `Service.setPageContext` gets on a product page: the product as the store's catalog names it (its SKU is the
 * catalog's id, its URL the feed's), so both engines find it.
 */
export const pageContextProduct = (p: CatalogProduct) => ({
  id: p.sku,
  url: productUrl(p),
  name: p.name,
  price: priceOf(p),
  description: p.description,
});

/**
 * The placeholders of demo/store/product.html for one product (`%PRODUCT_NAME%`, …), HTML-escaped; null for an
 * unknown SKU.
 * @example
 * productPageValues('STR-TEMPO-3')?.PRODUCT_NAME; // 'Strider Tempo 3'
 */
export function productPageValues(sku: string): Record<string, string> | null {
  const p = findBySku(sku);
  if (!p) return null;
  const attributes = (
    [
      ['Colour', p.color],
      ['Size', p.size],
      ['Material', p.material],
    ] as const
  )
    .filter(([, value]) => value)
    .map(([name, value]) => `<div><dt>${name}</dt><dd>${html(value ?? '')}</dd></div>`)
    .join('');
  const variants = p.group ? CATALOG.filter((v) => v.group?.id === p.group?.id) : [];
  // A variant is named by what tells the group's products apart: "Size 42" for the Lumo Runner, "Navy, L" for a tee.
  const differs = (key: 'color' | 'size') => new Set(variants.map((v) => v[key])).size > 1;
  const labelOf = (v: CatalogProduct) =>
    [
      differs('color') ? v.color : undefined,
      differs('size') ? (differs('color') ? v.size : `Size ${v.size}`) : undefined,
    ]
      .filter(Boolean)
      .join(', ') || v.name;
  const variantLinks =
    variants.length > 1
      ? `<nav class="variants" aria-label="Variants"><p>${html(p.group?.name ?? '')} comes in:</p><ul>${variants
          .map((v) => {
            const label = html(labelOf(v));
            return v.sku === p.sku
              ? `<li><a aria-current="page" href="${html(productPagePath(v))}">${label}</a></li>`
              : `<li><a href="${html(productPagePath(v))}">${label}</a></li>`;
          })
          .join('')}</ul></nav>`
      : '';
  return {
    PRODUCT_ID: html(p.sku),
    PRODUCT_NAME: html(p.name),
    PRODUCT_BRAND: html(p.brand),
    PRODUCT_CATEGORY: html(CATEGORY_TITLES[p.category]),
    PRODUCT_IMAGE: IMAGE_CLASS[p.category],
    PRODUCT_IMAGE_LABEL: html(
      `${p.color ?? ''} ${CATEGORY_LABELS[p.category].split(' ').slice(0, 2).join(' ')}`.trim(),
    ),
    PRODUCT_PRICE: html(priceOf(p)),
    PRODUCT_AVAILABILITY: html(AVAILABILITY_TEXT[p.availability]),
    PRODUCT_DESCRIPTION: html(p.description),
    PRODUCT_ATTRIBUTES: attributes,
    PRODUCT_VARIANTS: variantLinks,
    // An attribute value: the JSON, HTML-escaped; the browser hands the script the JSON again.
    PRODUCT_JSON: html(JSON.stringify(pageContextProduct(p))),
  };
}

/** Every catalog product, by category, as links to its page: the front page's "All products". */
export function catalogLinks(): string {
  const sections = Object.keys(CATEGORY_TITLES).map((category) => {
    const items = CATALOG.filter((p) => p.category === category)
      .map(
        (p) =>
          `<li><a href="${html(productPagePath(p))}">${html(p.name)}</a> <span class="price">${html(priceOf(p))}</span></li>`,
      )
      .join('');
    return `<section><h4>${CATEGORY_TITLES[category as Category]}</h4><ul>${items}</ul></section>`;
  });
  return sections.join('');
}
