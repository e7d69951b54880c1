import type { EventHub, SignalEvent } from './event-hub';

// Issue 34 (DESIGN "The support team's day"): "is typing…" both ways. Not stored: the other side's open streams get a
// `typing` event now (event-hub.ts `signal`, across instances), or never. At most one a second per conversation and
// side is passed on, whatever the client sends (a widget or a console that sends on every key press costs one event a
// second; a flood costs nothing beyond its requests). Kept per instance: behind a balancer, a typist whose requests
// alternate instances may get two a second through, which the other side shows as one.

/** At most one `typing` event per conversation and side in this time. */
export const TYPING_EVERY_MS = 1000;
/** Conversations whose last typing is remembered; far more than type at once. */
const REMEMBERED = 10_000;

export interface TypingRelay {
  /** Passes the typing on, unless this side of the conversation was passed on less than a second ago: then false. */
  typing(conversationId: string, event: SignalEvent): boolean;
}

export function createTypingRelay(hub: Pick<EventHub, 'signal'>, now: () => number = Date.now): TypingRelay {
  const last = new Map<string, number>();
  return {
    typing(conversationId, event) {
      const key = `${event.role}:${conversationId}`;
      const at = now();
      const previous = last.get(key);
      if (previous !== undefined && at - previous < TYPING_EVERY_MS) return false;
      // Re-inserted so the oldest is first to forget.
      last.delete(key);
      last.set(key, at);
      if (last.size > REMEMBERED) last.delete(last.keys().next().value as string);
      hub.signal(conversationId, event);
      return true;
    },
  };
}
