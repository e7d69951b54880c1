// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import { engineError, orderStatus, runTurn } from '../../testing/engine-test-harness';
import {
  type FakeOpenAiServer,
  SSE_DONE,
  sse,
  sseChunk,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';
import { COMPLETION_MAX_BYTES, TOOL_CALLS_MAX } from './stream-completion';

// The openai engine's transport, the official SDK, against a real local OpenAI-compatible server: its retries
// (Retry-After honoured), its per-request timeout, the turn's deadline around it, and the streamed tool-call fragments.

let server: FakeOpenAiServer;
beforeEach(async () => {
  server = await startFakeOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

const rateLimited = (headers: Record<string, string>) =>
  ({ kind: 'error', status: 429, body: '{"error":{"message":"slow down"}}', headers }) as const;
const gap = (i: number) => server.requests[i + 1].receivedAt - server.requests[i].receivedAt;

describe('openai engine: retries (the SDK)', () => {
  it('waits as long as a 429 Retry-After says, then retries and answers', async () => {
    server.enqueue(rateLimited({ 'retry-after': '1' }), textAnswer('Here I am.'));
    const h = runTurn(server);
    await h.result;
    expect(h.text()).toBe('Here I am.');
    expect(server.requests).toHaveLength(2);
    // The SDK's own first backoff is at most 0.5 s: a wait of about 1 s is the header's.
    expect(gap(0)).toBeGreaterThanOrEqual(950);
    expect(gap(0)).toBeLessThan(1_600);
  });

  it('honours retry-after-ms too', async () => {
    server.enqueue(rateLimited({ 'retry-after-ms': '700' }), textAnswer('ok'));
    const h = runTurn(server);
    await h.result;
    expect(server.requests).toHaveLength(2);
    expect(gap(0)).toBeGreaterThanOrEqual(680);
    expect(gap(0)).toBeLessThan(1_300);
  });

  it('fails at once, without waiting, when Retry-After asks for longer than the turn has left', async () => {
    server.enqueue(rateLimited({ 'retry-after': '120' }), textAnswer('too late'));
    const started = Date.now();
    const error = await engineError(runTurn(server, { engine: { timeoutMs: 5_000 } }).result);
    expect(error.code).toBe('model_unavailable');
    expect(error.status).toBe(429);
    expect(error.message).toBe('the model endpoint is rate limiting requests (HTTP 429)');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 500 with backoff, and answers when a retry succeeds', async () => {
    server.enqueue({ kind: 'error', status: 500 }, textAnswer('Recovered.'));
    const h = runTurn(server);
    await h.result;
    expect(h.text()).toBe('Recovered.');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a 500 after maxRetries retries with a clear model_unavailable', async () => {
    server.enqueue(
      { kind: 'error', status: 500 },
      { kind: 'error', status: 502 },
      { kind: 'error', status: 500, body: '{"error":{"message":"still broken"}}' },
      textAnswer('never reached'),
    );
    const h = runTurn(server, { engine: { maxRetries: 2 } });
    const error = await engineError(h.result);
    expect(server.requests).toHaveLength(3);
    expect(error.code).toBe('model_unavailable');
    expect(error.status).toBe(500);
    expect(error.message).toBe('the model endpoint failed (HTTP 500)');
    expect(h.events).toEqual([]);
    // Backed off between the attempts (0.5 s and 1 s, less up to 25 % jitter), not hammered.
    expect(gap(0)).toBeGreaterThanOrEqual(350);
    expect(gap(1)).toBeGreaterThanOrEqual(700);
  });

  it('does not retry a 400 (the request itself is wrong)', async () => {
    server.enqueue({ kind: 'error', status: 400 }, textAnswer('never reached'));
    const error = await engineError(runTurn(server).result);
    expect(error.status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a request whose answer does not start within requestTimeoutMs', async () => {
    server.enqueue({ kind: 'stall' }, textAnswer('Second try.'));
    const h = runTurn(server, { engine: { requestTimeoutMs: 300, maxRetries: 1 } });
    await h.result;
    expect(h.text()).toBe('Second try.');
    expect(server.requests).toHaveLength(2);
    await server.closed(0);
    expect(server.requests[0].clientAborted).toBe(true);
  });

  it('ends with model_timeout when no attempt starts answering within requestTimeoutMs', async () => {
    server.enqueue({ kind: 'stall' }, { kind: 'stall' });
    const error = await engineError(
      runTurn(server, { engine: { requestTimeoutMs: 200, maxRetries: 1 } }).result,
    );
    expect(error.code).toBe('model_timeout');
    expect(server.requests).toHaveLength(2);
  });
});

describe('openai engine: the turn deadline around the SDK', () => {
  it('ends a stalled stream at the deadline with a clear model_timeout, and closes the connection', async () => {
    server.enqueue({
      kind: 'stream',
      chunks: [sseChunk({ role: 'assistant', content: 'Let me' })],
      after: 'hang',
    });
    const started = Date.now();
    const h = runTurn(server, { engine: { timeoutMs: 400 } });
    const error = await engineError(h.result);
    expect(error.code).toBe('model_timeout');
    expect(error.message).toBe('the model did not finish within 400 ms');
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(h.text()).toBe('Let me');
    await server.closed(0);
    expect(server.requests[0].clientAborted).toBe(true);
  });

  it('does not wait out a backoff sleep the deadline falls into, and sends no retry after it', async () => {
    // No Retry-After: the SDK sleeps 0.375 to 0.5 s before its retry; the deadline comes first.
    server.enqueue({ kind: 'error', status: 503 }, textAnswer('too late'));
    const started = Date.now();
    const error = await engineError(runTurn(server, { engine: { timeoutMs: 200 } }).result);
    expect(error.code).toBe('model_timeout');
    expect(Date.now() - started).toBeLessThan(350);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.requests).toHaveLength(1);
  });

  it('ends the turn when the answer is complete, even if the server keeps the stream open after [DONE]', async () => {
    server.enqueue({ ...textAnswer('Done.'), after: 'hang' });
    const started = Date.now();
    const h = runTurn(server, { engine: { timeoutMs: 3_000 } });
    await expect(h.result).resolves.toEqual({ state: null });
    expect(h.text()).toBe('Done.');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it(`cuts an answer over ${COMPLETION_MAX_BYTES} bytes with model_bad_response and closes the connection`, async () => {
    const filler = sseChunk({ content: 'x'.repeat(60_000) });
    const chunks = Array.from({ length: Math.ceil(COMPLETION_MAX_BYTES / filler.length) + 2 }, () => filler);
    server.enqueue({ kind: 'stream', chunks, after: 'hang' });
    const h = runTurn(server, { engine: { maxTextChars: 10 * COMPLETION_MAX_BYTES } });
    const error = await engineError(h.result);
    expect(error.code).toBe('model_bad_response');
    expect(error.message).toBe(`the model's answer is over ${COMPLETION_MAX_BYTES} bytes`);
    await server.closed(0);
    expect(server.requests[0].clientAborted).toBe(true);
  });
});

describe('openai engine: streamed tool calls', () => {
  const lookup: ActionDefinition = {
    ...orderStatus,
    name: 'Track parcel',
    parameters: [{ name: 'tracking', type: 'string', required: true }],
  };

  it('assembles two tool calls whose argument fragments arrive interleaved by index, in many small chunks', async () => {
    const first = '{"order_id": "Bestellung-Ümlaut-77", "qty": 3}';
    const second = '{"tracking": "JJD0099\\u00fc"}';
    // Each argument string in pieces of 3 characters, the two calls' pieces alternating, the ids and names first.
    const pieces = (text: string) => text.match(/[\s\S]{1,3}/g) ?? [];
    const a = pieces(first);
    const b = pieces(second);
    const chunks = [
      sseChunk({ role: 'assistant', content: null }),
      sseChunk({
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'get_order_status', arguments: '' } },
        ],
      }),
      sseChunk({
        tool_calls: [
          { index: 1, id: 'call_b', type: 'function', function: { name: 'track_', arguments: '' } },
        ],
      }),
      sseChunk({ tool_calls: [{ index: 1, function: { name: 'parcel' } }] }),
    ];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i < b.length) chunks.push(sseChunk({ tool_calls: [{ index: 1, function: { arguments: b[i] } }] }));
      if (i < a.length) chunks.push(sseChunk({ tool_calls: [{ index: 0, function: { arguments: a[i] } }] }));
    }
    chunks.push(sseChunk({}, 'tool_calls'), SSE_DONE);
    expect(chunks.length).toBeGreaterThan(30);
    server.enqueue({ kind: 'stream', chunks }, textAnswer('Both found.'));

    const h = runTurn(server, { turn: { actions: [orderStatus, lookup] } });
    await h.result;
    expect(h.calls).toEqual([
      { action: 'Get order status', params: { order_id: 'Bestellung-Ümlaut-77', qty: 3 } },
      { action: 'Track parcel', params: { tracking: 'JJD0099ü' } },
    ]);
    const messages = server.body(1).messages;
    expect(messages.at(-3)?.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'get_order_status', arguments: first } },
      { id: 'call_b', type: 'function', function: { name: 'track_parcel', arguments: second } },
    ]);
    expect(messages.slice(-2).map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
  });

  it('two calls in one chunk, the second before the first, keep their order by index', async () => {
    server.enqueue(
      {
        kind: 'stream',
        chunks: [
          sseChunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 1,
                id: 'c1',
                type: 'function',
                function: { name: 'get_order_status', arguments: '{"order_id":"B"}' },
              },
              {
                index: 0,
                id: 'c0',
                type: 'function',
                function: { name: 'get_order_status', arguments: '{"order_id":"A"}' },
              },
            ],
          }),
          sseChunk({}, 'tool_calls'),
          SSE_DONE,
        ],
      },
      textAnswer('ok'),
    );
    const h = runTurn(server);
    await h.result;
    expect(h.calls.map((c) => c.params.order_id)).toEqual(['A', 'B']);
  });

  it('attack: a chunk with "index": "__proto__" pollutes no prototype and is kept apart', async () => {
    server.enqueue(
      {
        kind: 'stream',
        chunks: [
          sseChunk({ role: 'assistant', content: null }),
          sse({
            id: 'x',
            object: 'chat.completion.chunk',
            choices: [
              {
                index: 0,
                finish_reason: null,
                delta: {
                  tool_calls: [
                    {
                      index: '__proto__',
                      polluted: 'yes',
                      id: 'evil',
                      type: 'function',
                      function: { name: 'get_order_status', arguments: '{"order_id":"X"}' },
                    },
                  ],
                },
              },
            ],
          }),
          sse({
            id: 'x',
            object: 'chat.completion.chunk',
            choices: [{ index: '__proto__', polluted: 'yes', delta: {} }],
          }),
          sseChunk({}, 'tool_calls'),
          SSE_DONE,
        ],
      },
      textAnswer('ok'),
    );
    const h = runTurn(server);
    await h.result;
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Array.prototype, 'function')).toBe(false);
    // The piece without a usable index counts by its position; it is one ordinary, checked call.
    expect(h.calls).toEqual([{ action: 'Get order status', params: { order_id: 'X' } }]);
  });

  it(`keeps at most ${TOOL_CALLS_MAX} tool calls of one answer`, async () => {
    const calls = Array.from({ length: TOOL_CALLS_MAX + 10 }, (_, i) => ({
      id: `c${i}`,
      name: 'search_products',
      argumentPieces: ['{"query":"x"}'],
    }));
    server.enqueue(toolCallAnswer(calls), textAnswer('ok'));
    const h = runTurn(server);
    await h.result;
    const echoed = server.body(1).messages.find((m) => m.role === 'assistant')?.tool_calls ?? [];
    expect(echoed).toHaveLength(TOOL_CALLS_MAX);
    expect(server.body(1).messages.filter((m) => m.role === 'tool')).toHaveLength(TOOL_CALLS_MAX);
  });
});
