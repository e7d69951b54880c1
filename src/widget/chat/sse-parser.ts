/** One server-sent event: `id` is the service's sequence number (the resume point), `data` still JSON text. */
export interface SseEvent {
  id?: string;
  type: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser (the subset our service sends: `id`, `event`, `data`, comment lines).
 * Feed it decoded chunks as they arrive; it calls `onEvent` once per complete event, so an event split across two
 * network chunks is never applied half. The service writes `\n` line ends only (it is ours), so `\r` is not handled.
 * @example
 * const push = createSseParser((e) => console.log(e.type, JSON.parse(e.data)));
 * push('id: 3\nevent: message.delta\ndata: {"te'); push('xt":"Hi"}\n\n'); // → message.delta { text: 'Hi' }
 */
export function createSseParser(onEvent: (event: SseEvent) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    // Walk the buffer with an index and cut it once per chunk: one network chunk may hold thousands of events.
    let from = 0;
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n', from)) {
      const block = buffer.slice(from, cut);
      from = cut + 2;
      const event: Partial<SseEvent> = { type: 'message' };
      for (const line of block.split('\n')) {
        // A line starting with ':' is a comment (the service's keep-alive); no colon: not a field we use.
        const at = line.indexOf(':');
        if (at < 1) continue;
        const field = line.slice(0, at);
        const value = line.slice(at + (line[at + 1] === ' ' ? 2 : 1));
        if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
        else if (field === 'id' || field === 'event') event[field === 'id' ? 'id' : 'type'] = value;
      }
      if (event.data !== undefined) onEvent(event as SseEvent);
    }
    buffer = buffer.slice(from);
  };
}
