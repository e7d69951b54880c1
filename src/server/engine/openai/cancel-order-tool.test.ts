// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import type { CancelOrderResult, EngineTurn, ReplyEvent } from '../../core/engine';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';
import { createOpenAiEngine } from './create-openai-engine';

// The order-cancellation webhook as the openai engine's `cancel_order` tool, against a real local chat-completions
// server that scripts the model's tool calls.

let server: FakeOpenAiServer;
beforeEach(async () => {
  server = await startFakeOpenAiServer();
});
afterEach(() => server.close());

const cancelAction: ActionDefinition = {
  name: 'Cancel order',
  description: 'A custom action that happens to have the same name.',
  method: 'POST',
  url: 'https://shop.example/cancel',
  parameters: [],
  enabled: true,
};

function run(result: CancelOrderResult | null, actions: ActionDefinition[] = []) {
  const events: ReplyEvent[] = [];
  const cancels: { orderId: string; reason?: string }[] = [];
  const engine = createOpenAiEngine({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'm' });
  const turn: EngineTurn = {
    widgetId: 'shop',
    conversationId: 'c1',
    history: [],
    message: 'Yes, cancel order 1004 please.',
    userData: null,
    customInstructions: null,
    actions,
    state: null,
    signal: new AbortController().signal,
    tools: {
      callAction: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
      searchKnowledge: async () => [],
      searchProducts: async () => [],
      ...(result
        ? {
            cancelOrder: async (request: { orderId: string; reason?: string }) => {
              cancels.push(request);
              return result;
            },
          }
        : {}),
    },
  };
  const done = engine.reply(turn, async (e) => {
    events.push(e);
  });
  return { done, events, cancels };
}

const call = (args: string) =>
  toolCallAnswer([{ id: 'call_1', name: 'cancel_order', argumentPieces: [args] }]);
const toolMessage = () => server.body(1).messages.at(-1);

describe('openai engine: cancel_order', () => {
  it('is offered, beside the two searches, only when the widget has the webhook; an action keeps its own tool', async () => {
    server.enqueue(textAnswer('Hi'), textAnswer('Hi'));
    await run({ ok: true, cancelled: true, reason: '' }, [cancelAction]).done;
    await run(null, [cancelAction]).done;
    const names = (i: number) => server.body(i).tools?.map((t) => t.function.name);
    expect(names(0)).toEqual([
      'search_products',
      'search_store_info',
      'offer_choices',
      'cancel_order',
      'cancel_order_2',
    ]);
    expect(names(1)).toEqual(['search_products', 'search_store_info', 'offer_choices', 'cancel_order']);
    const tool = server.body(0).tools?.find((t) => t.function.name === 'cancel_order');
    expect(tool?.function.description).toMatch(/cancelled only after their yes/);
    expect(tool?.function.parameters).toMatchObject({ required: ['order_id'], additionalProperties: false });
  });

  it('calls the webhook with the order and reason, and gives the model its answer as JSON', async () => {
    server.enqueue(
      call('{"order_id":"#1004","reason":"Ordered twice"}'),
      textAnswer('Done: order 1004 is cancelled.'),
    );
    const h = run({ ok: true, cancelled: true, reason: 'Refund on its way.' });
    await h.done;
    expect(h.cancels).toEqual([{ orderId: '1004', reason: 'Ordered twice' }]);
    expect(h.events.slice(0, 2)).toEqual([
      { type: 'action.started', name: 'Cancel order' },
      { type: 'action.finished', name: 'Cancel order', ok: true },
    ]);
    expect(toolMessage()).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content:
        '<third_party_data source="the store\'s order system">\n' +
        '{"order_id":"1004","cancelled":true,"reason":"Refund on its way."}\n</third_party_data>',
    });
  });

  it('passes on a refusal as cancelled: false', async () => {
    server.enqueue(call('{"order_id":"1002"}'), textAnswer('It has shipped.'));
    await run({ ok: true, cancelled: false, reason: 'Already shipped.' }).done;
    expect(toolMessage()?.content).toBe(
      '<third_party_data source="the store\'s order system">\n' +
        '{"order_id":"1002","cancelled":false,"reason":"Already shipped."}\n</third_party_data>',
    );
  });

  it('tells the model it cannot confirm anything when the integrator answered garbage, and not cancelled when down', async () => {
    server.enqueue(call('{"order_id":"1004"}'), textAnswer('Sorry.'));
    const garbage = run({
      ok: false,
      error: { code: 'invalid_response', message: 'cancelled: is required' },
    });
    await garbage.done;
    expect(garbage.events[1]).toEqual({ type: 'action.finished', name: 'Cancel order', ok: false });
    expect(toolMessage()?.content).toMatch(/^Error: .*unknown whether order 1004 was cancelled/);

    server.enqueue(call('{"order_id":"1004"}'), textAnswer('Sorry.'));
    await run({ ok: false, error: { code: 'timeout', message: 'no answer' } }).done;
    expect(server.body(3).messages.at(-1)?.content).toMatch(
      /could not be reached \(timeout\); order 1004 was not/,
    );
  });

  it.each([
    ['{}', '"order_id" is required'],
    ['{"order_id":""}', '"order_id" is required'],
    ['{"order_id":42}', '"order_id" is required'],
    [`{"order_id":"${'9'.repeat(101)}"}`, 'at most 100 characters'],
    ['{"order_id":"1","reason":7}', '"reason" must be a string'],
    ['{"order_id":"1","refund":true}', 'unknown parameter(s): "refund"'],
  ])('refuses the arguments %s without calling the webhook', async (args, problem) => {
    server.enqueue(call(args), textAnswer('Sorry.'));
    const h = run({ ok: true, cancelled: true, reason: '' });
    await h.done;
    expect(h.cancels).toEqual([]);
    expect(toolMessage()?.content).toContain(problem);
    expect(toolMessage()?.content).toMatch(/Nothing was cancelled\.$/);
  });

  it('answers a cancel_order call on a widget without the webhook as an unknown tool', async () => {
    server.enqueue(call('{"order_id":"1004"}'), textAnswer('Sorry.'));
    await run(null).done;
    expect(toolMessage()?.content).toMatch(/^Error: there is no tool named "cancel_order"/);
  });
});
