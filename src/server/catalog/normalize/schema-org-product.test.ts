// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ProductData } from '../../../protocol/catalog';
import { normalizeSchemaOrgProduct } from './schema-org-product';

type Item = Record<string, unknown>;

const valid = (extra: Item = {}): Item => ({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Trail Shoe',
  url: 'https://shop.example/p/trail-shoe',
  offers: { '@type': 'Offer', price: '89.90', priceCurrency: 'EUR' },
  ...extra,
});

const normalize = (item: unknown, baseUrl?: string) =>
  normalizeSchemaOrgProduct(item, baseUrl === undefined ? {} : { baseUrl });

const dataOf = (item: unknown, baseUrl?: string): ProductData => {
  const r = normalize(item, baseUrl);
  if (!r.ok) throw new Error(`expected the item to be accepted, got: ${r.error}`);
  return r.value.productData;
};

const identifierOf = (item: unknown): string => {
  const r = normalize(item);
  if (!r.ok) throw new Error(`expected the item to be accepted, got: ${r.error}`);
  return r.value.identifier;
};

const reasonOf = (item: unknown, baseUrl?: string): string => {
  const r = normalize(item, baseUrl);
  if (r.ok) throw new Error('expected the item to be refused');
  return r.error;
};

const without = (key: string): Item => {
  const item = valid();
  delete item[key];
  return item;
};

describe('normalizeSchemaOrgProduct()', () => {
  it('maps a minimal valid Product to the productData shape, identified by its url', () => {
    expect(normalize(valid())).toEqual({
      ok: true,
      value: {
        identifier: 'https://shop.example/p/trail-shoe',
        productData: {
          displayText: 'Trail Shoe',
          url: 'https://shop.example/p/trail-shoe',
          price: '89.90',
          priceCurrency: 'EUR',
        },
      },
    });
  });

  describe('name', () => {
    it('is required', () => {
      expect(reasonOf(without('name'))).toBe('name is required');
    });
    it('is refused when empty after trimming and stripping controls', () => {
      expect(reasonOf(valid({ name: '  \u0000\t ' }))).toBe('name is required');
    });
    it('is refused when not a string', () => {
      expect(reasonOf(valid({ name: 42 }))).toBe('name must be a string');
    });
    it('is trimmed, with inner whitespace collapsed', () => {
      expect(dataOf(valid({ name: '  Trail \n  Shoe  ' })).displayText).toBe('Trail Shoe');
    });
  });

  describe('url', () => {
    it('is required', () => {
      expect(reasonOf(without('url'))).toBe('url is required');
    });
    it('is refused when not a string', () => {
      expect(reasonOf(valid({ url: ['https://shop.example/p'] }))).toBe('url must be a string');
    });
    it('is refused when not http(s)', () => {
      expect(reasonOf(valid({ url: 'javascript:alert(1)' }))).toBe('url is not an absolute http(s) URL');
      expect(reasonOf(valid({ url: 'ftp://shop.example/p' }))).toBe('url is not an absolute http(s) URL');
      expect(reasonOf(valid({ url: 'https://user:pw@shop.example/p' }))).toBe(
        'url is not an absolute http(s) URL',
      );
    });
    it('is refused when relative and the feed has no baseUrl', () => {
      expect(reasonOf(valid({ url: '/p/1' }))).toBe('url is relative and the feed has no http(s) baseUrl');
    });
    it('is resolved against the feed baseUrl when relative', () => {
      expect(dataOf(valid({ url: 'p/1?c=red' }), 'https://shop.example/feeds/all.json').url).toBe(
        'https://shop.example/feeds/p/1?c=red',
      );
      expect(dataOf(valid({ url: '/p/1' }), 'https://shop.example/feeds/all.json').url).toBe(
        'https://shop.example/p/1',
      );
    });
    it('refuses a relative url that hides controls the URL parser would drop', () => {
      expect(reasonOf(valid({ url: '/p/\t1' }), 'https://shop.example/')).toBe(
        'url is not an absolute http(s) URL',
      );
    });
    it('keeps an absolute url as given (trimmed)', () => {
      expect(dataOf(valid({ url: '  https://Shop.example/P/1  ' })).url).toBe('https://Shop.example/P/1');
    });
  });

  describe('offers', () => {
    it('is required', () => {
      expect(reasonOf(without('offers'))).toBe('offers is required');
    });
    it('must be an object or an array', () => {
      expect(reasonOf(valid({ offers: '89.90 EUR' }))).toBe(
        'offers must be an Offer, an AggregateOffer or an array of Offers',
      );
    });
    it('refuses an empty array', () => {
      expect(reasonOf(valid({ offers: [] }))).toBe('offers is empty');
    });
    it('must yield a price', () => {
      expect(reasonOf(valid({ offers: { '@type': 'Offer', priceCurrency: 'EUR' } }))).toBe(
        'offers yields no price',
      );
    });
    it('must yield a priceCurrency', () => {
      expect(reasonOf(valid({ offers: { '@type': 'Offer', price: '1' } }))).toBe(
        'offers yields no priceCurrency',
      );
    });
    it('reads only the first offer of an array for price, currency, availability and mpn', () => {
      const data = dataOf(
        valid({
          offers: [
            {
              '@type': 'Offer',
              price: '10',
              priceCurrency: 'EUR',
              availability: 'https://schema.org/InStock',
              mpn: 'A',
            },
            {
              '@type': 'Offer',
              price: '5',
              priceCurrency: 'USD',
              availability: 'https://schema.org/SoldOut',
              mpn: 'B',
            },
          ],
        }),
      );
      expect(data).toMatchObject({
        price: '10',
        priceCurrency: 'EUR',
        availability: 'in stock',
        mpn: 'A',
        sku: 'A',
      });
    });
    it("reads an AggregateOffer's first offer when it has offers", () => {
      const data = dataOf(
        valid({
          offers: {
            '@type': 'AggregateOffer',
            lowPrice: '5',
            highPrice: '20',
            offerCount: 2,
            priceCurrency: 'USD',
            offers: [
              { '@type': 'Offer', price: '12.50', availability: 'https://schema.org/PreOrder' },
              { '@type': 'Offer', price: '5', priceCurrency: 'GBP' },
            ],
          },
        }),
      );
      // The first offer gives no currency: the aggregate's stands for it.
      expect(data).toMatchObject({ price: '12.50', priceCurrency: 'USD', availability: 'preorder' });
    });
    it('reads lowPrice and priceCurrency of an AggregateOffer without offers', () => {
      const data = dataOf(
        valid({ offers: { '@type': 'AggregateOffer', lowPrice: 19.5, highPrice: 30, priceCurrency: 'eur' } }),
      );
      expect(data).toMatchObject({ price: '19.5', priceCurrency: 'EUR' });
    });
    it('refuses an AggregateOffer with neither offers nor lowPrice', () => {
      expect(
        reasonOf(valid({ offers: { '@type': 'AggregateOffer', highPrice: '9', priceCurrency: 'EUR' } })),
      ).toBe('offers yields no price');
    });
    it('accepts prefixed @type names', () => {
      const offers = { '@type': 'schema:AggregateOffer', lowPrice: '3', priceCurrency: 'EUR' };
      expect(dataOf(valid({ offers })).price).toBe('3');
    });
  });

  describe('price', () => {
    it('is kept as the string given', () => {
      expect(dataOf(valid({ offers: { price: '0089.900', priceCurrency: 'EUR' } })).price).toBe('0089.900');
      expect(dataOf(valid({ offers: { price: '12,90', priceCurrency: 'EUR' } })).price).toBe('12,90');
    });
    it('is String(n) for a number, not reformatted', () => {
      expect(dataOf(valid({ offers: { price: 12.5, priceCurrency: 'EUR' } })).price).toBe('12.5');
      expect(dataOf(valid({ offers: { price: 0, priceCurrency: 'EUR' } })).price).toBe('0');
    });
    it('is refused when not a plain non-negative decimal', () => {
      for (const price of ['€12', '1,299.00', '-3', 'free', '12.', -1, 1e21]) {
        expect(reasonOf(valid({ offers: { price, priceCurrency: 'EUR' } }))).toBe(
          'offers.price is not a non-negative decimal number',
        );
      }
    });
    it('is refused when of the wrong type', () => {
      expect(reasonOf(valid({ offers: { price: true, priceCurrency: 'EUR' } }))).toBe(
        'offers.price must be a string',
      );
    });
  });

  describe('priceCurrency', () => {
    it('is a three-letter code, stored upper-case', () => {
      expect(dataOf(valid({ offers: { price: '1', priceCurrency: ' usd ' } })).priceCurrency).toBe('USD');
      expect(reasonOf(valid({ offers: { price: '1', priceCurrency: '€' } }))).toBe(
        'offers.priceCurrency is not a three-letter currency code',
      );
    });
  });

  describe('availability', () => {
    const availabilityOf = (availability: unknown) =>
      dataOf(valid({ offers: { price: '1', priceCurrency: 'EUR', availability } })).availability;

    it('maps every schema.org spelling of InStock', () => {
      for (const v of [
        'https://schema.org/InStock',
        'http://schema.org/InStock',
        'schema:InStock',
        'InStock',
      ]) {
        expect(availabilityOf(v)).toBe('in stock');
      }
    });
    it('maps OutOfStock and SoldOut to out of stock', () => {
      expect(availabilityOf('https://schema.org/OutOfStock')).toBe('out of stock');
      expect(availabilityOf('https://schema.org/SoldOut')).toBe('out of stock');
    });
    it('maps PreOrder, PreSale and BackOrder to preorder', () => {
      for (const v of ['PreOrder', 'PreSale', 'BackOrder'])
        expect(availabilityOf(`https://schema.org/${v}`)).toBe('preorder');
    });
    it('maps Discontinued to discontinued', () => {
      expect(availabilityOf('https://schema.org/Discontinued')).toBe('discontinued');
    });
    it('maps LimitedAvailability, OnlineOnly and InStoreOnly to in stock', () => {
      for (const v of ['LimitedAvailability', 'OnlineOnly', 'InStoreOnly']) {
        expect(availabilityOf(`http://schema.org/${v}`)).toBe('in stock');
      }
    });
    it('omits an unknown availability without refusing the product', () => {
      const data = dataOf(
        valid({ offers: { price: '1', priceCurrency: 'EUR', availability: 'https://schema.org/Maybe' } }),
      );
      expect(data).not.toHaveProperty('availability');
    });
    it('refuses an availability of the wrong type', () => {
      expect(reasonOf(valid({ offers: { price: '1', priceCurrency: 'EUR', availability: 1 } }))).toBe(
        'offers.availability must be a string',
      );
    });
  });

  describe('sku (SPEC six-step resolution)', () => {
    const all: Item = {
      sku: 'S-SKU',
      mpn: 'S-MPN',
      offers: { price: '1', priceCurrency: 'EUR', mpn: 'O-MPN' },
      additionalProperty: [
        { '@type': 'PropertyValue', name: 'colour', value: 'red' },
        { '@type': 'PropertyValue', name: 'Sku', value: 'P-SKU' },
      ],
      productGroupID: 'G-1',
      productID: 'ID-1',
    };
    const skuOf = (drop: string[]) => {
      const item = valid(all);
      for (const key of drop) delete item[key];
      if (drop.includes('offers.mpn')) item.offers = { price: '1', priceCurrency: 'EUR' };
      return dataOf(item).sku;
    };

    it('1. Product.sku', () => {
      expect(skuOf([])).toBe('S-SKU');
    });
    it('2. Product.mpn', () => {
      expect(skuOf(['sku'])).toBe('S-MPN');
    });
    it('3. offers[0].mpn', () => {
      expect(skuOf(['sku', 'mpn'])).toBe('O-MPN');
    });
    it('4. an additionalProperty named MPN or SKU, case-insensitively', () => {
      expect(skuOf(['sku', 'mpn', 'offers.mpn'])).toBe('P-SKU');
      const item = valid({ additionalProperty: [{ name: 'mpn', value: 778 }] });
      expect(dataOf(item).sku).toBe('778');
    });
    it('5. Product.productGroupID', () => {
      expect(skuOf(['sku', 'mpn', 'offers.mpn', 'additionalProperty'])).toBe('G-1');
    });
    it('5. or isVariantOf.productGroupID', () => {
      const item = valid({
        isVariantOf: { '@type': 'ProductGroup', productGroupID: 'G-2' },
        productID: 'ID-9',
      });
      expect(dataOf(item)).toMatchObject({ sku: 'G-2', productGroupID: 'G-2' });
    });
    it('6. Product.productID', () => {
      expect(skuOf(['sku', 'mpn', 'offers.mpn', 'additionalProperty', 'productGroupID'])).toBe('ID-1');
    });
    it('is absent when no step matches', () => {
      expect(dataOf(valid())).not.toHaveProperty('sku');
    });
    it('reads an additionalProperty SKU only among the first 20 entries', () => {
      const props = Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, value: i }));
      expect(
        dataOf(valid({ additionalProperty: [...props, { name: 'SKU', value: 'late' }] })),
      ).not.toHaveProperty('sku');
    });
  });

  describe('identifiers', () => {
    it('prefers gtin14, gtin13, gtin12, gtin8, gtin in that order', () => {
      const gtins = {
        gtin: 'G',
        gtin8: '12345670',
        gtin12: '036000291452',
        gtin13: '4006381333931',
        gtin14: '14006381333938',
      };
      expect(dataOf(valid(gtins)).gtin).toBe('14006381333938');
      const { gtin14: _14, ...rest } = gtins;
      expect(dataOf(valid(rest)).gtin).toBe('4006381333931');
      expect(dataOf(valid({ gtin8: '12345670', gtin: 'G' })).gtin).toBe('12345670');
      expect(dataOf(valid({ gtin: 'G' })).gtin).toBe('G');
    });
    it('accepts an integer gtin and refuses a fractional one', () => {
      expect(dataOf(valid({ gtin13: 4006381333931 })).gtin).toBe('4006381333931');
      expect(reasonOf(valid({ gtin13: 1.5 }))).toBe('gtin13 must be a string or an integer');
    });
    it('takes productGroupID directly, else from an isVariantOf ProductGroup', () => {
      expect(
        dataOf(
          valid({ productGroupID: 'G-1', isVariantOf: { '@type': 'ProductGroup', productGroupID: 'G-2' } }),
        ).productGroupID,
      ).toBe('G-1');
      expect(
        dataOf(valid({ isVariantOf: { '@type': 'ProductGroup', productGroupID: 'G-2' } })).productGroupID,
      ).toBe('G-2');
    });
    it('ignores isVariantOf when it is not a ProductGroup or only an @id reference', () => {
      expect(
        dataOf(valid({ isVariantOf: { '@type': 'Product', productGroupID: 'G-3' } })),
      ).not.toHaveProperty('productGroupID');
      expect(dataOf(valid({ isVariantOf: 'https://shop.example/#group' }))).not.toHaveProperty(
        'productGroupID',
      );
    });
    it('mpn is Product-level, else the first offer', () => {
      expect(dataOf(valid({ mpn: 'P', offers: { price: '1', priceCurrency: 'EUR', mpn: 'O' } })).mpn).toBe(
        'P',
      );
      expect(dataOf(valid({ offers: { price: '1', priceCurrency: 'EUR', mpn: 'O' } })).mpn).toBe('O');
    });
    it('the identifier is productID, else the resolved sku, else the url', () => {
      expect(identifierOf(valid({ productID: 'ID-1', sku: 'S' }))).toBe('ID-1');
      expect(identifierOf(valid({ sku: 'S' }))).toBe('S');
      expect(identifierOf(valid())).toBe('https://shop.example/p/trail-shoe');
    });
    it('refuses an identifier of the wrong type', () => {
      expect(reasonOf(valid({ sku: { value: 'S' } }))).toBe('sku must be a string or an integer');
    });
  });

  describe('additionalProperty', () => {
    it('becomes attributes with values as strings', () => {
      const data = dataOf(
        valid({
          additionalProperty: [
            { '@type': 'PropertyValue', name: 'colour', value: ' red ' },
            { '@type': 'PropertyValue', name: 'weight', value: 0.25 },
            { '@type': 'PropertyValue', name: 'waterproof', value: true },
          ],
        }),
      );
      expect(data.attributes).toEqual({ colour: 'red', weight: '0.25', waterproof: 'true' });
    });
    it('uses the first 20 entries only, counting unusable ones', () => {
      const props: unknown[] = [{ name: 5, value: 'x' }, null, { name: 'obj', value: { a: 1 } }];
      for (let i = 3; i < 25; i++) props.push({ name: `p${i}`, value: `v${i}` });
      const attributes = dataOf(valid({ additionalProperty: props })).attributes ?? {};
      expect(Object.keys(attributes)).toEqual(Array.from({ length: 17 }, (_, i) => `p${i + 3}`));
    });
    it('keeps the first of two entries with the same name', () => {
      const data = dataOf(
        valid({
          additionalProperty: [
            { name: 'a', value: '1' },
            { name: 'a', value: '2' },
          ],
        }),
      );
      expect(data.attributes).toEqual({ a: '1' });
    });
    it('accepts a single PropertyValue object and refuses a string', () => {
      expect(dataOf(valid({ additionalProperty: { name: 'a', value: 'b' } })).attributes).toEqual({ a: 'b' });
      expect(reasonOf(valid({ additionalProperty: 'a=b' }))).toBe(
        'additionalProperty must be an array of PropertyValue objects',
      );
    });
    it('never lets a __proto__ name pollute or appear', () => {
      const props = JSON.parse('[{"name":"__proto__","value":"x"},{"name":"constructor","value":"c"}]');
      const data = dataOf(valid({ additionalProperty: props }));
      expect(Object.keys(data.attributes ?? {})).toEqual(['constructor']);
      expect(Object.getPrototypeOf(data.attributes)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });
  });

  describe('description', () => {
    it('is cut at 4000 characters', () => {
      expect(dataOf(valid({ description: 'a'.repeat(10_000) })).description).toHaveLength(4000);
    });
    it('never splits a surrogate pair at the cut', () => {
      const description = `${'a'.repeat(3999)}😀tail`;
      expect(dataOf(valid({ description })).description).toBe('a'.repeat(3999));
    });
    it('keeps line breaks and strips controls', () => {
      expect(dataOf(valid({ description: ' one\r\ntwo\u0000\u0007 ' })).description).toBe('one\ntwo');
    });
    it('is refused when not a string', () => {
      expect(reasonOf(valid({ description: ['a'] }))).toBe('description must be a string');
    });
  });

  describe('image', () => {
    it('takes a string, the first of an array, or an ImageObject url', () => {
      expect(dataOf(valid({ image: 'https://cdn.example/a.jpg' })).imageUrl).toBe(
        'https://cdn.example/a.jpg',
      );
      expect(
        dataOf(valid({ image: ['https://cdn.example/1.jpg', 'https://cdn.example/2.jpg'] })).imageUrl,
      ).toBe('https://cdn.example/1.jpg');
      expect(
        dataOf(valid({ image: { '@type': 'ImageObject', url: 'https://cdn.example/o.jpg' } })).imageUrl,
      ).toBe('https://cdn.example/o.jpg');
      expect(
        dataOf(valid({ image: [{ '@type': 'ImageObject', url: 'https://cdn.example/o1.jpg' }] })).imageUrl,
      ).toBe('https://cdn.example/o1.jpg');
    });
    it('resolves a relative image against baseUrl', () => {
      expect(dataOf(valid({ image: '/img/a.jpg' }), 'https://shop.example/feed.json').imageUrl).toBe(
        'https://shop.example/img/a.jpg',
      );
    });
    it('drops an image that is not http(s) or cannot be resolved, keeping the product', () => {
      expect(dataOf(valid({ image: 'javascript:alert(1)' }))).not.toHaveProperty('imageUrl');
      expect(dataOf(valid({ image: 'data:image/png;base64,AAAA' }))).not.toHaveProperty('imageUrl');
      expect(dataOf(valid({ image: '/img/a.jpg' }))).not.toHaveProperty('imageUrl');
    });
    it('is refused when of the wrong type', () => {
      expect(reasonOf(valid({ image: 7 }))).toBe('image must be a URL, an ImageObject or an array of them');
    });
  });

  describe('brand', () => {
    it('takes a string or an object name', () => {
      expect(dataOf(valid({ brand: ' Acme ' })).brand).toBe('Acme');
      expect(dataOf(valid({ brand: { '@type': 'Brand', name: 'Acme' } })).brand).toBe('Acme');
    });
    it('is refused when of the wrong type', () => {
      expect(reasonOf(valid({ brand: 3 }))).toBe('brand must be a string or an object with a name');
    });
  });

  describe('robustness', () => {
    it('refuses a non-object item', () => {
      for (const item of [null, 'x', 3, [valid()]]) expect(reasonOf(item)).toBe('item must be an object');
    });
    it('refuses an item whose @type is not a Product', () => {
      expect(reasonOf(valid({ '@type': 'ProductGroup' }))).toBe('@type must be Product');
      expect(dataOf(valid({ '@type': ['Product', 'Thing'] })).displayText).toBe('Trail Shoe');
    });
    it('never throws, even on an item whose getters throw', () => {
      const hostile = new Proxy(
        {},
        {
          getOwnPropertyDescriptor() {
            throw new Error('boom');
          },
        },
      );
      expect(normalize(hostile)).toEqual({ ok: false, error: 'item could not be read' });
    });
    it('strips NUL, controls and bidi overrides but keeps emoji and RTL text', () => {
      const data = dataOf(
        valid({
          name: 'Mug\u0000 \u202Egpj.exe\u202C 😀 \u05E9\u05DC\u05D5\u05DD',
          brand: '<script>x</script>',
        }),
      );
      expect(data.displayText).toBe('Mug gpj.exe 😀 שלום');
      // Markup is kept as text: it is rendered as a text node, never parsed.
      expect(data.brand).toBe('<script>x</script>');
    });
    it('builds output from known keys only', () => {
      const item = JSON.parse(
        '{"@type":"Product","name":"A","url":"https://shop.example/a","offers":{"price":"1","priceCurrency":"EUR"},"__proto__":{"polluted":true},"extra":1}',
      );
      const r = normalize(item);
      expect(r.ok && Object.keys(r.value.productData)).toEqual([
        'displayText',
        'url',
        'price',
        'priceCurrency',
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});
