// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  clearOfWindowEnd,
  limitsConfig,
  retryAfter,
  type ServiceBackend,
  type Services,
  secondsLeftIn,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 18: 300 of 300 conversations from one address in a minute were created. Now the 31st in an hour is refused
// (conversationsPerIpPerHour, default 30), for that address only, whatever X-Forwarded-For says beyond the proxies
// the config trusts.

const create = (base: string, from: string, forwardedFor?: string) =>
  call(base, 'conversations', {
    method: 'POST',
    from,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });

/** Seconds left in the current clock hour, as the database's hour windows see it (same machine, same clock). */
const secondsLeftInHour = () => secondsLeftIn(3600);

describe.each(serviceBackends)(
  'attack: 31 conversations from one address, on $name',
  (backend: ServiceBackend) => {
    // Each test's conversations fall in one clock hour.
    beforeEach(() => clearOfWindowEnd(3600));

    describe('with the socket address (trustProxy 0)', () => {
      let services: Services;
      beforeAll(async () => {
        services = await backend.start(limitsConfig());
      }, OPEN_TIMEOUT);
      afterAll(() => services?.close());

      it('refuses the 31st conversation in an hour with 429 rate_limited and the seconds until the hour is over', async () => {
        const base = services.urls[0];
        for (let i = 1; i <= 30; i++)
          expect((await create(base, '127.0.0.2')).status, `conversation ${i}`).toBe(201);
        const before = secondsLeftInHour();
        const refused = await create(base, '127.0.0.2');
        const after = secondsLeftInHour();
        expect(refused.status).toBe(429);
        expect(refused.json().error).toEqual({
          code: 'rate_limited',
          message: expect.stringMatching(/at most 30 an hour/),
        });
        expect(refused.json().error?.message).toMatch(/conversationsPerIpPerHour/);
        // Whole seconds, and the real wait: the window is the clock hour, so until its end.
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        // A widget on the shop's page (cross-origin) can read it.
        expect(refused.headers['access-control-expose-headers']).toMatch(/(^|, )retry-after(,|$)/);
        expect(retryAfter(refused)).toBeGreaterThanOrEqual(Math.floor(after));
        expect(retryAfter(refused)).toBeLessThanOrEqual(Math.ceil(before) + 1);
        // Refused requests are not counted: still refused, and no conversation was made.
        expect((await create(base, '127.0.0.2')).status).toBe(429);
      });

      it('does not hold another address to the first one’s limit', async () => {
        expect((await create(services.urls[0], '127.0.0.3')).status).toBe(201);
      });

      it('ignores X-Forwarded-For without trustProxy: a header per request does not make new addresses', async () => {
        const base = services.urls[0];
        for (let i = 1; i <= 30; i++) {
          expect((await create(base, '127.0.0.4', `198.51.100.${i}`)).status, `conversation ${i}`).toBe(201);
        }
        const refused = await create(base, '127.0.0.4', '198.51.100.31');
        expect(refused.status).toBe(429);
        expect(retryAfter(refused)).toBeGreaterThan(0);
      });
    });

    describe('behind one trusted proxy (trustProxy 1)', () => {
      let services: Services;
      beforeAll(async () => {
        services = await backend.start(limitsConfig({}, { trustProxy: 1 }));
      }, OPEN_TIMEOUT);
      afterAll(() => services?.close());

      // The proxy at 127.0.0.2 appends the address it saw (203.0.113.7) to whatever the client sent.
      it('counts the address the proxy saw, whatever the client forged to its left', async () => {
        const base = services.urls[0];
        for (let i = 1; i <= 30; i++) {
          const forged = `10.0.0.${i}, 192.0.2.${i}`;
          expect(
            (await create(base, '127.0.0.2', `${forged}, 203.0.113.7`)).status,
            `conversation ${i}`,
          ).toBe(201);
        }
        const refused = await create(base, '127.0.0.2', '192.0.2.200, 203.0.113.7');
        expect(refused.status).toBe(429);
        expect(retryAfter(refused)).toBeGreaterThan(0);
        // The proxy's own socket address is not the client's either: another shopper behind it is not affected.
        expect((await create(base, '127.0.0.2', '203.0.113.8')).status).toBe(201);
      });
    });
  },
);
