import { isDeepStrictEqual } from 'node:util';
import type { StreamEvent } from '../../protocol/chat';
import { storableJson } from '../platform/database/storable';

// A turn taken over from an instance that died mid-reply runs again from the shopper's message (issue 23). What the
// first run wrote is on the shopper's screen already, and what the new run says again in the same order is not
// written twice. Text is compared as text, not event by event: the first run stored its deltas coalesced at its own
// flush times (reply-writer.ts), and the new run's deltas are cut where its engine cuts them.

/** What the first run wrote, as the shopper sees it: runs of text, and the other events between them. */
type Segment = { text: string } | { event: StreamEvent };

/** Is a new event the same as one the log holds (read back from jsonb: key order differs, strings are cleaned)? */
const sameEvent = (stored: StreamEvent, event: StreamEvent) =>
  isDeepStrictEqual(stored, JSON.parse(storableJson(event)));

/** The paragraph break written before a new run's own words, so they never run on from a cut-off sentence. */
const GAP: StreamEvent = { type: 'message.delta', text: '\n\n' };

export interface ResumeMatch {
  /**
   * The events to write for the new run's `event`: none while it says what was shown, the part of a delta past
   * what was shown, and, where it first says something else before the end of what was shown, a paragraph break first.
   */
  take(event: StreamEvent): StreamEvent[];
}

/**
 * Matches a new run's events against the ones the shopper saw.
 *
 * @example
 * const match = createResumeMatch([{ type: 'message.delta', text: 'Hello there' }]);
 * match.take({ type: 'message.delta', text: 'Hello ' }); // → [] (shown)
 * match.take({ type: 'message.delta', text: 'world' });  // → [gap, { type: 'message.delta', text: 'world' }]
 */
export function createResumeMatch(shown: readonly StreamEvent[]): ResumeMatch {
  const segments: Segment[] = [];
  for (const event of shown) {
    const last = segments.at(-1);
    if (event.type === 'message.delta' && last && 'text' in last) last.text += event.text;
    else if (event.type === 'message.delta') segments.push({ text: event.text });
    else segments.push({ event });
  }
  let at = 0;
  /** How much of the text segment at `at` the new run has said again. */
  let offset = 0;
  let diverged = segments.length === 0;
  const diverge = (event: StreamEvent): StreamEvent[] => {
    diverged = true;
    return at < segments.length ? [GAP, event] : [event];
  };
  return {
    take(event) {
      if (diverged) return [event];
      if (at >= segments.length) {
        diverged = true;
        return [event];
      }
      const segment = segments[at];
      if (event.type !== 'message.delta') {
        if ('event' in segment && sameEvent(segment.event, event)) {
          at++;
          return [];
        }
        return diverge(event);
      }
      if (!('text' in segment)) return diverge(event);
      const left = segment.text.slice(offset);
      if (left.startsWith(event.text)) {
        offset += event.text.length;
        if (offset === segment.text.length) {
          at++;
          offset = 0;
        }
        return [];
      }
      if (!event.text.startsWith(left)) return diverge(event);
      // The delta says the rest of the shown text and more: the more is new.
      at++;
      offset = 0;
      const rest: StreamEvent = { type: 'message.delta', text: event.text.slice(left.length) };
      return diverge(rest);
    },
  };
}
