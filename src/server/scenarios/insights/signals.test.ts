// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALS_PER_CONVERSATION } from '../../../protocol/chat';
import { type ServiceBackend, serviceBackends, shopper, startHandoff } from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 35 (DESIGN "Outcomes the merchant sees"): the widget tells the service what the shopper did with a card
// (`POST …/signals { type, url }`, the conversation's token, 204), at most 60 a conversation, for the insights'
// add-to-cart count. Over real HTTP on both databases: what the edge answers (the rows themselves, and the cap under
// concurrency, are src/server/insights/conversation-signals.test.ts's; the insights that read them come next).

describe.each(serviceBackends)('card signals, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    kit = await startHandoff(backend);
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  const signal = (id: string, token: string | null, body: unknown, widget = 'shop') =>
    fetch(`${kit.base}/v0/widget/${widget}/conversations/${id}/signals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('takes an add-to-cart and a product click with the card’s URL: 204', async () => {
    const s = await shopper(kit.base);
    expect(
      (await signal(s.id, s.token, { type: 'add-to-cart', url: 'https://shop.example/p/42' })).status,
    ).toBe(204);
    expect(
      (await signal(s.id, s.token, { type: 'product-click', url: 'http://shop.example/p/7?x=1' })).status,
    ).toBe(204);
  });

  it(`attack: a flood stops at ${SIGNALS_PER_CONVERSATION} a conversation with 429 too_many_signals, even all at once`, async () => {
    const s = await shopper(kit.base);
    const answers = await Promise.all(
      Array.from({ length: SIGNALS_PER_CONVERSATION + 15 }, (_, i) =>
        signal(s.id, s.token, { type: 'add-to-cart', url: `https://shop.example/p/${i}` }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 204)).toHaveLength(SIGNALS_PER_CONVERSATION);
    expect(statuses.filter((x) => x === 429)).toHaveLength(15);
    expect(await errorOf(answers[statuses.indexOf(429)])).toBe('too_many_signals');
  });

  it.each([
    ['a type the API does not know', { type: 'purchase', url: 'https://shop.example/p/1' }],
    ['a javascript: URL', { type: 'product-click', url: 'javascript:alert(1)' }],
    ['a relative URL', { type: 'product-click', url: '/p/1' }],
    [
      'a URL over 2048 characters',
      { type: 'product-click', url: `https://shop.example/${'a'.repeat(2048)}` },
    ],
    ['a NUL in the URL', { type: 'product-click', url: 'https://shop.example/\u0000' }],
    ['a field the API does not know', { type: 'add-to-cart', url: 'https://shop.example/p/1', price: 0 }],
    ['no URL', { type: 'add-to-cart' }],
    ['not JSON', '{type:'],
  ])('attack: %s is 400, before anything is stored', async (_what, body) => {
    const s = await shopper(kit.base);
    const res = await signal(s.id, s.token, body);
    expect(res.status).toBe(400);
    expect(['invalid_request', 'invalid_json']).toContain(await errorOf(res));
  });

  it('attack: no token is 401; a forged token, another conversation’s or another widget’s is 404', async () => {
    const s = await shopper(kit.base);
    const other = await shopper(kit.base);
    const body = { type: 'add-to-cart', url: 'https://shop.example/p/1' };
    expect((await signal(s.id, null, body)).status).toBe(401);
    expect((await signal(s.id, 'forged-token-of-nobody', body)).status).toBe(404);
    expect((await signal(s.id, other.token, body)).status).toBe(404);
    expect((await signal(s.id, s.token, body, 'other')).status).toBe(404);
  });
});
