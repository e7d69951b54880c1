// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/chat';
import { createReplyWriter } from './reply-writer';

const delta = (text: string): StreamEvent => ({ type: 'message.delta', text });
const part: StreamEvent = { type: 'message.part', part: { type: 'text', text: 'card' } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A writer over an in-memory log; `appendMs` makes each store take that long. */
function writerOver(options: { flushMs?: number; appendMs?: number; failAt?: number } = {}) {
  const log: StreamEvent[] = [];
  /** The events of each store, one statement each. */
  const statements: StreamEvent[][] = [];
  let wakes = 0;
  const writer = createReplyWriter({
    flushMs: options.flushMs ?? 40,
    async append(events) {
      if (options.appendMs) await sleep(options.appendMs);
      if (options.failAt !== undefined && log.length === options.failAt)
        throw Object.assign(new Error('lease'), { code: 'lease_lost' });
      statements.push(events);
      log.push(...events);
      return log.length - events.length + 1;
    },
    written: () => wakes++,
  });
  return { writer, log, statements, wakes: () => wakes };
}

describe('createReplyWriter()', () => {
  it('stores a reply of many words as one delta when nothing else comes between them', async () => {
    const { writer, log, wakes } = writerOver();
    for (const word of 'the quick brown fox jumps over the lazy dog'.split(' '))
      await writer.write(delta(`${word} `));
    expect(log).toEqual([]);
    await writer.flush();
    expect(log).toEqual([delta('the quick brown fox jumps over the lazy dog ')]);
    expect(wakes()).toBe(1);
  });

  it('writes the waiting text once its time is up, so a slow stream still reaches the shopper', async () => {
    const { writer, log } = writerOver({ flushMs: 30 });
    await writer.write(delta('Hello '));
    await sleep(80);
    expect(log).toEqual([delta('Hello ')]);
    await writer.write(delta('again'));
    await writer.flush();
    expect(log).toEqual([delta('Hello '), delta('again')]);
  });

  it('keeps the order of text and parts, and writes what one flush holds in one statement', async () => {
    const { writer, log, statements } = writerOver({ appendMs: 5 });
    await writer.write(delta('Here '));
    await writer.write(delta('it is:'));
    await writer.write(part);
    await writer.write(delta('More?'));
    await writer.flush();
    expect(log).toEqual([delta('Here it is:'), part, delta('More?')]);
    expect(statements).toHaveLength(1);
  });

  it('writes a part its flush time after it, with what came meanwhile, not at once', async () => {
    const { writer, statements } = writerOver({ flushMs: 30 });
    const started: StreamEvent = { type: 'action.started', name: 'Get order status' };
    await writer.write(started);
    expect(statements).toEqual([]);
    await writer.write(part);
    await sleep(80);
    expect(statements).toEqual([[started, part]]);
  });

  it('hands over what it still holds, after the writes under way, for the reply’s end to write', async () => {
    const { writer, log, statements } = writerOver({ flushMs: 10, appendMs: 30 });
    await writer.write(delta('first'));
    await sleep(20); // the timed write is under way
    await writer.write(part);
    const held = await writer.takeHeld();
    expect(log).toEqual([delta('first')]);
    expect(held).toEqual([part]);
    await sleep(30);
    // Held no more: nothing else is written.
    expect(statements).toHaveLength(1);
  });

  it('makes the engine’s next call fail when a timed write failed (a lost lease), and writes nothing after it', async () => {
    const { writer, log } = writerOver({ flushMs: 10, failAt: 0 });
    await writer.write(delta('before '));
    await sleep(40);
    await expect(writer.write(delta('after'))).rejects.toMatchObject({ code: 'lease_lost' });
    await expect(writer.flush()).rejects.toMatchObject({ code: 'lease_lost' });
    expect(log).toEqual([]);
  });

  it('forgets the waiting text when discarded: a turn that lost its lease writes nothing more', async () => {
    const { writer, log } = writerOver({ flushMs: 10 });
    await writer.write(delta('never shown'));
    writer.discard();
    await sleep(40);
    await writer.write(part);
    expect(log).toEqual([]);
  });
});
