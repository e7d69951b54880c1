// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNALS_PER_CONVERSATION } from '../../protocol/chat';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createConversationSignals } from './conversation-signals';

// Issue 35: what shoppers did with the cards, stored for the insights; over HTTP: scenarios/insights/signals.test.ts.

describe.each(backends)('card signals on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const rows = (id: string) =>
    db.query<{ type: string; url: string; widget_id: string }>(
      'SELECT type, url, widget_id FROM conversation_signals WHERE conversation_id = $1 ORDER BY id',
      [id],
    );

  const counts = async (id: string) =>
    (
      await db.query<{ add_to_cart: number; product_clicks: number }>(
        'SELECT add_to_cart, product_clicks FROM conversations WHERE id = $1',
        [id],
      )
    )[0];

  it('stores each signal with its widget, only for a conversation of that widget', async () => {
    const signals = createConversationSignals(db);
    const { id } = await chat.createConversation('w-signals');
    expect(await signals.add('w-signals', id, { type: 'add-to-cart', url: 'https://shop.example/p/1' })).toBe(
      'stored',
    );
    expect(await signals.add('w-other', id, { type: 'add-to-cart', url: 'https://shop.example/p/2' })).toBe(
      'not_found',
    );
    expect(
      await signals.add('w-signals', 'not-a-uuid', { type: 'add-to-cart', url: 'https://x.example/' }),
    ).toBe('not_found');
    expect(await rows(id)).toEqual([
      { type: 'add-to-cart', url: 'https://shop.example/p/1', widget_id: 'w-signals' },
    ]);
  });

  it(`keeps at most ${SIGNALS_PER_CONVERSATION} a conversation, posted all at once too`, async () => {
    const signals = createConversationSignals(db);
    const { id } = await chat.createConversation('w-signals');
    const outcomes = await Promise.all(
      Array.from({ length: SIGNALS_PER_CONVERSATION + 10 }, (_, i) =>
        signals.add('w-signals', id, { type: 'product-click', url: `https://shop.example/p/${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(SIGNALS_PER_CONVERSATION);
    expect(outcomes.filter((o) => o === 'full')).toHaveLength(10);
    expect(await rows(id)).toHaveLength(SIGNALS_PER_CONVERSATION);
    // The insights' counts on the conversation's row agree with the rows, however the posts interleaved.
    expect(await counts(id)).toEqual({ add_to_cart: 0, product_clicks: SIGNALS_PER_CONVERSATION });
  });

  it('counts each kind on the conversation for the insights, as it stores it', async () => {
    const signals = createConversationSignals(db);
    const { id } = await chat.createConversation('w-signals');
    await signals.add('w-signals', id, { type: 'add-to-cart', url: 'https://shop.example/p/1' });
    await signals.add('w-signals', id, { type: 'add-to-cart', url: 'https://shop.example/p/1' });
    await signals.add('w-signals', id, { type: 'product-click', url: 'https://shop.example/p/1' });
    await signals.add('w-other', id, { type: 'add-to-cart', url: 'https://shop.example/p/1' });
    expect(await counts(id)).toEqual({ add_to_cart: 2, product_clicks: 1 });
  });
});
