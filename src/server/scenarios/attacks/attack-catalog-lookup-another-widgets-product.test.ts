// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogService,
  serviceBackends,
  startCatalogService,
} from '../../testing/catalog-lookup-test-kit';

// Two widgets of one service share the products table: a lookup on one, by another widget's identifier or by words
// only its products hold, finds nothing.

describe.each(serviceBackends)("attack: another widget's product on $name", (backend) => {
  let kit: CatalogService;
  beforeAll(async () => {
    kit = await startCatalogService(backend);
  }, 60_000);
  afterAll(() => kit?.close());

  it("never answers another widget's products", async () => {
    expect((await kit.lookup('shop', 'id=OTHER-1')).products).toEqual([]);
    expect((await kit.lookup('shop', 'q=deluxe')).products).toEqual([]);
    expect((await kit.lookup('other', 'id=P-1')).products).toEqual([]);
    expect((await kit.lookup('other', 'q=trail')).products.map((p) => p.identifier)).toEqual(['OTHER-1']);
  });
});
