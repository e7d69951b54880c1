// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_KEY,
  type CatalogService,
  serviceBackends,
  startCatalogService,
} from '../../testing/catalog-lookup-test-kit';

// The catalog page is the merchant's: an agent's key (valid for the conversations) is refused with 403 and learns
// nothing of the catalog; no key or a wrong one is 401; an unknown widget is 404.

describe.each(serviceBackends)('attack: the catalog read with an agent key on $name', (backend) => {
  let kit: CatalogService;
  beforeAll(async () => {
    kit = await startCatalogService(backend);
  }, 60_000);
  afterAll(() => kit?.close());

  it('answers 404 for an unknown widget, 401 without a key, and 403 for an agent key', async () => {
    for (const path of ['nope/catalog', 'nope/catalog/products?id=P-1']) {
      const res = await kit.get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'unknown_widget' } });
    }
    // The key is good (an agent's): the refusal is about the role.
    const me = await fetch(`${kit.url}/v0/admin/me`, { headers: { authorization: `Bearer ${AGENT_KEY}` } });
    expect(await me.json()).toMatchObject({ agent: { role: 'agent' } });
    for (const path of ['shop/catalog', 'shop/catalog/products?id=P-1']) {
      expect((await kit.get(path, null)).status).toBe(401);
      expect((await kit.get(path, 'not-a-key')).status).toBe(401);
      const agent = await kit.get(path, AGENT_KEY);
      expect(agent.status).toBe(403);
      const text = await agent.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'forbidden' } });
      expect(text).not.toContain('Trail Runner');
    }
  });
});
