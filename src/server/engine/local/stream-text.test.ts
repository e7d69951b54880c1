import { describe, expect, it } from 'vitest';
import type { ReplyEvent } from '../../core/engine';
import { streamText } from './stream-text';

describe('streamText()', () => {
  it('says the whole text as one delta (the reply writer would join word deltas into one event anyway)', async () => {
    const said: ReplyEvent[] = [];
    await streamText('Your order ships today.', async (e) => {
      said.push(e);
    });
    expect(said).toEqual([{ type: 'delta', text: 'Your order ships today.' }]);
  });

  it('says nothing for no text', async () => {
    const said: ReplyEvent[] = [];
    await streamText('', async (e) => {
      said.push(e);
    });
    expect(said).toEqual([]);
  });
});
