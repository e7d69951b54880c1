// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createEventHub } from './event-hub';

const settledWithin = async (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('event hub', () => {
  it('wakes the readers of a conversation, and only of that one', async () => {
    const hub = createEventHub();
    const a = hub.wait('a', 5000);
    const b = hub.wait('b', 5000);
    hub.notify('a');
    expect(await settledWithin(a, 100)).toBe(true);
    expect(await settledWithin(b, 50)).toBe(false);
    hub.notify('b');
    await b;
    expect(hub.waiting).toBe(0);
  });

  it('ends a wait at once when the conversation was notified after the reader took its mark', async () => {
    const hub = createEventHub();
    const mark = hub.mark();
    hub.notify('a'); // lands between "read the log" and "wait"
    expect(await settledWithin(hub.wait('a', 5000, undefined, mark), 50)).toBe(true);
    // A mark taken after the notify does not see it.
    expect(await settledWithin(hub.wait('a', 200, undefined, hub.mark()), 50)).toBe(false);
  });

  it('leaves nothing behind when waits time out or are aborted', async () => {
    const hub = createEventHub();
    const controller = new AbortController();
    const aborted = hub.wait('a', 5000, controller.signal);
    const timed = hub.wait('a', 20);
    expect(hub.waiting).toBe(2);
    controller.abort();
    await Promise.all([aborted, timed]);
    expect(hub.waiting).toBe(0);
  });

  it('tells a wait that was woken from one that timed out or was aborted (the reader then reads the log)', async () => {
    const hub = createEventHub();
    const woken = hub.wait('a', 5000);
    hub.notify('a');
    expect(await woken).toBe(true);
    expect(await hub.wait('a', 5000, undefined, hub.mark() - 1)).toBe(true);
    expect(await hub.wait('a', 10)).toBe(false);
    const controller = new AbortController();
    const aborted = hub.wait('a', 5000, controller.signal);
    controller.abort();
    expect(await aborted).toBe(false);
  });
});

describe('event hub: events handed over in process', () => {
  const stored = (seq: number, text = `e${seq}`) => ({
    seq,
    messageId: 'm',
    event: { type: 'message.delta' as const, text },
    createdAt: new Date(0).toISOString(),
  });

  it('hands a reader the events announced after its seq, without a read', () => {
    const hub = createEventHub();
    hub.notify('a', [stored(5)]);
    hub.notify('a', [stored(6), stored(7)]);
    expect(hub.recent('a', 4)?.map((e) => e.seq)).toEqual([5, 6, 7]);
    expect(hub.recent('a', 6)?.map((e) => e.seq)).toEqual([7]);
  });

  it('hands nothing when it does not hold the next event: the reader reads the log', () => {
    const hub = createEventHub();
    hub.notify('a', [stored(5)]);
    // Past what it holds (an event it was not given).
    expect(hub.recent('a', 6)).toBeNull();
    // Behind the first held event.
    expect(hub.recent('a', 3)).toBeNull();
    // An event announced out of order leaves a gap: only the events after it are handed.
    hub.notify('a', [stored(7)]);
    expect(hub.recent('a', 5)).toBeNull();
    expect(hub.recent('a', 6)?.map((e) => e.seq)).toEqual([7]);
  });

  it('says "nothing newer" to a reader at its last event, so the reader waits without reading the log', () => {
    const hub = createEventHub();
    hub.notify('a', [stored(5), stored(6)]);
    expect(hub.recent('a', 6)).toEqual([]);
  });

  it('forgets what it held when something is stored without its content (a message, another instance)', () => {
    const hub = createEventHub();
    hub.notify('a', [stored(5)]);
    hub.notify('a');
    expect(hub.recent('a', 4)).toBeNull();
    // Nor does it say "nothing newer" any more: the reader reads the log, where the unannounced event is.
    expect(hub.recent('a', 5)).toBeNull();
  });

  it('holds a bounded number of events per conversation', () => {
    const hub = createEventHub();
    for (let seq = 1; seq <= 100; seq++) hub.notify('a', [stored(seq)]);
    expect(hub.recent('a', 0)).toBeNull();
    expect((hub.recent('a', 90) ?? []).length).toBe(10);
  });
});
