// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ProductCard } from '../../protocol/cards';
import { foldReplyParts } from './reply-parts';

describe('foldReplyParts()', () => {
  const card: ProductCard = { url: 'https://shop.example/p', name: 'Shoe', price: '10' };

  it('joins consecutive deltas into one text part and keeps parts in stream order', () => {
    expect(
      foldReplyParts([
        { type: 'action.started', name: 'search' },
        { type: 'message.delta', text: 'Two ' },
        { type: 'message.delta', text: 'results:' },
        { type: 'action.finished', name: 'search', ok: true },
        { type: 'message.part', part: { type: 'products', cards: [card, card] } },
        { type: 'message.delta', text: 'More?' },
        { type: 'message.done', messageId: 'm' },
      ]),
    ).toEqual([
      { type: 'text', text: 'Two results:' },
      { type: 'products', cards: [card, card] },
      { type: 'text', text: 'More?' },
    ]);
  });

  it('gives no parts for no content', () => {
    expect(foldReplyParts([])).toEqual([]);
    expect(foldReplyParts([{ type: 'error', code: 'x', message: 'y' }])).toEqual([]);
  });
});
