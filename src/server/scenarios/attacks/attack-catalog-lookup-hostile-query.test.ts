// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogService,
  serviceBackends,
  startCatalogService,
} from '../../testing/catalog-lookup-test-kit';

// The lookup's query goes into SQL parameters and the search: an empty, doubled or overlong one, or one with control
// characters (PostgreSQL refuses a NUL in text outright, which would be a 500), gets a clear 400 naming the problem,
// and the longest accepted ones still answer.

describe.each(serviceBackends)('attack: a hostile lookup query on $name', (backend) => {
  let kit: CatalogService;
  beforeAll(async () => {
    kit = await startCatalogService(backend);
  }, 60_000);
  afterAll(() => kit?.close());

  it('refuses empty, doubled, overlong and control-character queries with a clear 400', async () => {
    const cases: Array<[string, RegExp, string?]> = [
      ['', /Give id .* or q/],
      ['q=', /q is empty/],
      ['id=%20%20', /id is empty/],
      ['q=a&id=b', /one of id and q/],
      ['q=a&q=b', /one of id and q/],
      [`q=${'shoe '.repeat(41)}`, /q is longer than 200/],
      [`id=${'x'.repeat(2049)}`, /id is longer than 2048/],
      // A NUL is refused before any route, for every route of the service (http/nul-text.ts).
      ['id=P-1%00', /NUL character/, 'invalid_request'],
      ['q=trail%0Arunner%1B', /control characters/],
    ];
    for (const [query, message, code = 'invalid_query'] of cases) {
      const res = await kit.get(`shop/catalog/products?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(message);
    }
    // The longest accepted query still answers (and a long url-like id too).
    expect((await kit.get(`shop/catalog/products?q=${'a'.repeat(200)}`)).status).toBe(200);
    expect((await kit.get(`shop/catalog/products?id=${'x'.repeat(2048)}`)).status).toBe(200);
  });
});
