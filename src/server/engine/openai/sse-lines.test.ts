// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent, SseLineTooLongError } from './sse-lines';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `input` cut at every given byte offset and returns all events, end() included. */
function parseInPieces(input: Uint8Array, cuts: number[]): SseEvent[] {
  const parser = createSseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, input.length]) {
    events.push(...parser.push(input.subarray(start, cut)));
    start = cut;
  }
  events.push(...parser.end());
  return events;
}

const STREAM =
  ': keep-alive comment\r\n' +
  'data: {"content":"Grüße 👋 "}\r\n\r\n' +
  'event: ping\n' +
  'data: first line\n' +
  'data:second line\n' +
  'data\n' +
  'id: 7\n\n' +
  'data: carriage\r\r' +
  'data: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message', data: '{"content":"Grüße 👋 "}' },
  { event: 'ping', data: 'first line\nsecond line\n', id: '7' },
  { event: 'message', data: 'carriage', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

describe('createSseParser()', () => {
  it('reads comments, CRLF, CR and LF line ends, multi-line data, event types and ids', () => {
    expect(parseInPieces(bytes(STREAM), [])).toEqual(EXPECTED);
  });

  it('gives the same events whatever the chunking, a cut inside a multibyte character or a CRLF included', () => {
    const input = bytes(STREAM);
    // Every single cut position, then every byte on its own.
    for (let cut = 1; cut < input.length; cut++) expect(parseInPieces(input, [cut])).toEqual(EXPECTED);
    expect(
      parseInPieces(
        input,
        Array.from({ length: input.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(EXPECTED);
  });

  it('decodes a character split across three chunks', () => {
    const emoji = bytes('data: 👋\n\n'); // the emoji is 4 bytes at offsets 6..9
    expect(parseInPieces(emoji, [7, 8, 9])).toEqual([{ event: 'message', data: '👋' }]);
  });

  it('does not turn a CR at the end of a chunk and an LF at the start of the next into two line ends', () => {
    const parser = createSseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\ndata: b\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([{ event: 'message', data: 'a\nb' }]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });

  it('delivers a final line that has no newline, and a final event with no blank line', () => {
    const parser = createSseParser();
    expect(parser.push('data: {"x":1}\n\ndata: [DO')).toEqual([{ event: 'message', data: '{"x":1}' }]);
    expect(parser.push('NE]')).toEqual([]);
    expect(parser.end()).toEqual([{ event: 'message', data: '[DONE]' }]);
  });

  it('strips one space after the colon only, and ignores unknown fields and blank events', () => {
    const parser = createSseParser();
    expect(parser.push('retry: 10\nfoo: bar\n\ndata:  two spaces\n\n')).toEqual([
      { event: 'message', data: ' two spaces' },
    ]);
  });

  it('drops a leading byte-order mark', () => {
    expect(parseInPieces(bytes('\uFEFFdata: x\n\n'), [1])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('refuses a line or an event longer than maxLine', () => {
    expect(() => createSseParser({ maxLine: 10 }).push('data: 0123456789')).toThrow(SseLineTooLongError);
    const parser = createSseParser({ maxLine: 10 });
    expect(() => parser.push('data: 01234\ndata: 56789\n')).toThrow(SseLineTooLongError);
  });
});
