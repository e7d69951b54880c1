// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderCard } from '../../src/protocol/cards';
import { parseConfig } from '../../src/server/config/service-config';
import { type RunningService, startService } from '../../src/server/start';
import { type ReadEvent, readSse, textOf } from '../../src/server/testing/sse-reader';
import {
  DEMO_AGENTS,
  DEMO_IDENTITY_SECRET,
  DEMO_SIGNING_SECRET,
  DEMO_SIGNING_SECRET_ENV,
  DEMO_SMTP_ENV,
  demoServiceConfig,
} from '../demo-servers';
import { demoIdentityToken } from '../store-server';
import { ORDER_ANSWERS, type RunningIntegrator, startIntegrator } from './integrator-server';

// Issue 31 items 5 and 7 and "a cancellation of an order already cancelled", through the demo as a shopper meets it:
// the demo's service config (local engine) over real HTTP, the widget API read as the widget reads it (SSE), and the
// demo integrator, verifying every call's signature. A guest sees an order only with its email; a signed-in customer
// sees their own; every answer and every card is in the shopper's language.

let integrator: RunningIntegrator;
let service: RunningService;
beforeAll(async () => {
  process.env[DEMO_SIGNING_SECRET_ENV] ??= DEMO_SIGNING_SECRET;
  // The demo config sends email (issue 33); these tests leave no address, so nothing is ever sent to this port.
  process.env[DEMO_SMTP_ENV] ??= 'smtp://127.0.0.1:9';
  process.env.DEMO_IDENTITY_SECRET ??= DEMO_IDENTITY_SECRET;
  for (const agent of DEMO_AGENTS) process.env[agent.keyEnv] ||= agent.key;
  integrator = await startIntegrator({ port: 0, signingSecret: process.env[DEMO_SIGNING_SECRET_ENV] });
  const config = parseConfig(demoServiceConfig(['http://127.0.0.1:5173'], integrator.url));
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await integrator?.close();
});

interface Answer {
  text: string;
  card?: OrderCard;
  confirm?: { id: string; text: string };
}

/** A conversation on the demo widget; `customer` signs in as the demo store's page does with `?customer=`. */
async function shopper(options: { customer?: string; locale?: string } = {}) {
  const base = `${service.url}/v0/widget/demo/conversations`;
  const identityToken = options.customer
    ? await demoIdentityToken(process.env.DEMO_IDENTITY_SECRET, options.customer)
    : undefined;
  const post = (url: string, body: unknown, token?: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const created = await post(base, { locale: options.locale ?? 'en', identityToken });
  expect(created.status).toBe(201);
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  let n = 0;
  return async (text: string): Promise<Answer> => {
    const res = await post(
      `${base}/${conversationId}/messages`,
      { clientMessageId: `m${++n}`, text, ...(identityToken && { identityToken }) },
      token,
    );
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const parts = events
      .filter((e: ReadEvent) => e.event === 'message.part')
      .map((e) => (e.data as { part: { type: string; card?: OrderCard; id?: string; text?: string } }).part);
    const card = parts.find((p) => p.type === 'order-card')?.card;
    const confirm = parts.find((p) => p.type === 'confirm') as { id: string; text: string } | undefined;
    return { text: textOf(events), ...(card && { card }), ...(confirm && { confirm }) };
  };
}

const orderCalls = () => integrator.requests.filter((r) => r.path.startsWith('/orders/')).length;

describe('the demo: where is my order, as a guest', () => {
  it('"Wo ist meine Bestellung 1001?" asks for the email in German and shows nothing; with it, a German card', async () => {
    const say = await shopper({ locale: 'en' });
    const before = orderCalls();
    const asked = await say('Wo ist meine Bestellung 1001?');
    expect(asked.text).toMatch(/^Um Ihnen die Bestellung zu zeigen, brauche ich die E-Mail-Adresse/);
    expect(asked.card).toBeUndefined();
    expect(orderCalls()).toBe(before);
    const shown = await say('ada@example.com');
    expect(shown.text).toBe('Hier ist Bestellung 1001:');
    expect(shown.card).toMatchObject({
      order_id_label: 'Bestellnummer',
      order_id_value: '1001',
      total_label: 'Gesamt (inkl. MwSt.)',
      customer_name: 'Ada Lovelace',
      payment_method_value: 'Kreditkarte',
    });
    expect(shown.card?.timeline.step.map((s) => s.label)).toEqual([
      'Bestellt',
      'Bezahlt',
      'Versandt',
      'Zugestellt',
    ]);
  });

  it('in English, the same order in English words', async () => {
    const say = await shopper({ locale: 'de' });
    const shown = await say('Where is my order 1001? My email is ada@example.com');
    expect(shown.text).toBe('Here is order 1001:');
    expect(shown.card).toMatchObject({ order_id_label: 'Order number', total_label: 'Total (incl. VAT)' });
  });

  it('a wrong email gets the same answer as an unknown order, and no details', async () => {
    const wrong = await (await shopper())('Where is my order 1001? My email is eve@example.com');
    const unknown = await (await shopper())('Where is my order 9876? My email is ada@example.com');
    expect(wrong).toEqual({ text: ORDER_ANSWERS.en.notFound });
    expect(unknown).toEqual({ text: ORDER_ANSWERS.en.notFound });
    const german = await (await shopper())('Wo ist meine Bestellung 1001? Meine E-Mail ist eve@example.com');
    expect(german).toEqual({ text: ORDER_ANSWERS.de.notFound });
  });
});

describe('the demo: where is my order, signed in', () => {
  it('"Wo ist meine Bestellung 1001?" shows ada her order at once, in German', async () => {
    const say = await shopper({ customer: 'ada', locale: 'en' });
    const shown = await say('Wo ist meine Bestellung 1001?');
    expect(shown.text).toBe('Hier ist Bestellung 1001:');
    expect(shown.card).toMatchObject({ order_id_label: 'Bestellnummer', customer_name: 'Ada Lovelace' });
  });

  it("another customer's order is no order of hers", async () => {
    const say = await shopper({ customer: 'ada' });
    expect(await say('Where is my order 1002?')).toEqual({ text: ORDER_ANSWERS.en.notFound });
  });
});

describe('the demo: cancelling, in the shopper language, and an order cancelled already', () => {
  it('cancels 1003 in German, with the German reason', async () => {
    const say = await shopper({ locale: 'en' });
    const asked = await say('Bitte Bestellung 1003 stornieren');
    expect(asked.confirm?.text).toBe('Bestellung 1003 stornieren?');
    const done = await say('ja');
    expect(done.text).toBe(
      'Bestellung 1003 ist storniert. Es wurde keine Zahlung eingezogen, daher gibt es nichts zu erstatten.',
    );
  });

  it('says 1004 is cancelled already, with its card, and asks nothing, once the store shows it so', async () => {
    const guest = await shopper();
    const asked = await guest('Please cancel my order 1004');
    expect(asked.confirm).toBeDefined();
    expect((await guest('yes')).text).toMatch(/^Order 1004 is cancelled\./);

    // The owner, signed in: the lookup shows the cancellation, so there is no question.
    const hedy = await shopper({ customer: 'hedy' });
    const again = await hedy('Please cancel my order 1004');
    expect(again.confirm).toBeUndefined();
    expect(again.text).toBe('Order 1004 is already cancelled, so there is nothing more to do:');
    expect(again.card?.timeline.step.at(-1)).toEqual({ label: 'Cancelled', status: 'completed' });

    // A guest with the order's email, in German.
    const german = await (await shopper())('Bestellung 1004 stornieren, meine E-Mail ist hedy@example.com');
    expect(german.confirm).toBeUndefined();
    expect(german.text).toBe('Bestellung 1004 ist bereits storniert, es ist nichts weiter zu tun:');
    expect(german.card?.timeline.step.at(-1)).toEqual({ label: 'Storniert', status: 'completed' });
  });
});
