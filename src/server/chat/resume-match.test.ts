// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/chat';
import { createResumeMatch } from './resume-match';

const delta = (text: string): StreamEvent => ({ type: 'message.delta', text });
const card: StreamEvent = {
  type: 'message.part',
  part: { type: 'text', text: 'a part' },
};
const gap = delta('\n\n');

describe('createResumeMatch()', () => {
  it('writes nothing of what the first run wrote, however the new run cuts its text', () => {
    // The first run's deltas were coalesced: "Your order is" in one event.
    const match = createResumeMatch([delta('Your order is'), card]);
    expect(match.take(delta('Your '))).toEqual([]);
    expect(match.take(delta('order '))).toEqual([]);
    expect(match.take(delta('is'))).toEqual([]);
    expect(match.take(card)).toEqual([]);
    expect(match.take(delta(' More.'))).toEqual([delta(' More.')]);
  });

  it('writes the part of a delta past the shown text, without a break when all was shown', () => {
    const match = createResumeMatch([delta('Your '), delta('ord')]);
    expect(match.take(delta('Your order '))).toEqual([delta('er ')]);
    expect(match.take(delta('ships.'))).toEqual([delta('ships.')]);
  });

  it('puts a paragraph break before words that differ from the cut-off ones', () => {
    const match = createResumeMatch([delta('Your ord')]);
    expect(match.take(delta('Your '))).toEqual([]);
    expect(match.take(delta('parcel '))).toEqual([gap, delta('parcel ')]);
    expect(match.take(delta('ships.'))).toEqual([delta('ships.')]);
  });

  it('diverges on a different part, and on text where a part was shown', () => {
    const other: StreamEvent = { type: 'message.part', part: { type: 'text', text: 'other' } };
    expect(createResumeMatch([card]).take(other)).toEqual([gap, other]);
    expect(createResumeMatch([card]).take(delta('Hi'))).toEqual([gap, delta('Hi')]);
  });

  it('writes everything of a turn that showed nothing', () => {
    const match = createResumeMatch([]);
    expect(match.take(delta('a'))).toEqual([delta('a')]);
    expect(match.take(card)).toEqual([card]);
  });
});
