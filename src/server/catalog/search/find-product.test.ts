// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { type CatalogStore, createCatalogStore } from '../store/catalog-store';
import { findProduct, VARIANTS_MAX } from './find-product';

const item = (identifier: string, data: Omit<ProductData, 'url'>): CatalogProduct => ({
  identifier,
  productData: { url: `https://shop.example/p/${identifier}`, priceCurrency: 'EUR', ...data },
});

const tee = (colour: string, availability: ProductData['availability'] = 'in stock') =>
  item(`TEE-${colour.toUpperCase()}`, {
    displayText: `Merino Tee, ${colour.toLowerCase()}`,
    price: '49.00',
    availability,
    productGroupID: 'TEE',
    description: 'Soft merino wool.',
    attributes: { color: colour, material: 'Merino wool' },
  });

const FIXTURE: CatalogProduct[] = [
  tee('Black'),
  tee('Navy', 'out of stock'),
  tee('Red'),
  // Another group whose names share the words: never a variant of the tee.
  item('TEE-KIDS', {
    displayText: 'Merino Tee, kids',
    price: '29.00',
    productGroupID: 'KIDS',
    attributes: { color: 'Blue' },
  }),
  // Same group, hidden: never shown.
  item('TEE-GREEN', {
    displayText: 'Merino Tee, green',
    price: '49.00',
    productGroupID: 'TEE',
    visible: false,
    attributes: { color: 'Green' },
  }),
  item('MUG', { displayText: 'Stoneware Mug', price: '12.00', description: 'Hand-glazed.' }),
  item('SECRET', { displayText: 'Secret Mug', price: '1.00', visible: false }),
];

describe.each(backends)('findProduct() on $name', (backend: Backend) => {
  let db: Db;
  let store: CatalogStore;
  const widgetId = `w-${randomUUID()}`;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    store = createCatalogStore(db);
    await store.replaceFeedProducts(widgetId, FIXTURE);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('finds the product by id, with its card, whole description, availability and attributes', async () => {
    const found = await findProduct(db, widgetId, { id: 'TEE-BLACK', name: 'anything' });
    expect(found).toMatchObject({
      id: 'TEE-BLACK',
      name: 'Merino Tee, black',
      card: { id: 'TEE-BLACK', name: 'Merino Tee, black', price: '€49.00' },
      description: 'Soft merino wool.',
      availability: 'in stock',
      attributes: { color: 'Black', material: 'Merino wool' },
    });
  });

  it('lists the visible variants of its group, never another group whose names look alike', async () => {
    const found = await findProduct(db, widgetId, { id: 'TEE-BLACK', name: 'x' });
    expect(found?.variants.map((v) => [v.id, v.attributes.color, v.availability])).toEqual([
      ['TEE-NAVY', 'Navy', 'out of stock'],
      ['TEE-RED', 'Red', 'in stock'],
    ]);
  });

  it('falls back to the url, then to the exact name (case, punctuation and spacing aside)', async () => {
    expect(
      (await findProduct(db, widgetId, { id: 'gone', url: 'https://shop.example/p/MUG', name: 'x' }))?.id,
    ).toBe('MUG');
    expect((await findProduct(db, widgetId, { name: '  stoneware   MUG ' }))?.id).toBe('MUG');
    expect((await findProduct(db, widgetId, { name: 'Merino Tee - Red' }))?.id).toBe('TEE-RED');
  });

  it('finds nothing for a near name, an unknown id or url, a hidden product, or another widget', async () => {
    expect(await findProduct(db, widgetId, { name: 'Stoneware' })).toBeNull();
    expect(
      await findProduct(db, widgetId, { id: 'nope', url: 'https://shop.example/p/nope', name: 'Nope' }),
    ).toBeNull();
    expect(await findProduct(db, widgetId, { id: 'SECRET', name: 'Secret Mug' })).toBeNull();
    expect(await findProduct(db, widgetId, { id: 'TEE-GREEN', name: 'x' })).toBeNull();
    expect(await findProduct(db, `w-${randomUUID()}`, { id: 'MUG', name: 'Stoneware Mug' })).toBeNull();
  });

  it(`lists at most ${VARIANTS_MAX} variants`, async () => {
    const many = `w-${randomUUID()}`;
    const sizes = Array.from({ length: 30 }, (_, i) =>
      item(`SHOE-${10 + i}`, {
        displayText: `Trail Shoe, size ${10 + i}`,
        price: '99.00',
        productGroupID: 'SHOE',
        attributes: { size: String(10 + i) },
      }),
    );
    await store.replaceFeedProducts(many, sizes);
    const found = await findProduct(db, many, { id: 'SHOE-10', name: 'x' });
    expect(found?.variants).toHaveLength(VARIANTS_MAX);
    expect(found?.variants[0].id).toBe('SHOE-11');
  });
});
