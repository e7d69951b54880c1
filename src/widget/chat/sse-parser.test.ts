import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser';

/** Pushes the chunks, then pulls every complete event. */
const drain = (...chunks: string[]) => {
  const sse = createSseParser();
  for (const chunk of chunks) sse.push(chunk);
  const events: SseEvent[] = [];
  for (let e = sse.next(); e; e = sse.next()) events.push(e);
  return events;
};

describe('createSseParser', () => {
  it('reads id, event and data of each event', () => {
    expect(
      drain('id: 1\nevent: message.delta\ndata: {"text":"Hi"}\n\nid: 2\nevent: message.done\ndata: {}\n\n'),
    ).toEqual([
      { id: '1', type: 'message.delta', data: '{"text":"Hi"}' },
      { id: '2', type: 'message.done', data: '{}' },
    ]);
  });

  it('waits for the end of an event split across chunks, at any byte', () => {
    const wire = 'id: 7\nevent: message.delta\ndata: {"text":"a: b"}\n\n';
    for (let at = 1; at < wire.length; at++) {
      const sse = createSseParser();
      sse.push(wire.slice(0, at));
      expect(sse.next()).toBeUndefined();
      sse.push(wire.slice(at));
      expect(sse.next()).toEqual({ id: '7', type: 'message.delta', data: '{"text":"a: b"}' });
      expect(sse.next()).toBeUndefined();
    }
  });

  it('hands out events one at a time, the rest of a chunk kept for the next pull and the next push', () => {
    const sse = createSseParser();
    sse.push('data: 1\n\ndata: 2\n\ndata: 3');
    expect(sse.next()?.data).toBe('1');
    sse.push('\n\ndata: 4\n\n');
    expect([sse.next()?.data, sse.next()?.data, sse.next()?.data, sse.next()]).toEqual([
      '2',
      '3',
      '4',
      undefined,
    ]);
  });

  it('skips keep-alive comments, events without data, and lines without a field name', () => {
    expect(drain(': keep-alive\n\nevent: ping\n\nid: 4\n:data: no\nnot a field\ndata: x\n\n')).toEqual([
      { id: '4', type: 'message', data: 'x' },
    ]);
  });

  it('joins several data lines with newlines and keeps colons inside values', () => {
    expect(drain('data: one\ndata:two: 2\n\n')).toEqual([{ type: 'message', data: 'one\ntwo: 2' }]);
  });
});
