import type { NotifyBus } from '../platform/notify-bus';
import type { EventHub } from './event-hub';

/**
 * The event hub across instances (issue 23): a notify wakes this instance's readers at once, as before, and tells the
 * others through the bus, whose message wakes their readers of that conversation. After the bus was deaf (a lost
 * connection), every reader here reads its log again. A reader's own slow poll stays as the last safety net.
 */
export function clusterHub(hub: EventHub, bus: NotifyBus): EventHub {
  bus.subscribe('conversation', (id) => hub.notify(id));
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
  };
}
