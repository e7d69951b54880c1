/** One server-sent event: `id` is the service's sequence number (the resume point), `data` still JSON text. */
export interface SseEvent {
  id?: string;
  type: string;
  data: string;
}

export interface SseParser {
  /** Adds a decoded chunk as it arrived from the network. */
  push(chunk: string): void;
  /** The next complete event, or `undefined` until more chunks arrive. */
  next(): SseEvent | undefined;
}

/**
 * An incremental `text/event-stream` parser (the subset our service sends: `id`, `event`, `data`, comment lines).
 * Pull-based: one network chunk may hold thousands of events, and the reader takes them one at a time so it can yield
 * to the page between slices of work (issue: no long task while streaming). An event split across chunks is returned
 * only once complete. The service writes `\n` line ends only (it is ours), so `\r` is not handled.
 * @example
 * const sse = createSseParser();
 * sse.push('id: 3\nevent: message.delta\ndata: {"te'); sse.next(); // → undefined
 * sse.push('xt":"Hi"}\n\n'); sse.next(); // → { id: '3', type: 'message.delta', data: '{"text":"Hi"}' }
 */
export function createSseParser(): SseParser {
  let buffer = '';
  // Where the next event starts: the buffer is cut once per chunk, not once per event.
  let from = 0;
  return {
    push(chunk) {
      buffer = buffer.slice(from) + chunk;
      from = 0;
    },
    next() {
      for (let cut = buffer.indexOf('\n\n', from); cut >= 0; cut = buffer.indexOf('\n\n', from)) {
        const event: Partial<SseEvent> = { type: 'message' };
        for (const line of buffer.slice(from, cut).split('\n')) {
          // A line starting with ':' is a comment (the service's keep-alive); no colon: not a field we use.
          const at = line.indexOf(':');
          if (at < 1) continue;
          const field = line.slice(0, at);
          const value = line.slice(at + (line[at + 1] === ' ' ? 2 : 1));
          if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
          else if (field === 'id' || field === 'event') event[field === 'id' ? 'id' : 'type'] = value;
        }
        from = cut + 2;
        if (event.data !== undefined) return event as SseEvent;
      }
      return undefined;
    },
  };
}
