// The demo integrator: what a merchant's back end hosts for the service (SPEC "Custom action call", "Product
// feed"). Four custom-action endpoints, the schema.org product feed and the pictures the cards and the feed point at.
// It checks the x-service headers the way a careful integrator would (with a signing secret, it verifies every call's
// signature first and refuses one that fails with 401), keeps no state, and logs only when asked.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { verifyServiceSignature } from '../../src/client/verify-service-signature';
import { buildFeed } from './feed';
import { IMAGES } from './images';
import { orderAccess } from './order-access';
import { createOrderCancellations, SUPPORTED_WEBHOOK_VERSION } from './order-cancellation';
import { orderToXml } from './order-xml';
import { orderCard } from './orders';
import { HOSTILE_PRODUCT_SKU, hostileProductCard, searchProducts, toProductCardJson } from './product-search';
import { type DemoLanguage, shopperLanguage } from './shopper-language';
import { DEMO_HELP_DOCUMENT, DEMO_HELP_DOCUMENT_PATH } from './store-knowledge';

/** SPEC "Versioning": the custom-actions version this integrator speaks. */
export const SUPPORTED_ACTIONS_VERSION = '2024-11-01';
/** A lookup body is `{"query": "…"}`; anything this big is not one. */
const LOOKUP_MAX_BYTES = 8 * 1024;
/** An order-cancellation request is a few hundred bytes, user data included. */
const WEBHOOK_MAX_BYTES = 64 * 1024;

/**
 * What an order lookup answers when it shows no order, in the shopper's language. HTTP 200 and plain text, so that
 * the assistant reads it and the shopper sees it (the service never shows the body of an error status). The same
 * `notFound` for an unknown number and for a known one with the wrong email or customer: no oracle.
 */
export const ORDER_ANSWERS = {
  en: {
    needsProof:
      'To show an order I need the email address it was placed with, together with its number. Signed-in ' +
      'customers see their own orders without it.',
    notFound:
      'No order matches that number and those details. Please check the order number and the email address in ' +
      'your order confirmation.',
  },
  de: {
    needsProof:
      'Um eine Bestellung zu zeigen, brauche ich die E-Mail-Adresse, mit der sie aufgegeben wurde, zusammen mit ' +
      'der Bestellnummer. Angemeldete Kunden sehen ihre eigenen Bestellungen ohne sie.',
    notFound:
      'Zu dieser Nummer und diesen Angaben gibt es keine Bestellung. Bitte prüfen Sie die Bestellnummer und die ' +
      'E-Mail-Adresse in Ihrer Bestellbestätigung.',
  },
} satisfies Record<DemoLanguage, unknown>;
export const NO_PRODUCT_TEXT = 'No product matches that.';

export const STORE_HOURS_TEXT = `**Opening hours of the Berlin store**

- Monday to Friday: 9:00–18:00
- Saturday: 10:00–16:00
- Sunday and public holidays: closed

**Hotline:** +49 30 1234 5678, Monday to Friday 9:00–18:00.

Directions and holiday hours: [demo-store.example/stores/berlin](https://demo-store.example/stores/berlin)
`;

export interface IntegratorAppOptions {
  /** The integrator's own origin, for the image URLs in cards and the feed (never taken from the Host header). */
  getBaseUrl: () => string;
  /** When set, `/feed.json` requires `Authorization: <feedToken>`, the token as the whole header value (SPEC). */
  feedToken?: string;
  /** How long an order lookup takes (a slow order system): e2e cuts the network while an answer waits on it. */
  orderDelayMs?: number;
  /**
   * The widget's signing secret (the service's `signingSecretEnv`): every custom-action and webhook call must carry a
   * valid `x-service-signature`, or it gets 401. Without one the calls are not checked (the route tests).
   */
  signingSecret?: string;
  /** Where the conversation events the service posts to `/events` are kept, oldest first (issue 33). */
  events?: Record<string, unknown>[];
  log?: boolean;
}

/** Compares secrets in constant time, whatever their lengths. */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * SPEC "Custom action call": every call carries the version, the widget id and the conversation id. A call without
 * them did not come from the service, so it gets a 400 with the reason in plain text (never echoing the values).
 */
const requireServiceHeaders: MiddlewareHandler = async (c, next) => {
  const version = c.req.header('x-service-custom-actions-version');
  if (version === undefined) return c.text('Missing header x-service-custom-actions-version.', 400);
  if (version.trim() !== SUPPORTED_ACTIONS_VERSION) {
    return c.text(
      `Unsupported x-service-custom-actions-version: this endpoint speaks ${SUPPORTED_ACTIONS_VERSION}.`,
      400,
    );
  }
  for (const name of ['x-service-widget-id', 'x-service-conversation-id']) {
    if (!c.req.header(name)?.trim()) return c.text(`Missing header ${name}.`, 400);
  }
  await next();
};

/** Issue #7: a webhook call carries its version, the widget id and the conversation id; anything else is refused. */
const requireWebhookHeaders: MiddlewareHandler = async (c, next) => {
  const version = c.req.header('x-service-webhook-version');
  if (version === undefined) return c.json({ error: 'Missing header x-service-webhook-version.' }, 400);
  if (version.trim() !== SUPPORTED_WEBHOOK_VERSION) {
    return c.json(
      { error: `Unsupported webhook version: this endpoint speaks ${SUPPORTED_WEBHOOK_VERSION}.` },
      400,
    );
  }
  for (const name of ['x-service-widget-id', 'x-service-conversation-id']) {
    if (!c.req.header(name)?.trim()) return c.json({ error: `Missing header ${name}.` }, 400);
  }
  await next();
};

/**
 * DESIGN "Signed outbound calls": what every integrator should do first. The raw body is read here (after a size cap,
 * so an unsigned caller cannot make it buffer megabytes) and verified with `verifyServiceSignature` from
 * `service-widget/client`; Hono keeps the body, so the route still reads it as JSON or text.
 */
function requireSignature(secret: string, log: boolean | undefined): MiddlewareHandler {
  return async (c, next) => {
    const body = new Uint8Array(await c.req.arrayBuffer());
    const ok = verifyServiceSignature({
      secret,
      method: c.req.method,
      url: c.req.url,
      headers: c.req.raw.headers,
      body,
    });
    if (!ok) {
      if (log)
        console.error(`integrator refused ${c.req.method} ${c.req.path}: no valid x-service-signature`);
      return c.text('Missing or invalid x-service-signature.', 401);
    }
    await next();
  };
}

/** The integrator's Hono app, without a listener. */
export function createIntegratorApp(options: IntegratorAppOptions): Hono {
  const app = new Hono();
  const base = () => options.getBaseUrl();
  const cancellations = createOrderCancellations();
  const signed: MiddlewareHandler[] = options.signingSecret
    ? [
        bodyLimit({
          maxSize: WEBHOOK_MAX_BYTES,
          onError: (c) => c.text('The request body is too large.', 413),
        }),
        requireSignature(options.signingSecret, options.log),
      ]
    : [];

  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    if (options.log) {
      const widget = c.req.header('x-service-widget-id');
      const conversation = c.req.header('x-service-conversation-id');
      const ids = widget ? ` widget=${widget} conversation=${conversation ?? '-'}` : '';
      console.error(`integrator ${c.req.method} ${c.req.path} ${c.res.status}${ids}`);
    }
  });
  for (const path of ['/orders/*', '/products/*', '/store-hours', '/webhooks/*', '/events']) {
    if (signed.length > 0) app.use(path, ...signed);
  }
  app.use('/orders/*', requireServiceHeaders);
  app.use('/products/*', requireServiceHeaders);
  app.use('/store-hours', requireServiceHeaders);

  app.get('/', (c) =>
    c.text(
      'Demo integrator for service-widget.\n\n' +
        (options.signingSecret ? 'Every call below must carry a valid x-service-signature.\n' : '') +
        'Custom actions (x-service headers required; answers in the Accept-Language, English or German):\n' +
        "  GET  /orders/{order_id}?email=...      order card, JSON, for the order's email or x-service-user-id\n" +
        '  GET  /orders/{order_id}.xml?email=...  order card, XML\n' +
        '  POST /products/lookup         {"query": "..."} -> product card(s)\n' +
        '  GET  /store-hours             text\n' +
        'Conversation events (eventHooks):\n' +
        '  POST /events                  conversation.created, handoff.requested, agent.replied, contact.left\n' +
        'Webhooks (x-service headers required):\n' +
        '  POST /webhooks/order-cancellation   version 2024-09-10\n' +
        'Catalog:\n' +
        '  GET  /feed.json               schema.org Product feed\n' +
        '  GET  /images/{name}.svg       product pictures\n' +
        "Store knowledge (the widget's knowledgeUrls):\n" +
        `  GET  ${DEMO_HELP_DOCUMENT_PATH}        help page, markdown\n`,
    ),
  );

  // One route for both formats: the service fills `{order_id}` percent-encoded, so the id is one path segment. Who
  // asks is the service's verified customer (x-service-user-*) or the guest's `email` query parameter (order-access.ts).
  app.get('/orders/:ref', async (c) => {
    if (options.orderDelayMs) await new Promise((resolve) => setTimeout(resolve, options.orderDelayMs));
    const language = shopperLanguage(c.req.header('accept-language'));
    c.header('content-language', language);
    c.header('vary', 'accept-language');
    c.header('cache-control', 'no-store');
    const ref = c.req.param('ref');
    const isXml = ref.endsWith('.xml');
    const id = (isXml ? ref.slice(0, -4) : ref).trim().replace(/^#/, '');
    const access = orderAccess(id, {
      userId: c.req.header('x-service-user-id'),
      userEmail: c.req.header('x-service-user-email'),
      email: c.req.query('email'),
    });
    if (!access.ok)
      return c.text(ORDER_ANSWERS[language][access.why === 'needs-proof' ? 'needsProof' : 'notFound']);
    const card = orderCard(access.order, base(), {
      language,
      cancelled: cancellations.isCancelled(access.order.id),
    });
    if (isXml) return c.body(orderToXml(card), 200, { 'content-type': 'application/xml; charset=utf-8' });
    return c.json(card);
  });

  app.post(
    '/products/lookup',
    bodyLimit({ maxSize: LOOKUP_MAX_BYTES, onError: (c) => c.text('The request body is too large.', 413) }),
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (type !== 'application/json') return c.text('Send the query as JSON: {"query": "..."}.', 415);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.text('The body is not valid JSON.', 400);
      }
      const query =
        typeof body === 'object' && body !== null && 'query' in body
          ? (body as { query: unknown }).query
          : null;
      if (typeof query !== 'string' || query.trim() === '') {
        return c.text('Send {"query": "..."} with the product name or SKU.', 400);
      }
      if (query.toUpperCase().includes(HOSTILE_PRODUCT_SKU)) return c.json(hostileProductCard(base()));
      const found = searchProducts(query);
      if (found.length === 0) return c.text(NO_PRODUCT_TEXT);
      const cards = found.map((p) => toProductCardJson(p, base()));
      return c.json(cards.length === 1 ? cards[0] : cards);
    },
  );

  app.get('/store-hours', (c) => c.text(STORE_HOURS_TEXT));

  // Issue 33: the widget's `eventHooks` post conversation events here (signed, checked above); a real store would
  // open a ticket or update its CRM. Each event once: a retry of one already seen (same x-service-event-id) is a 200.
  const seenEvents = new Set<string>();
  app.post('/events', async (c) => {
    const id = c.req.header('x-service-event-id') ?? '';
    if (!id) return c.json({ error: 'Missing header x-service-event-id.' }, 400);
    if (!seenEvents.has(id)) {
      seenEvents.add(id);
      options.events?.push(JSON.parse(await c.req.text()) as Record<string, unknown>);
    }
    return c.body(null, 204);
  });

  app.post(
    '/webhooks/order-cancellation',
    requireWebhookHeaders,
    bodyLimit({
      maxSize: WEBHOOK_MAX_BYTES,
      onError: (c) => c.json({ error: 'The request body is too large.' }, 413),
    }),
    async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ error: 'The body is not valid JSON.' }, 400);
      }
      const language = shopperLanguage(c.req.header('accept-language'));
      const outcome = cancellations.cancel(body, language);
      if (!outcome.ok)
        return c.json(
          { error: 'The request does not follow version 2024-09-10.', issues: outcome.issues },
          400,
        );
      return c.json(outcome.response, 200, {
        'cache-control': 'no-store',
        'content-language': language,
        vary: 'accept-language',
      });
    },
  );

  app.get('/feed.json', (c) => {
    if (options.feedToken !== undefined && !sameSecret(c.req.header('authorization'), options.feedToken)) {
      return c.text('Missing or wrong feed token.', 401);
    }
    return c.json(buildFeed(base()), 200, { 'cache-control': 'no-store' });
  });

  // A `knowledgeUrls` document: the service fetches it like a feed and splits it into sections at its headings.
  app.get(DEMO_HELP_DOCUMENT_PATH, (c) =>
    c.body(DEMO_HELP_DOCUMENT, 200, {
      'content-type': 'text/markdown; charset=utf-8',
      'cache-control': 'no-store',
    }),
  );

  app.get('/images/:file', (c) => {
    const svg = IMAGES.get(c.req.param('file'));
    if (!svg) return c.text('No such image.', 404);
    return c.body(svg, 200, {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400',
      // An SVG opened on its own is a document: it may not run or fetch anything.
      'content-security-policy': "default-src 'none'",
      // Cards on the store's origin and the widget show these pictures.
      'cross-origin-resource-policy': 'cross-origin',
    });
  });

  app.notFound((c) => c.text('Not found.', 404));
  app.onError((error, c) => {
    console.error('integrator:', error);
    return c.text('Something went wrong on our side.', 500);
  });
  return app;
}

export interface IntegratorOptions {
  /** 0 (default): a free port. */
  port?: number;
  host?: string;
  /** Require `Authorization: <feedToken>` on `/feed.json`. */
  feedToken?: string;
  /** See `IntegratorAppOptions.orderDelayMs`. */
  orderDelayMs?: number;
  /** See `IntegratorAppOptions.signingSecret`. */
  signingSecret?: string;
  log?: boolean;
}

export interface RunningIntegrator {
  /** `http://{host}:{port}` (no trailing slash). */
  url: string;
  port: number;
  /** Every request's method and path so far, oldest first (e2e: proof that an action was, or was not, called). */
  requests: { method: string; path: string }[];
  /** The conversation events the service posted (issue 33), each once, oldest first. */
  events: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Starts the demo integrator on plain HTTP (the demo service runs with `allowHttpLoopback: true`).
 * @example
 * const integrator = await startIntegrator({ port: 0 });
 * const res = await fetch(`${integrator.url}/orders/1002`, { headers: {
 *   'x-service-custom-actions-version': '2024-11-01', 'x-service-widget-id': 'demo', 'x-service-conversation-id': 'c1' } });
 * await integrator.close();
 */
export async function startIntegrator(options: IntegratorOptions = {}): Promise<RunningIntegrator> {
  const host = options.host ?? '127.0.0.1';
  let url = '';
  const events: Record<string, unknown>[] = [];
  const app = createIntegratorApp({
    getBaseUrl: () => url,
    feedToken: options.feedToken,
    orderDelayMs: options.orderDelayMs,
    signingSecret: options.signingSecret,
    log: options.log,
    events,
  });
  const requests: RunningIntegrator['requests'] = [];
  const fetch: typeof app.fetch = (request, ...rest) => {
    requests.push({ method: request.method, path: new URL(request.url).pathname });
    return app.fetch(request, ...rest);
  };
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
    const s = serve({ fetch, port: options.port ?? 0, hostname: host }, () => resolveServer(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  // Listening on every interface still means reaching it on loopback; the URL goes into cards and the feed.
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  url = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`;
  return {
    url,
    port,
    requests,
    events,
    close: () =>
      new Promise<void>((done, fail) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
