// The shop's own product data; in a real store, its catalog. The ids are the demo catalog's, which the service knows.
export const products: Record<string, { name: string; price: string }> = {
  'NL-MERINO-BLK': { name: 'Northline Merino Tee, black', price: '49.00 EUR' },
};
