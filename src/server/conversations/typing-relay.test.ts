import { describe, expect, it } from 'vitest';
import { createEventHub, type SignalEvent } from './event-hub';
import { createTypingRelay } from './typing-relay';

describe('typing relay', () => {
  it('passes one typing a second per conversation and side, and every side and conversation on its own', () => {
    const hub = createEventHub();
    const heard: [string, SignalEvent][] = [];
    hub.onSignal('c1', (e) => heard.push(['c1', e]));
    hub.onSignal('c2', (e) => heard.push(['c2', e]));
    let clock = 10_000;
    const relay = createTypingRelay(hub, () => clock);
    const shopper: SignalEvent = { type: 'typing', role: 'shopper' };
    const anna: SignalEvent = { type: 'typing', role: 'agent', author: 'Anna' };
    expect(relay.typing('c1', shopper)).toBe(true);
    // A key press per 100 ms: nothing more within the second.
    for (let i = 0; i < 9; i++) {
      clock += 100;
      expect(relay.typing('c1', shopper)).toBe(false);
    }
    expect(relay.typing('c1', anna)).toBe(true);
    expect(relay.typing('c2', shopper)).toBe(true);
    clock += 100;
    expect(relay.typing('c1', shopper)).toBe(true);
    expect(heard).toEqual([
      ['c1', shopper],
      ['c1', anna],
      ['c2', shopper],
      ['c1', shopper],
    ]);
  });

  it('stops reaching a stream that stopped listening', () => {
    const hub = createEventHub();
    const heard: SignalEvent[] = [];
    const stop = hub.onSignal('c1', (e) => heard.push(e));
    hub.signal('c1', { type: 'typing', role: 'shopper' });
    stop();
    hub.signal('c1', { type: 'typing', role: 'shopper' });
    expect(heard).toHaveLength(1);
  });
});
