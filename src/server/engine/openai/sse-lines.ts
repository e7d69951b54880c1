// A small server-sent-events reader (WHATWG HTML "Parsing an event stream"), enough for chat-completions streams:
// bytes in any chunking → events. Lines end in CRLF, LF or CR (a CR at the end of one chunk and the LF at the start
// of the next are one line end); `:` starts a comment; several `data:` lines join with `\n`; a blank line dispatches.
// One deliberate difference from the standard: at the end of the stream, a last line without its newline and a last
// event without its blank line are still delivered, because some OpenAI-compatible servers end on `data: [DONE]`
// with nothing after it.

export interface SseEvent {
  /** `event:` field; `message` when absent. */
  event: string;
  data: string;
  /** The last `id:` seen, if any. */
  id?: string;
}

export interface SseParser {
  /** Feeds the next chunk (bytes are decoded as UTF-8, a character split across chunks included). */
  push(chunk: Uint8Array | string): SseEvent[];
  /** The stream ended: flushes the last line and the last event. */
  end(): SseEvent[];
}

/** Longest line, and largest event, accepted (characters); a server that never sends a newline cannot fill memory. */
export const SSE_MAX_LINE = 1024 * 1024;

export class SseLineTooLongError extends Error {
  override readonly name = 'SseLineTooLongError';
}

/**
 * @example
 * const parser = createSseParser();
 * parser.push('data: {"a":'); // → []
 * parser.push('1}\r\n\r\n');  // → [{ event: 'message', data: '{"a":1}' }]
 * parser.end();               // → []
 */
export function createSseParser(options: { maxLine?: number } = {}): SseParser {
  const maxLine = options.maxLine ?? SSE_MAX_LINE;
  const decoder = new TextDecoder('utf-8');
  let partial = '';
  let afterCr = false;
  let data: string[] = [];
  let dataLength = 0;
  let eventType = '';
  let lastId: string | undefined;

  const dispatch = (out: SseEvent[]) => {
    if (data.length > 0) {
      out.push({
        event: eventType || 'message',
        data: data.join('\n'),
        ...(lastId === undefined ? {} : { id: lastId }),
      });
    }
    data = [];
    dataLength = 0;
    eventType = '';
  };

  const line = (text: string, out: SseEvent[]) => {
    if (text === '') return dispatch(out);
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataLength += value.length + 1;
      if (dataLength > maxLine)
        throw new SseLineTooLongError(`an event is longer than ${maxLine} characters`);
      data.push(value);
    } else if (field === 'event') {
      eventType = value;
    } else if (field === 'id' && !value.includes('\0')) {
      lastId = value;
    }
  };

  const text = (chunk: string, out: SseEvent[]) => {
    let start = 0;
    if (afterCr && chunk.length > 0) {
      if (chunk.charCodeAt(0) === 10) start = 1;
      afterCr = false;
    }
    for (let i = start; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const whole = partial + chunk.slice(start, i);
      partial = '';
      line(whole, out);
      if (c === 13) {
        if (i + 1 === chunk.length) afterCr = true;
        else if (chunk.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    partial += chunk.slice(start);
    if (partial.length > maxLine)
      throw new SseLineTooLongError(`a line is longer than ${maxLine} characters`);
  };

  return {
    push(chunk) {
      const out: SseEvent[] = [];
      text(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), out);
      return out;
    },
    end() {
      const out: SseEvent[] = [];
      text(decoder.decode(), out);
      if (partial !== '') {
        const last = partial;
        partial = '';
        line(last, out);
      }
      dispatch(out);
      return out;
    },
  };
}
