import type { NotifyBus } from '../platform/notify-bus';
import type { EventHub, SignalEvent } from './event-hub';

/**
 * The event hub across instances (issue 23): a notify wakes this instance's readers at once, as before, and tells the
 * others through the bus, whose message wakes their readers of that conversation. After the bus was deaf (a lost
 * connection), every reader here reads its log again. A reader's own slow poll stays as the last safety net.
 */
export function clusterHub(hub: EventHub, bus: NotifyBus): EventHub {
  bus.subscribe('conversation', (id) => hub.notify(id));
  // Issue 34: a signal (typing) from another instance, for the streams open here.
  bus.subscribe('signal', (payload) => {
    const heard = readSignal(payload);
    if (heard) hub.signal(heard.conversationId, heard.event);
  });
  bus.onListen(() => hub.wakeAll());
  return {
    notify(conversationId, events, woke) {
      hub.notify(conversationId, events);
      if (!woke) void bus.publish('conversation', conversationId);
    },
    wakeOf: (conversationId) => bus.wakeOf?.('conversation', conversationId),
    mark: () => hub.mark(),
    recent: (conversationId, afterSeq) => hub.recent(conversationId, afterSeq),
    wait: (conversationId, timeoutMs, signal, since) => hub.wait(conversationId, timeoutMs, signal, since),
    wakeAll: () => hub.wakeAll(),
    get waiting() {
      return hub.waiting;
    },
    signal(conversationId, event) {
      hub.signal(conversationId, event);
      void bus.publish('signal', JSON.stringify({ c: conversationId, e: event }));
    },
    onSignal: (conversationId, listener) => hub.onSignal(conversationId, listener),
  };
}

/** Another instance's signal, checked: a payload that is not one is ignored (the channel is the service's own). */
function readSignal(payload: string): { conversationId: string; event: SignalEvent } | null {
  try {
    const { c, e } = JSON.parse(payload) as { c?: unknown; e?: Partial<SignalEvent> };
    if (typeof c !== 'string' || e?.type !== 'typing' || (e.role !== 'shopper' && e.role !== 'agent'))
      return null;
    const event: SignalEvent = { type: 'typing', role: e.role };
    if (typeof e.author === 'string') event.author = e.author;
    return { conversationId: c, event };
  } catch {
    return null;
  }
}
