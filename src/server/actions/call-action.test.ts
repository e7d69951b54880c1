// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTION_ACCEPT } from '../../protocol/action-request';
import type { ActionDefinition } from '../config/service-config';
import {
  okText,
  type RecordingServer,
  type Responder,
  SSRF_CASES,
  startRecordingServer,
  testCertificate,
} from '../testing/test-servers';
import { type ActionOutcome, type CallActionOptions, callAction } from './call-action';

// Every SPEC rule of "Custom action call" over real HTTP: a local HTTPS server with a self-signed certificate (its
// certificate passed as `ca`) records what reached it, and `allowHttpLoopback` lets the call reach 127.0.0.1.

let tls: RecordingServer;
let other: RecordingServer;
let plain: RecordingServer;
let ca: string;

beforeAll(async () => {
  ca = (await testCertificate()).cert;
  [tls, other, plain] = await Promise.all([
    startRecordingServer('https'),
    startRecordingServer('https'),
    startRecordingServer('http'),
  ]);
});
afterAll(async () => {
  await Promise.all([tls.close(), other.close(), plain.close()]);
});
beforeEach(() => {
  for (const server of [tls, other, plain]) {
    server.requests.length = 0;
    server.respond = okText;
  }
});

const ids = {
  widgetId: 'demo',
  conversationId: 'conv-42',
  requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
};
const loopback = (over: Partial<CallActionOptions> = {}): CallActionOptions => ({
  allowHttpLoopback: true,
  ca,
  timeoutMs: 1000,
  ...over,
});

const action = (path: string, over: Partial<ActionDefinition> = {}): ActionDefinition => ({
  name: 'Order status',
  description: 'Looks an order up',
  method: 'POST',
  url: `${tls.url}${path}`,
  enabled: true,
  parameters: [
    { name: 'order_id', type: 'string', required: true },
    { name: 'quantity', type: 'number', required: false },
    { name: 'express', type: 'boolean', required: false },
  ],
  ...over,
});

const answer =
  (body: string, contentType = 'application/json', status = 200): Responder =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };

const product = { url: 'https://shop.example/p/mug', name: 'Mug', price: '9,90 €', description: 'Stoneware' };
const order = {
  order_id_label: 'Order',
  order_id_value: 'A-1001',
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
    ],
  },
  items: { item: [{ name: 'Mug', quantity: '2', price: '19,80 €' }] },
  total_label: 'Total',
  total_amount: '19,80 €',
  order_tracking_url: 'https://track.example/A-1001',
};
/** The order card the shopper would see, if the outcome has one. */
const orderCardOf = (outcome: ActionOutcome) =>
  outcome.ok && outcome.part?.type === 'order-card' ? outcome.part.card : undefined;

const orderXml = `<?xml version="1.0" encoding="UTF-8"?>
<order>
  <order_id_label>Order</order_id_label>
  <order_id_value>A-1001</order_id_value>
  <timeline>
    <step><label>Ordered</label><status>completed</status></step>
    <step><label>Shipped</label><status>in_progress</status></step>
  </timeline>
  <items><item><name>Mug</name><quantity>2</quantity><price>19,80 €</price></item></items>
</order>`;

describe('callAction(): the request on the wire', () => {
  it('sends the x-service headers and the version on POST, with a typed JSON body, one key per parameter', async () => {
    const outcome = await callAction(
      action('/orders'),
      { order_id: 'A-1', quantity: 2, express: true },
      ids,
      loopback(),
    );
    expect(outcome.ok).toBe(true);
    expect(tls.requests).toHaveLength(1);
    const [req] = tls.requests;
    expect(req.method).toBe('POST');
    expect(req.pathname).toBe('/orders');
    expect(req.headers).toMatchObject({
      'x-service-custom-actions-version': '2024-11-01',
      'x-service-widget-id': 'demo',
      'x-service-conversation-id': 'conv-42',
      'content-type': 'application/json',
      accept: ACTION_ACCEPT,
    });
    expect(req.headers['user-agent']).toMatch(/^service-widget\//);
    expect(JSON.parse(req.body)).toStrictEqual({ order_id: 'A-1', quantity: 2, express: true });
  });

  it('sends the x-service headers on GET, the parameters as query parameters, no body and no content-type', async () => {
    const outcome = await callAction(
      action('/orders?lang=de', { method: 'GET' }),
      { order_id: 'A 1', quantity: 2, express: false },
      ids,
      loopback(),
    );
    expect(outcome.ok).toBe(true);
    const [req] = tls.requests;
    expect(req.method).toBe('GET');
    expect(req.query).toEqual([
      ['lang', 'de'],
      ['order_id', 'A 1'],
      ['quantity', '2'],
      ['express', 'false'],
    ]);
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
    expect(req.headers['content-length']).toBeUndefined();
    expect(req.headers).toMatchObject({
      'x-service-custom-actions-version': '2024-11-01',
      'x-service-widget-id': 'demo',
      'x-service-conversation-id': 'conv-42',
    });
  });

  it('leaves out an optional parameter without a value and never forwards an undefined one', async () => {
    await callAction(action('/orders'), { order_id: 'A-1', secret: 'x' }, ids, loopback());
    expect(JSON.parse(tls.requests[0].body)).toStrictEqual({ order_id: 'A-1' });
  });

  it('POST: fills a path placeholder as one percent-encoded segment and leaves it out of the body', async () => {
    await callAction(
      action('/orders/{order_id}/status'),
      { order_id: 'a/b?c#d@e', quantity: 1 },
      ids,
      loopback(),
    );
    const [req] = tls.requests;
    expect(req.target).toBe('/orders/a%2Fb%3Fc%23d%40e/status');
    expect(decodeURIComponent(req.pathname.split('/')[2])).toBe('a/b?c#d@e');
    expect(JSON.parse(req.body)).toStrictEqual({ quantity: 1 });
    expect(req.headers.host).toBe(`localhost:${tls.port}`);
  });

  it('GET: fills placeholders in the path and the query and leaves them out of the added query', async () => {
    await callAction(
      action('/orders/{order_id}?qty={quantity}', { method: 'GET' }),
      { order_id: '../admin', quantity: 3, express: true },
      ids,
      loopback(),
    );
    const [req] = tls.requests;
    expect(req.target).toBe('/orders/..%2Fadmin?qty=3&express=true');
    expect(req.body).toBe('');
  });

  it('fails with placeholder_undefined and never calls the endpoint', async () => {
    const outcome = await callAction(
      action('/orders/{orderId}'),
      { order_id: 'A-1', orderId: 'A-1' },
      ids,
      loopback(),
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'placeholder_undefined' } });
    expect(tls.requests).toHaveLength(0);
  });

  it('fails with missing_parameter for a placeholder without a value, and never calls the endpoint', async () => {
    const outcome = await callAction(action('/orders/{quantity}'), { order_id: 'A-1' }, ids, loopback());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'missing_parameter' } });
    expect(tls.requests).toHaveLength(0);
  });

  it('fails with invalid_parameter for a value of the wrong type, and never calls the endpoint', async () => {
    const outcome = await callAction(action('/orders'), { order_id: 'A-1', quantity: '2' }, ids, loopback());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
    expect(tls.requests).toHaveLength(0);
  });

  it('fails with action_disabled for a disabled action, and never calls the endpoint', async () => {
    const outcome = await callAction(
      action('/orders', { enabled: false }),
      { order_id: 'A-1' },
      ids,
      loopback(),
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'action_disabled' } });
    expect(tls.requests).toHaveLength(0);
  });
});

describe('callAction(): HTTPS only, and never to a private address', () => {
  it('refuses http:// without allowHttpLoopback and reaches 127.0.0.1 over http:// with it', async () => {
    const def = action('/x', { url: `${plain.url}/plain` });
    const refused = await callAction(def, { order_id: '1' }, ids, { allowHttpLoopback: false });
    expect(refused).toMatchObject({ ok: false, error: { code: 'scheme_not_allowed' } });
    expect(plain.requests).toHaveLength(0);

    const allowed = await callAction(def, { order_id: '1' }, ids, loopback());
    expect(allowed).toMatchObject({ ok: true, status: 200, aiText: 'ok' });
    expect(plain.requests.map((r) => r.pathname)).toEqual(['/plain']);
  });

  it.each(SSRF_CASES)('refuses $url without calling it', async ({ url }) => {
    const def = action('/', { url: url.replace('{port}', String(tls.port)), method: 'GET', parameters: [] });
    const outcome = await callAction(def, {}, ids, { allowHttpLoopback: false, ca, timeoutMs: 1000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'address_not_allowed' } });
    expect(tls.requests).toHaveLength(0);
  });

  it.each([
    'https://10.0.0.1/',
    'http://10.0.0.1/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://0.0.0.0/',
  ])('with allowHttpLoopback, still refuses %s before connecting', async (url) => {
    const def = action('/', { url, parameters: [] });
    const outcome = await callAction(def, {}, ids, loopback());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'address_not_allowed' } });
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data', 'address_not_allowed'],
    ['http://10.0.0.1/', 'scheme_not_allowed'],
    ['http://93.184.215.14/', 'scheme_not_allowed'],
  ])('refuses a redirect to %s at the hop', async (location, code) => {
    tls.respond = (_req, res) => {
      res.writeHead(302, { location });
      res.end();
    };
    const outcome = await callAction(action('/moved'), { order_id: '1' }, ids, loopback());
    expect(outcome).toMatchObject({ ok: false, error: { code } });
    expect(tls.requests).toHaveLength(1);
  });

  it('refuses even a same-origin redirect from its loopback endpoint: allowHttpLoopback covers the configured URL only', async () => {
    // (The redirect cap itself is proven on a public host in platform/net/guarded-fetch.test.ts.)
    tls.respond = (_req, res) => {
      res.writeHead(302, { location: '/hop1' });
      res.end();
    };
    const outcome = await callAction(action('/start'), { order_id: '1' }, ids, loopback());
    expect(outcome).toMatchObject({ ok: false, error: { code: 'address_not_allowed' } });
    expect(tls.requests.map((r) => r.pathname)).toEqual(['/start']);
  });

  it('gives up with timeout when the endpoint never answers, within the deadline', async () => {
    tls.respond = () => {};
    const started = performance.now();
    const outcome = await callAction(action('/slow'), { order_id: '1' }, ids, loopback({ timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(elapsed).toBeLessThan(600);
  });

  it('cuts an endless body at the byte cap and still answers, with the first 8000 characters', async () => {
    tls.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('0123456789'.repeat(1000)), 1);
      res.on('close', () => clearInterval(timer));
    };
    const outcome = await callAction(
      action('/endless'),
      { order_id: '1' },
      ids,
      loopback({ maxBytes: 50_000 }),
    );
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    if (outcome.ok) {
      expect(outcome.aiText).toBe('0123456789'.repeat(800));
      expect(outcome.part).toEqual({ type: 'text', text: outcome.aiText });
    }
  });
});

describe('callAction(): what the AI and the user get', () => {
  it('gives the AI exactly the first 8000 characters of the body', async () => {
    const body = Array.from({ length: 9000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    tls.respond = answer(body, 'text/plain');
    const outcome = await callAction(action('/long'), { order_id: '1' }, ids, loopback());
    expect(outcome.ok && outcome.aiText).toBe(body.slice(0, 8000));
    expect(outcome.ok && outcome.aiText.length).toBe(8000);
  });

  it('counts characters, not UTF-16 units, so an emoji at the cut stays whole', async () => {
    const body = `${'a'.repeat(7999)}😀😀tail`;
    tls.respond = answer(body, 'text/plain; charset=utf-8');
    const outcome = await callAction(action('/emoji'), { order_id: '1' }, ids, loopback());
    expect(outcome.ok && outcome.aiText).toBe(`${'a'.repeat(7999)}😀`);
  });

  it('gives a short body whole, and returns it as a text part', async () => {
    tls.respond = answer('Your order **A-1** ships tomorrow.', 'text/plain');
    const outcome = await callAction(action('/text'), { order_id: '1' }, ids, loopback());
    expect(outcome).toEqual({
      ok: true,
      status: 200,
      aiText: 'Your order **A-1** ships tomorrow.',
      part: { type: 'text', text: 'Your order **A-1** ships tomorrow.' },
    });
  });

  it('turns a JSON product into a product card', async () => {
    tls.respond = answer(JSON.stringify(product));
    const outcome = await callAction(action('/product'), { order_id: '1' }, ids, loopback());
    expect(outcome).toMatchObject({
      ok: true,
      aiText: JSON.stringify(product),
      part: { type: 'product-card', card: product },
    });
  });

  it('turns a JSON array of products into a product list', async () => {
    const second = { url: 'https://shop.example/p/cup', name: 'Cup', price: '4,50 €' };
    tls.respond = answer(JSON.stringify([product, second]));
    const outcome = await callAction(action('/products'), { order_id: '1' }, ids, loopback());
    expect(outcome).toMatchObject({ ok: true, part: { type: 'products', cards: [product, second] } });
  });

  it('turns a JSON order into an order card', async () => {
    tls.respond = answer(JSON.stringify(order));
    const outcome = await callAction(action('/order'), { order_id: '1' }, ids, loopback());
    expect(outcome).toMatchObject({
      ok: true,
      part: {
        type: 'order-card',
        card: { order_id_value: 'A-1001', timeline: order.timeline, items: order.items },
      },
    });
  });

  it('turns an XML order into the same order card, which the AI reads as JSON', async () => {
    tls.respond = answer(orderXml, 'application/xml');
    const outcome = await callAction(
      action('/order.xml', { method: 'GET' }),
      { order_id: '1' },
      ids,
      loopback(),
    );
    expect(outcome.ok && JSON.parse(outcome.aiText)).toEqual(orderCardOf(outcome));
    expect(outcome).toMatchObject({
      ok: true,
      part: {
        type: 'order-card',
        card: {
          order_id_label: 'Order',
          order_id_value: 'A-1001',
          timeline: order.timeline,
          items: order.items,
        },
      },
    });
  });

  it('shows a product with a javascript: URL as a card without the link, and the AI reads that card', async () => {
    tls.respond = answer(JSON.stringify({ ...product, url: 'javascript:alert(1)' }));
    const outcome = await callAction(action('/x'), { order_id: '1' }, ids, loopback());
    const { url: _, ...unlinked } = product;
    expect(outcome).toEqual({
      ok: true,
      status: 200,
      aiText: JSON.stringify(unlinked),
      part: { type: 'product-card', card: unlinked },
    });
  });

  it('shows an order with 6 steps and an unknown status as a card of its readable steps', async () => {
    const steps = [...Array(5).fill(order.timeline.step[0]), { label: 'x', status: 'done' }];
    tls.respond = answer(
      JSON.stringify({ ...order, timeline: { step: [{ label: 'x', status: 'done' }, ...steps] } }),
    );
    const outcome = await callAction(action('/x'), { order_id: '1' }, ids, loopback());
    expect(orderCardOf(outcome)?.timeline.step).toEqual(Array(5).fill(order.timeline.step[0]));
  });

  it.each([
    ['broken JSON', '{"url": "https://shop.example/p/1", "name": ', 'application/json'],
    ['JSON that is no card', '{"status":"shipped","eta":"tomorrow"}', 'application/json'],
    ['a product without a name', JSON.stringify({ ...product, name: '' }), 'application/json'],
    ['JSON sent as text/plain', '[{"sku":"M-1","stock":3}]', 'text/plain'],
    ['an HTML page', '<!doctype html><html><body><h1>Order A-1</h1></body></html>', 'text/html'],
    ['XML that is not an order', '<?xml version="1.0"?><invoice><id>1</id></invoice>', 'application/xml'],
  ])(
    'gives the AI %s as it is, and the shopper no part of it (the engine says it in words)',
    async (_label, body, contentType) => {
      tls.respond = answer(body, contentType);
      const outcome = await callAction(action('/x'), { order_id: '1' }, ids, loopback());
      expect(outcome).toEqual({ ok: true, status: 200, aiText: body });
    },
  );

  it('passes markdown that starts with a link to the shopper as it is', async () => {
    const body = '[Track your parcel](https://track.example/1): it arrives tomorrow.';
    tls.respond = answer(body, 'text/plain');
    const outcome = await callAction(action('/x'), { order_id: '1' }, ids, loopback());
    expect(outcome).toEqual({ ok: true, status: 200, aiText: body, part: { type: 'text', text: body } });
  });

  it.each([404, 500, 503])(
    'fails with http_error and the status on %i, whatever the body',
    async (status) => {
      tls.respond = answer(JSON.stringify(product), 'application/json', status);
      const outcome = await callAction(action('/broken'), { order_id: '1' }, ids, loopback());
      expect(outcome).toEqual({
        ok: false,
        status,
        error: { code: 'http_error', message: `the endpoint answered HTTP ${status}` },
      });
    },
  );

  it('answers 204 No Content with empty text', async () => {
    tls.respond = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const outcome = await callAction(action('/empty'), { order_id: '1' }, ids, loopback());
    expect(outcome).toEqual({ ok: true, status: 204, aiText: '', part: { type: 'text', text: '' } });
  });
});
