// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConfirmKit, startConfirmKit } from '../../testing/confirm-test-kit';
import { textAnswer, toolCallAnswer } from '../../testing/fake-openai-server';

// docs/security.md "Confirmations", over real HTTP: what confirms, the button endpoint, the typed-yes rule, and what the shopper
// reads after a yes, for both engines.

describe('confirmations (local engine)', () => {
  let kit: ConfirmKit;
  beforeAll(async () => {
    kit = await startConfirmKit('local');
  }, 60_000);
  afterAll(() => kit?.close());
  beforeEach(() => {
    kit.integrator.requests.length = 0;
  });

  it('a confirm: true action is proposed with its parameters, and called with them after a typed "ja bitte"', async () => {
    const chat = await kit.chat();
    const proposed = await chat.say('I want to return an item from order 1003');
    expect(proposed.confirm?.text).toBe('Return an item (order_id: 1003)?');
    expect(kit.returns()).toHaveLength(0);
    const yes = await chat.say('Ja, bitte!');
    expect(kit.returns()).toHaveLength(1);
    expect(JSON.parse(kit.returns()[0].body)).toEqual({ order_id: '1003' });
    expect(yes.text).toBe('A return label for order 1003 was sent.');
    expect([...new Set(yes.events.map((e) => e.event))]).toEqual([
      'action.started',
      'action.finished',
      'message.delta',
      'message.done',
    ]);
  });

  it('an action without confirm is called at once', async () => {
    const chat = await kit.chat();
    const reply = await chat.say('Where is my order 1003?');
    expect(reply.confirm).toBeUndefined();
    expect(kit.integrator.requests.map((r) => r.pathname)).toEqual(['/status']);
  });

  it('a message that is no answer ends the proposal: the button is then 409, a later yes calls nothing', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    const other = await chat.say('Where is my order 1003?');
    expect(other.text).toBe('Order 1003: shipped.');
    expect(await chat.answer(confirm!.id, 'yes')).toMatchObject({
      status: 409,
      error: 'confirmation_closed',
    });
    await chat.say('yes');
    expect(kit.cancellations()).toHaveLength(0);
  });

  it('a newer proposal replaces the older: only the newer one can be answered', async () => {
    const chat = await kit.chat();
    const older = await chat.say('cancel order 1003');
    const newer = await chat.say('cancel order 1004');
    expect(await chat.answer(older.confirm!.id, 'yes')).toMatchObject({ status: 409 });
    expect((await chat.answer(newer.confirm!.id, 'yes')).text).toMatch(/^Order 1004 is cancelled/);
    expect(kit.cancellations().map((r) => JSON.parse(r.body).orderId)).toEqual(['1004']);
  });

  it('refuses a bad answer body with 400, and keeps the proposal open', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    expect(await chat.answer(confirm!.id, 'YES')).toMatchObject({ status: 400, error: 'invalid_request' });
    expect((await chat.answer(confirm!.id, 'yes')).status).toBe(200);
    expect(kit.cancellations()).toHaveLength(1);
  });

  it('keeps the confirm part and the answer in the history', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    await chat.answer(confirm!.id, 'no');
    const res = await fetch(`${kit.url}/v0/widget/shop/conversations/${chat.id}/messages`, {
      headers: { authorization: `Bearer ${chat.token}` },
    });
    const { messages } = (await res.json()) as {
      messages: { role: string; parts: unknown[]; clientMessageId?: string }[];
    };
    expect(messages.map((m) => [m.role, m.parts])).toEqual([
      ['user', [{ type: 'text', text: 'cancel order 1003' }]],
      ['assistant', [{ type: 'confirm', id: confirm!.id, text: 'Cancel order 1003?' }]],
      ['user', [{ type: 'text', text: 'No' }]],
      ['assistant', [{ type: 'text', text: 'Okay, order 1003 stays as it is. What else can I do for you?' }]],
    ]);
    expect(messages[2].clientMessageId).toBe(`confirm-${confirm!.id}`);
  });
});

describe('confirmations (openai engine)', () => {
  let kit: ConfirmKit;
  beforeAll(async () => {
    kit = await startConfirmKit('openai');
  }, 60_000);
  afterAll(() => kit?.close());

  it('proposes a confirm: true action; after the yes the model writes the answer from the call result', async () => {
    const model = kit.model!;
    model.enqueue(
      toolCallAnswer([{ id: 'c1', name: 'return_an_item', argumentPieces: ['{"order_id":"1003"}'] }]),
      textAnswer('Please confirm the return.'),
    );
    const chat = await kit.chat();
    const proposed = await chat.say('return order 1003 please');
    expect(proposed.confirm?.text).toBe('Return an item (order_id: 1003)?');
    expect(kit.returns()).toHaveLength(0);

    model.enqueue(textAnswer('Done: the return label is on its way.'));
    const yes = await chat.say('yes');
    expect(kit.returns()).toHaveLength(1);
    expect(yes.text).toBe('Done: the return label is on its way.');
    const last = model.body(2).messages;
    expect(last.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ function: { name: 'return_an_item', arguments: '{"order_id":"1003"}' } }],
    });
    expect(last.at(-1)?.content).toContain('A return label for order 1003 was sent.');
  });

  it('asks one question per turn: a second call in the same turn is not proposed and calls nothing', async () => {
    const model = kit.model!;
    const at = model.requests.length;
    model.enqueue(
      toolCallAnswer([
        { id: 'c1', name: 'cancel_order', argumentPieces: ['{"order_id":"1003"}'] },
        { id: 'c2', name: 'cancel_order', argumentPieces: ['{"order_id":"1004"}'] },
      ]),
      textAnswer('Please confirm.'),
    );
    const chat = await kit.chat();
    const reply = await chat.say('cancel orders 1003 and 1004');
    const parts = reply.events.filter((e) => e.event === 'message.part');
    expect(parts).toHaveLength(1);
    expect(reply.confirm?.text).toBe('Cancel order 1003?');
    const tools = model.body(at + 1).messages.filter((m) => m.role === 'tool');
    expect(tools[1]?.content).toMatch(/only one is asked at a time/);
    expect(kit.cancellations()).toHaveLength(0);
  });
});
