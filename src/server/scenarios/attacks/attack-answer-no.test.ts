// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConfirmKit, startConfirmKit } from '../../testing/confirm-test-kit';

// Issue 18 attack: the shopper says no, and something then tries to turn it into a yes (the button pressed after the
// no, a typed yes after it). A no makes no call, and it is final.

describe('attack: a yes after the shopper said no', () => {
  let kit: ConfirmKit;
  beforeAll(async () => {
    kit = await startConfirmKit('local');
  }, 60_000);
  afterAll(() => kit?.close());
  beforeEach(() => {
    kit.integrator.requests.length = 0;
  });

  it('the No button: zero calls, the shopper is told; a later yes is 409 and a typed yes calls nothing', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('cancel order 1003');
    const no = await chat.answer(confirm!.id, 'no');
    expect(no.status).toBe(200);
    expect(no.text).toBe('Okay, order 1003 stays as it is. What else can I do for you?');
    expect(no.last).toBe('message.done');
    expect(await chat.answer(confirm!.id, 'yes')).toMatchObject({
      status: 409,
      error: 'confirmation_closed',
    });
    await chat.say('yes');
    expect(kit.cancellations()).toHaveLength(0);
  });

  it('a typed no ("nein danke"): zero calls, and the button afterwards is 409', async () => {
    const chat = await kit.chat();
    const { confirm } = await chat.say('Bestellung 1003 stornieren');
    // Asked and answered in German: the service's own words follow the shopper's language.
    expect(confirm?.text).toBe('Bestellung 1003 stornieren?');
    expect((await chat.say('nein danke')).text).toBe(
      'In Ordnung, Bestellung 1003 bleibt, wie sie ist. Was kann ich sonst für Sie tun?',
    );
    expect((await chat.answer(confirm!.id, 'yes')).status).toBe(409);
    expect(kit.cancellations()).toHaveLength(0);
  });
});
