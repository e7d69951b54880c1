// @vitest-environment node
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import type { RunningService } from '../../start';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 18 item 3, as an attacker would try it: a page (or a script without one) sends an identity token it made
// itself, hoping the service tells the integrator "this is customer victim-42". Every kind of forged, stale or
// malformed token must be refused with 401 identity_invalid, store nothing and call nothing; a token the store really
// signed reaches the integrator as the verified headers and `extra.user`.

const now = () => Math.floor(Date.now() / 1000);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claims = { sub: 'victim-42', email: 'victim@shop.example' };

/** Each bad token, made the way an attacker (or a broken back end) would make it. */
const BAD_TOKENS: [string, () => Promise<string>][] = [
  [
    'alg: none (no signature)',
    async () =>
      `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, iat: now(), exp: now() + 600 })}.`,
  ],
  [
    'alg: none with a signature copied from a real token',
    async () => {
      const real = await signIdentity({ sub: 'someone-else' });
      return `${b64url({ alg: 'none' })}.${b64url({ ...claims, iat: now(), exp: now() + 600 })}.${real.split('.')[2]}`;
    },
  ],
  [
    'another algorithm: HS512 with the right secret',
    () =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS512' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(IDENTITY_SECRET)),
  ],
  [
    'another algorithm: RS256 with a made-up key',
    async () => {
      const { privateKey } = await generateKeyPair('RS256');
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
    },
  ],
  ['a wrong secret', () => signIdentity(claims, { secret: 'an-attackers-guess-at-the-secret-32-bytes+' })],
  [
    'the payload changed after signing (sub swapped)',
    async () => {
      const [h, , s] = (await signIdentity({ sub: 'attacker' })).split('.');
      return `${h}.${b64url({ ...claims, iat: now(), exp: now() + 3600 })}.${s}`;
    },
  ],
  ['an expired token', () => signIdentity(claims, { iat: now() - 7200, exp: now() - 3600 })],
  [
    'a token from the future (iat 10 minutes ahead)',
    () => signIdentity(claims, { iat: now() + 600, exp: now() + 3600 }),
  ],
  ['a missing sub', () => signIdentity({ email: 'victim@shop.example' })],
  ['an empty sub', () => signIdentity({ sub: '' })],
  ['a sub that is not a string', () => signIdentity({ sub: 42 })],
  [
    'a sub with a line break (header injection)',
    () => signIdentity({ sub: 'victim\r\nx-service-user-id: admin' }),
  ],
  ['exp 25 hours after iat', () => signIdentity(claims, { iat: now(), exp: now() + 25 * 3600 })],
  [
    'no exp at all',
    () =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .sign(new TextEncoder().encode(IDENTITY_SECRET)),
  ],
  [
    'no iat',
    () =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(IDENTITY_SECRET)),
  ],
  ['an email that is not an address', () => signIdentity({ sub: 'victim-42', email: 'not an email' })],
  ['not a JWT at all', async () => 'hello.world'],
];

describe.each(serviceBackends)('attack: a forged JWT ($name)', (backend) => {
  let integrator: RecordingServer;
  let service: RunningService;
  let client: ReturnType<typeof widgetClient>;

  beforeAll(async () => {
    process.env[IDENTITY_ENV] = IDENTITY_SECRET;
    integrator = await startRecordingServer('http');
    const config = parseConfig({
      adminKey: 'admin-key-for-identity-tests',
      allowHttpLoopback: true,
      widgets: [
        {
          id: 'shop',
          allowedOrigins: ['*'],
          identity: { secretEnv: IDENTITY_ENV },
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${integrator.url}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
          webhooks: [
            { kind: 'order-cancellation', url: `${integrator.url}/hooks/cancel`, version: '2024-09-10' },
          ],
        },
        {
          id: 'no-identity',
          allowedOrigins: ['*'],
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${integrator.url}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
        },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    service = await backend.start(config.value);
    client = widgetClient(service.url, 'shop');
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await integrator?.close();
  });
  beforeEach(() => {
    integrator.requests.length = 0;
    integrator.respond = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.pathname.startsWith('/hooks/')
          ? JSON.stringify({ cancelled: true, reason: '' })
          : JSON.stringify({ status: 'shipped' }),
      );
    };
  });

  it.each(BAD_TOKENS)(
    '%s: 401 identity_invalid, on create and on send; nothing stored, nothing called',
    async (_, make) => {
      const identityToken = await make();

      const created = await client.create({ identityToken, userData: { customerId: 'victim-42' } });
      expect(created.status).toBe(401);
      expect(created.error?.code).toBe('identity_invalid');
      expect(created.conversationId).toBeUndefined();

      const conversation = await client.create();
      expect(conversation.status).toBe(201);
      const sent = await client.say(conversation, 'Where is my order 1003?', { identityToken });
      expect(sent.status).toBe(401);
      expect(sent.error?.code).toBe('identity_invalid');
      // The reason is for the store's developer; never an echo of the token.
      expect(sent.error?.message).not.toContain(identityToken);
      expect((await client.history(conversation)).body.messages).toEqual([]);
      expect(integrator.requests).toHaveLength(0);
    },
  );

  it('a token the store signed: the action call carries x-service-user-id and x-service-user-email', async () => {
    const identityToken = await signIdentity({ sub: 'auth0|42', email: 'ada@shop.example', name: 'Ada' });
    const conversation = await client.create({ identityToken });
    expect(conversation.status).toBe(201);
    const reply = await client.say(conversation, 'Where is my order 1003?', { identityToken });
    expect(reply.status).toBe(200);
    expect(integrator.requests).toHaveLength(1);
    expect(integrator.requests[0].pathname).toBe('/orders/1003');
    expect(integrator.requests[0].headers).toMatchObject({
      'x-service-user-id': 'auth0|42',
      'x-service-user-email': 'ada@shop.example',
    });
  });

  it('a token the store signed: the cancellation webhook gets extra.user { id, email, name }', async () => {
    const identityToken = await signIdentity({ sub: 'cust-7', email: 'bo@shop.example', name: 'Bo' });
    const conversation = await client.create({ identityToken });
    await client.say(conversation, 'Please cancel order 1004', { identityToken });
    await client.say(conversation, 'yes', { identityToken });
    const hook = integrator.requests.find((r) => r.pathname === '/hooks/cancel');
    expect(hook).toBeDefined();
    expect(JSON.parse(hook!.body).extra).toEqual({
      user: { id: 'cust-7', email: 'bo@shop.example', name: 'Bo' },
    });
  });

  it('a widget without identity: any token, even a validly signed one, is ignored and never becomes identity', async () => {
    const noIdentity = widgetClient(service.url, 'no-identity');
    const identityToken = await signIdentity({ sub: 'victim-42' });
    const conversation = await noIdentity.create({ identityToken });
    expect(conversation.status).toBe(201);
    expect((await noIdentity.say(conversation, 'Where is my order 1003?', { identityToken })).status).toBe(
      200,
    );
    expect(integrator.requests).toHaveLength(1);
    expect(integrator.requests[0].headers['x-service-user-id']).toBeUndefined();
  });

  it('a token signed at most 24 hours ahead, and one 20 seconds in the future (clock drift), are accepted', async () => {
    const longest = await signIdentity({ sub: 'edge-1' }, { iat: now(), exp: now() + 24 * 3600 });
    expect((await client.create({ identityToken: longest })).status).toBe(201);
    const drifted = await signIdentity({ sub: 'edge-2' }, { iat: now() + 20, exp: now() + 3600 });
    expect((await client.create({ identityToken: drifted })).status).toBe(201);
  });
});
