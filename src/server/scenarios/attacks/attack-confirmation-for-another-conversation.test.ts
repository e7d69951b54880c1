// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfirmKit, startConfirmKit } from '../../testing/confirm-test-kit';

// Issue 18 attack: a confirmation posted in one conversation with the confirmId of another conversation's proposal
// (seen in a shared screenshot, a log, a guess). It is not found there, and the proposal stays its own
// conversation's: nothing is called, and its shopper can still answer it.

describe("attack: a confirmation for another conversation's proposal", () => {
  let kit: ConfirmKit;
  beforeAll(async () => {
    kit = await startConfirmKit('local');
  }, 60_000);
  afterAll(() => kit?.close());

  it('is 404 and calls nothing; the owner still confirms it once', async () => {
    const victim = await kit.chat();
    const { confirm } = await victim.say('cancel order 1003');
    const attacker = await kit.chat();
    expect(await attacker.answer(confirm!.id, 'yes')).toMatchObject({
      status: 404,
      error: 'unknown_confirmation',
    });
    expect(await attacker.answer('not-a-uuid', 'yes')).toMatchObject({ status: 404 });
    // The victim's own conversation route needs the victim's token: none is 401, the attacker's is 404.
    const url = `${kit.url}/v0/widget/shop/conversations/${victim.id}/confirmations/${confirm!.id}`;
    const tryWith = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"answer":"yes"}',
      });
    expect((await tryWith({})).status).toBe(401);
    expect((await tryWith({ authorization: `Bearer ${attacker.token}` })).status).toBe(404);
    expect(kit.cancellations()).toHaveLength(0);

    const yes = await victim.answer(confirm!.id, 'yes');
    expect(yes.status).toBe(200);
    expect(kit.cancellations()).toHaveLength(1);
    expect(JSON.parse(kit.cancellations()[0].body)).toMatchObject({ conversationId: victim.id });
  });
});
