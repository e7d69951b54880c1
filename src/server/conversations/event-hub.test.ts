// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createEventHub } from './event-hub';

const settledWithin = async (p: Promise<void>, ms: number) =>
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
});
