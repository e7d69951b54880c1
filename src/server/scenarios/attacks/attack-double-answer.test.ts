// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConfirmKit, startConfirmKit } from '../../testing/confirm-test-kit';

// Issue 18 attack: the same yes sent twice (a double click, a retry after a lost response, two tabs, a script). The
// call is made once: a repeated yes re-attaches to the first answer's turn; a different answer afterwards, or a typed
// yes after it, is refused or finds nothing to confirm.

describe('attack: a double answer', () => {
  let kit: ConfirmKit;
  beforeAll(async () => {
    kit = await startConfirmKit('local');
  }, 60_000);
  afterAll(() => kit?.close());
  beforeEach(() => {
    kit.integrator.requests.length = 0;
  });

  it('two yes at once: one call, and both streams are the one answer turn', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    const [a, b] = await Promise.all([chat.answer(confirm!.id, 'yes'), chat.answer(confirm!.id, 'yes')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.replyId).toBe(b.replyId);
    expect(a.text).toBe('Order 1003 is cancelled. The refund is on its way.');
    expect(b.text).toBe(a.text);
    expect(kit.cancellations()).toHaveLength(1);
  });

  it('a yes again later re-attaches to the first turn; a no after it is 409; a typed yes calls nothing', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    const first = await chat.answer(confirm!.id, 'yes');
    const again = await chat.answer(confirm!.id, 'yes');
    expect(again.status).toBe(200);
    expect(again.replyId).toBe(first.replyId);
    expect(again.last).toBe('message.done');
    const no = await chat.answer(confirm!.id, 'no');
    expect(no).toMatchObject({ status: 409, error: 'confirmation_closed' });
    await chat.say('yes');
    expect(kit.cancellations()).toHaveLength(1);
  });

  it('a typed yes, then the button: one call, the button gets 409', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    expect((await chat.say('yes please')).text).toBe('Order 1003 is cancelled. The refund is on its way.');
    expect(await chat.answer(confirm!.id, 'yes')).toMatchObject({
      status: 409,
      error: 'confirmation_closed',
    });
    expect(kit.cancellations()).toHaveLength(1);
  });
});
