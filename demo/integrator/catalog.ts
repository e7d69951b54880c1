import type { DemoLanguage } from './shopper-language';

// The demo merchant's catalog: one list that the product feed (/feed.json), the product lookup action and the
// orders all read, so a product the assistant finds, a product in the feed and a line of an order are the same thing.

export type Category =
  | 'running-shoes'
  | 'hiking-boots'
  | 't-shirts'
  | 'rain-jackets'
  | 'socks'
  | 'backpacks'
  | 'water-bottles';

/** The schema.org availability names used by the demo (`https://schema.org/{name}`). */
export type Availability = 'InStock' | 'OutOfStock' | 'PreOrder';

export interface CatalogProduct {
  /** Path segment of the product page, `{STORE_ORIGIN}/p/{slug}`; unique, so the URL is too. */
  slug: string;
  sku: string;
  name: string;
  brand: string;
  category: Category;
  description: string;
  /** EUR, a decimal string as schema.org writes it ("89.95"). For an offer range: the lowest price. */
  price: string;
  availability: Availability;
  /** False for the few products without a picture (the feed's `image` is optional). */
  hasImage: boolean;
  gtin13?: string;
  color?: string;
  size?: string;
  material?: string;
  /**
   * A variant group: every variant is its own product with its own URL (SPEC "Catalog feed product"). `via` says how
   * the feed writes it, since SPEC allows both spellings.
   */
  group?: { id: string; name: string; via: 'productGroupID' | 'isVariantOf' };
  /** Sold by several offers at different prices: the feed writes an `AggregateOffer`. */
  offerRange?: { high: string; offerCount: number };
}

/** Where the demo store's product pages would live. Not served: the demo store only has its few pages. */
export const STORE_ORIGIN = 'https://demo-store.example';
export const CURRENCY = 'EUR';

/** Human words for each category, used by the product lookup. */
export const CATEGORY_LABELS: Record<Category, string> = {
  'running-shoes': 'running shoes',
  'hiking-boots': 'hiking boots',
  't-shirts': 't-shirts tee shirts',
  'rain-jackets': 'rain jackets waterproof',
  socks: 'socks',
  backpacks: 'backpacks rucksacks bags',
  'water-bottles': 'water bottles',
};

/** The placeholder picture of each category, served by the integrator at `/images/{name}.svg`. */
export const CATEGORY_IMAGES: Record<Category, string> = {
  'running-shoes': 'running-shoe',
  'hiking-boots': 'hiking-boot',
  't-shirts': 't-shirt',
  'rain-jackets': 'rain-jacket',
  socks: 'socks',
  backpacks: 'backpack',
  'water-bottles': 'water-bottle',
};

const lumo = (size: string, via: 'productGroupID' | 'isVariantOf', stock: Availability): CatalogProduct => ({
  slug: `lumo-runner-${size}`,
  sku: `STR-LUMO-${size}`,
  name: `Strider Lumo Runner, size ${size}`,
  brand: 'Strider',
  category: 'running-shoes',
  description:
    'Light neutral road running shoe with a soft foam midsole and a reflective heel for runs after dark.',
  price: '89.95',
  availability: stock,
  hasImage: true,
  color: 'Neon yellow',
  size,
  material: 'Engineered mesh',
  group: { id: 'STR-LUMO', name: 'Strider Lumo Runner', via },
});

export const CATALOG: readonly CatalogProduct[] = [
  // Running shoes: a variant group in five sizes, then single products below and above 100 EUR. (The merino tees below
  // are a group of two colours: "does it come in blue?" on the black one's page finds the navy one.)
  lumo('40', 'productGroupID', 'InStock'),
  lumo('41', 'productGroupID', 'InStock'),
  lumo('42', 'productGroupID', 'InStock'),
  lumo('43', 'isVariantOf', 'InStock'),
  lumo('44', 'isVariantOf', 'OutOfStock'),
  {
    slug: 'strider-tempo-3',
    sku: 'STR-TEMPO-3',
    name: 'Strider Tempo 3',
    brand: 'Strider',
    category: 'running-shoes',
    description: 'Responsive daily trainer for tempo runs and intervals, with a carbon-infused plate.',
    price: '119.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000015',
    color: 'Red',
    material: 'Knit upper',
  },
  {
    slug: 'strider-daily-trainer',
    sku: 'STR-DAILY',
    name: 'Strider Daily Trainer',
    brand: 'Strider',
    category: 'running-shoes',
    description: 'Cushioned, durable and forgiving: the running shoe for easy miles and beginners.',
    price: '69.95',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000022',
    color: 'Blue',
    material: 'Mesh',
  },
  {
    slug: 'strider-race-flat-2',
    sku: 'STR-RACE-2',
    name: 'Strider Race Flat 2',
    brand: 'Strider',
    category: 'running-shoes',
    description: 'Minimal racing flat for 5 k to half marathon, 180 g in size 42.',
    price: '129.00',
    availability: 'OutOfStock',
    hasImage: true,
    color: 'White',
    material: 'Mesh',
  },
  {
    slug: 'pacefield-cloudline',
    sku: 'PF-CLOUD',
    name: 'Pacefield Cloudline',
    brand: 'Pacefield',
    category: 'running-shoes',
    description: 'Max-cushion running shoe for long runs, with a rocker sole that rolls you forward.',
    price: '149.95',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000039',
    color: 'Black',
    material: 'Knit upper',
  },
  {
    slug: 'pacefield-trail-pro-gtx',
    sku: 'PF-TRAIL-GTX',
    name: 'Pacefield Trail Pro GTX',
    brand: 'Pacefield',
    category: 'running-shoes',
    description: 'Waterproof trail running shoe with 5 mm lugs for mud, rock and wet roots.',
    price: '169.00',
    availability: 'PreOrder',
    hasImage: true,
    color: 'Green',
    material: 'Gore-Tex membrane',
  },
  {
    slug: 'pacefield-easy-jog',
    sku: 'PF-EASY',
    name: 'Pacefield Easy Jog',
    brand: 'Pacefield',
    category: 'running-shoes',
    description: 'Entry-level running shoe with a wide toe box, for jogging and the gym.',
    price: '59.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Grey',
    material: 'Mesh',
  },
  {
    slug: 'pacefield-marathon-elite',
    sku: 'PF-ELITE',
    name: 'Pacefield Marathon Elite',
    brand: 'Pacefield',
    category: 'running-shoes',
    description: 'Carbon-plated marathon racing shoe with a PEBA foam midsole.',
    price: '229.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000046',
    color: 'Orange',
    material: 'Monomesh',
  },
  // Hiking boots.
  {
    slug: 'ridgeway-summit-mid-gtx',
    sku: 'RW-SUMMIT-MID',
    name: 'Ridgeway Summit Mid GTX',
    brand: 'Ridgeway',
    category: 'hiking-boots',
    description: 'Waterproof mid-cut hiking boot with a Vibram sole, for day hikes and hut tours.',
    price: '189.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000053',
    color: 'Brown',
    material: 'Nubuck leather',
  },
  {
    slug: 'ridgeway-trek-low',
    sku: 'RW-TREK-LOW',
    name: 'Ridgeway Trek Low',
    brand: 'Ridgeway',
    category: 'hiking-boots',
    description: 'Low hiking shoe, light and breathable, for well-kept trails in summer.',
    price: '139.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Grey',
    material: 'Suede and mesh',
  },
  {
    slug: 'ridgeway-alpine-pro',
    sku: 'RW-ALPINE-PRO',
    name: 'Ridgeway Alpine Pro',
    brand: 'Ridgeway',
    category: 'hiking-boots',
    description: 'Stiff alpine boot, crampon-compatible, for glacier approaches and scrambles.',
    price: '249.00',
    availability: 'OutOfStock',
    hasImage: true,
    color: 'Red',
    material: 'Full-grain leather',
  },
  {
    slug: 'ridgeway-hillwalker',
    sku: 'RW-HILLWALKER',
    name: 'Ridgeway Hillwalker',
    brand: 'Ridgeway',
    category: 'hiking-boots',
    description: 'Classic leather hiking boot, resoleable. Sold new and as a factory second.',
    price: '99.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Brown',
    material: 'Full-grain leather',
    offerRange: { high: '129.00', offerCount: 2 },
  },
  {
    slug: 'ridgeway-approach',
    sku: 'RW-APPROACH',
    name: 'Ridgeway Approach',
    brand: 'Ridgeway',
    category: 'hiking-boots',
    description: 'Grippy approach shoe with a climbing zone at the toe, between hiking boot and sneaker.',
    price: '129.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Blue',
    material: 'Suede',
  },
  // T-shirts.
  {
    slug: 'northline-merino-tee-black',
    sku: 'NL-MERINO-BLK',
    name: 'Northline Merino Tee, black',
    brand: 'Northline',
    category: 't-shirts',
    description: 'Soft 150 g merino wool t-shirt that stays fresh for days on the trail.',
    price: '49.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000107',
    color: 'Black',
    size: 'M',
    material: 'Merino wool',
    group: { id: 'NL-MERINO', name: 'Northline Merino Tee', via: 'productGroupID' },
  },
  {
    slug: 'northline-merino-tee-navy',
    sku: 'NL-MERINO-NVY',
    name: 'Northline Merino Tee, navy',
    brand: 'Northline',
    category: 't-shirts',
    description: 'Soft 150 g merino wool t-shirt that stays fresh for days on the trail.',
    price: '49.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000114',
    color: 'Navy',
    size: 'L',
    material: 'Merino wool',
    group: { id: 'NL-MERINO', name: 'Northline Merino Tee', via: 'productGroupID' },
  },
  {
    slug: 'northline-tech-tee',
    sku: 'NL-TECH',
    name: 'Northline Tech Tee',
    brand: 'Northline',
    category: 't-shirts',
    description: 'Quick-drying running t-shirt with flat seams and reflective print.',
    price: '24.95',
    availability: 'InStock',
    hasImage: true,
    color: 'Grey',
    size: 'M',
    material: 'Recycled polyester',
  },
  {
    slug: 'northline-organic-cotton-tee',
    sku: 'NL-COTTON',
    name: 'Northline Organic Cotton Tee',
    brand: 'Northline',
    category: 't-shirts',
    description: 'Everyday t-shirt in heavy organic cotton, regular fit.',
    price: '19.95',
    availability: 'InStock',
    hasImage: true,
    color: 'White',
    size: 'S',
    material: 'Organic cotton',
  },
  {
    slug: 'northline-race-singlet',
    sku: 'NL-SINGLET',
    name: 'Northline Race Singlet',
    brand: 'Northline',
    category: 't-shirts',
    description: 'Featherweight sleeveless running top with laser-cut ventilation.',
    price: '29.00',
    availability: 'PreOrder',
    hasImage: true,
    color: 'Yellow',
    size: 'M',
    material: 'Recycled polyester',
  },
  // Rain jackets.
  {
    slug: 'stormcell-packable-rain-jacket',
    sku: 'SC-PACKABLE',
    name: 'Stormcell Packable Rain Jacket',
    brand: 'Stormcell',
    category: 'rain-jackets',
    description: 'Waterproof 2.5-layer rain jacket that packs into its own chest pocket, 210 g.',
    price: '79.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000206',
    color: 'Yellow',
    size: 'M',
    material: 'Nylon ripstop',
  },
  {
    slug: 'stormcell-3l-shell',
    sku: 'SC-3L-SHELL',
    name: 'Stormcell 3L Shell',
    brand: 'Stormcell',
    category: 'rain-jackets',
    description: 'Three-layer hardshell rain jacket for alpine storms, helmet-compatible hood, pit zips.',
    price: '229.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Blue',
    size: 'L',
    material: 'Gore-Tex Pro',
  },
  {
    slug: 'stormcell-kids-rain-jacket',
    sku: 'SC-KIDS',
    name: 'Stormcell Kids Rain Jacket',
    brand: 'Stormcell',
    category: 'rain-jackets',
    description: 'Waterproof rain jacket for children, with taped seams and reflective strips.',
    price: '49.00',
    availability: 'OutOfStock',
    hasImage: true,
    color: 'Red',
    size: '128',
    material: 'Polyester',
  },
  {
    slug: 'stormcell-trail-poncho',
    sku: 'SC-PONCHO',
    name: 'Stormcell Trail Poncho',
    brand: 'Stormcell',
    category: 'rain-jackets',
    description: 'Rain poncho that covers you and your backpack; doubles as a tarp.',
    price: '29.95',
    availability: 'InStock',
    hasImage: false,
    color: 'Green',
    material: 'Silnylon',
  },
  // Socks.
  {
    slug: 'strider-running-socks-3-pack',
    sku: 'STR-SOCKS-3',
    name: 'Strider Running Socks, 3-pack',
    brand: 'Strider',
    category: 'socks',
    description: 'Cushioned running socks with a seamless toe, three pairs.',
    price: '14.95',
    availability: 'InStock',
    hasImage: false,
    color: 'White',
    size: '39-42',
    material: 'Cotton blend',
  },
  {
    slug: 'ridgeway-merino-hiking-socks',
    sku: 'RW-SOCKS-MERINO',
    name: 'Ridgeway Merino Hiking Socks',
    brand: 'Ridgeway',
    category: 'socks',
    description: 'Mid-weight merino hiking socks, cushioned under the foot, no blisters.',
    price: '19.95',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000305',
    color: 'Grey',
    size: '43-46',
    material: 'Merino wool',
  },
  {
    slug: 'northline-compression-socks',
    sku: 'NL-COMPRESSION',
    name: 'Northline Compression Socks',
    brand: 'Northline',
    category: 'socks',
    description: 'Graduated compression socks for long runs and recovery.',
    price: '29.00',
    availability: 'PreOrder',
    hasImage: true,
    color: 'Black',
    size: 'M',
    material: 'Nylon',
  },
  {
    slug: 'strider-ankle-socks-6-pack',
    sku: 'STR-ANKLE-6',
    name: 'Strider Ankle Socks, 6-pack',
    brand: 'Strider',
    category: 'socks',
    description: 'Low-cut socks for the gym and the road, six pairs.',
    price: '19.95',
    availability: 'InStock',
    hasImage: false,
    color: 'Black',
    size: '43-46',
    material: 'Cotton blend',
  },
  // Backpacks.
  {
    slug: 'trailhaus-daypack-22',
    sku: 'TH-DAY-22',
    name: 'Trailhaus Daypack 22 L',
    brand: 'Trailhaus',
    category: 'backpacks',
    description: 'Everyday hiking backpack with a ventilated back and a rain cover.',
    price: '69.00',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000404',
    color: 'Green',
    material: 'Recycled nylon',
  },
  {
    slug: 'trailhaus-trek-45',
    sku: 'TH-TREK-45',
    name: 'Trailhaus Trek 45 L',
    brand: 'Trailhaus',
    category: 'backpacks',
    description: 'Trekking backpack for multi-day hut tours, adjustable back length.',
    price: '149.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Blue',
    material: 'Cordura',
    offerRange: { high: '179.00', offerCount: 3 },
  },
  {
    slug: 'trailhaus-running-vest-8',
    sku: 'TH-VEST-8',
    name: 'Trailhaus Running Vest 8 L',
    brand: 'Trailhaus',
    category: 'backpacks',
    description: 'Bounce-free running vest with pockets for two soft flasks, for trail races.',
    price: '89.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Black',
    size: 'M',
    material: 'Stretch mesh',
  },
  {
    slug: 'trailhaus-city-rolltop-25',
    sku: 'TH-ROLLTOP-25',
    name: 'Trailhaus City Roll-top 25 L',
    brand: 'Trailhaus',
    category: 'backpacks',
    description: 'Waterproof roll-top backpack with a padded laptop sleeve, for the commute by bike.',
    price: '99.00',
    availability: 'OutOfStock',
    hasImage: true,
    color: 'Black',
    material: 'Tarpaulin',
  },
  {
    slug: 'trailhaus-hydration-pack-12',
    sku: 'TH-HYDRO-12',
    name: 'Trailhaus Hydration Pack 12 L',
    brand: 'Trailhaus',
    category: 'backpacks',
    description: 'Bike and hiking backpack with a 2 L water reservoir included.',
    price: '79.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Orange',
    material: 'Nylon',
  },
  // Water bottles.
  {
    slug: 'aquila-steel-bottle-750',
    sku: 'AQ-STEEL-750',
    name: 'Aquila Steel Bottle 750 ml',
    brand: 'Aquila',
    category: 'water-bottles',
    description: 'Single-wall stainless steel water bottle, leak-proof, no plastic taste.',
    price: '24.95',
    availability: 'InStock',
    hasImage: true,
    gtin13: '4001234000503',
    color: 'Silver',
    material: 'Stainless steel',
  },
  {
    slug: 'aquila-soft-flask-500',
    sku: 'AQ-FLASK-500',
    name: 'Aquila Soft Flask 500 ml',
    brand: 'Aquila',
    category: 'water-bottles',
    description: 'Collapsible soft flask for running vests, bite valve.',
    price: '19.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Clear',
    material: 'TPU',
  },
  {
    slug: 'aquila-filter-bottle',
    sku: 'AQ-FILTER',
    name: 'Aquila Filter Bottle',
    brand: 'Aquila',
    category: 'water-bottles',
    description: 'Water bottle with a built-in hollow-fibre filter: drink from streams safely.',
    price: '34.95',
    availability: 'PreOrder',
    hasImage: true,
    gtin13: '4001234000602',
    color: 'Blue',
    material: 'BPA-free plastic',
  },
  {
    slug: 'aquila-insulated-bottle-1l',
    sku: 'AQ-THERMO-1000',
    name: 'Aquila Insulated Bottle 1 L',
    brand: 'Aquila',
    category: 'water-bottles',
    description: 'Double-wall vacuum bottle: cold for 24 hours, hot for 12.',
    price: '32.00',
    availability: 'InStock',
    hasImage: true,
    color: 'Black',
    material: 'Stainless steel',
  },
  {
    slug: 'aquila-kids-bottle',
    sku: 'AQ-KIDS-400',
    name: 'Aquila Kids Bottle 400 ml',
    brand: 'Aquila',
    category: 'water-bottles',
    description: 'Small water bottle with a straw lid that does not spill in the school bag.',
    price: '14.00',
    availability: 'InStock',
    hasImage: false,
    color: 'Pink',
    material: 'Tritan',
  },
];

/** The product with this SKU (exact, case-insensitive), or `undefined`. */
export function findBySku(sku: string): CatalogProduct | undefined {
  const wanted = sku.trim().toUpperCase();
  return CATALOG.find((p) => p.sku === wanted);
}

/** The product page URL, the product's unique key in the feed. */
export const productUrl = (p: CatalogProduct): string => `${STORE_ORIGIN}/p/${p.slug}`;

/** `https://{integrator}/images/{name}.svg`, or `undefined` for a product without a picture. */
export const productImageUrl = (p: CatalogProduct, imageBase: string): string | undefined =>
  p.hasImage ? `${imageBase}/images/${CATEGORY_IMAGES[p.category]}.svg` : undefined;

/** Whole cents of a decimal price string ("89.95" → 8995); exact, no floating point. */
export function toCents(price: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(price);
  if (!match) throw new Error(`catalog: bad price ${price}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

const EUR: Record<DemoLanguage, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-IE', { style: 'currency', currency: CURRENCY }),
  de: new Intl.NumberFormat('de-DE', { style: 'currency', currency: CURRENCY }),
};

/** A price as shoppers read it: 8995 → "€89.95" in English, "89,95 €" in German. */
export const formatCents = (cents: number, language: DemoLanguage = 'en'): string =>
  EUR[language].format(cents / 100);
