/** A test-side reader of `text/event-stream` responses: what a widget would see, event by event. */
export interface ReadEvent {
  id?: string;
  event: string;
  data: unknown;
}

/**
 * Reads SSE events from a fetch response until the stream ends, or until `stopAfter` returns true for an event
 * (then the connection is dropped, as a phone going into a tunnel would).
 */
export async function readSse(
  response: Response,
  stopAfter?: (e: ReadEvent, all: ReadEvent[]) => boolean,
): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf('\n\n');
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || !line.includes(':')) continue;
          const at = line.indexOf(':');
          fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
        }
        if (fields.data === undefined) continue;
        const event = { id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) };
        events.push(event);
        if (stopAfter?.(event, events)) {
          await reader.cancel();
          return events;
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  return events;
}

/** The reply text the events spell out. */
export const textOf = (events: ReadEvent[]): string =>
  events
    .filter((e) => e.event === 'message.delta')
    .map((e) => (e.data as { text: string }).text)
    .join('');
