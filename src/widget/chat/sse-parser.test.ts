import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser';

const collect = () => {
  const events: SseEvent[] = [];
  return { events, push: createSseParser((e) => events.push(e)) };
};

describe('createSseParser', () => {
  it('reads id, event and data of each event', () => {
    const { events, push } = collect();
    push('id: 1\nevent: message.delta\ndata: {"text":"Hi"}\n\nid: 2\nevent: message.done\ndata: {}\n\n');
    expect(events).toEqual([
      { id: '1', type: 'message.delta', data: '{"text":"Hi"}' },
      { id: '2', type: 'message.done', data: '{}' },
    ]);
  });

  it('waits for the end of an event split across chunks, at any byte', () => {
    const wire = 'id: 7\nevent: message.delta\ndata: {"text":"a: b"}\n\n';
    for (let at = 1; at < wire.length; at++) {
      const { events, push } = collect();
      push(wire.slice(0, at));
      if (at < wire.length - 1) expect(events).toEqual([]);
      push(wire.slice(at));
      expect(events).toEqual([{ id: '7', type: 'message.delta', data: '{"text":"a: b"}' }]);
    }
  });

  it('skips keep-alive comments and events without data', () => {
    const { events, push } = collect();
    push(': keep-alive\n\nevent: ping\n\nid: 4\ndata: x\n\n');
    expect(events).toEqual([{ id: '4', type: 'message', data: 'x' }]);
  });

  it('joins several data lines with newlines', () => {
    const { events, push } = collect();
    push('data: one\ndata:two\n\n');
    expect(events).toEqual([{ type: 'message', data: 'one\ntwo' }]);
  });
});
