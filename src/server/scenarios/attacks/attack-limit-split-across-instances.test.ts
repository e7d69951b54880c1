// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  clearOfWindowEnd,
  limitsConfig,
  newConversation,
  retryAfter,
  type Services,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// A client spreads its requests over the instances behind a load balancer, hoping each counts alone. Two services on
// one PostgreSQL share every limit: the counts live in the database, on its clock. (PostgreSQL only: the embedded
// database serves one instance.)

const postgres = serviceBackends.find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('attack: one limit split across two service instances, on postgres', () => {
  let services: Services;
  beforeAll(async () => {
    services = await postgres!.start(
      limitsConfig({
        limits: {
          conversationsPerIpPerHour: 4,
          messagesPerConversationPerMinute: 3,
          queuedTurnsPerConversation: 100,
        },
      }),
      2,
    );
  }, OPEN_TIMEOUT);
  afterAll(() => services?.close());

  it('refuses the 5th conversation of an address on both instances when it made 4 across them', async () => {
    await clearOfWindowEnd(3600);
    const [a, b] = services.urls;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await call(i % 2 ? b : a, 'conversations', { method: 'POST' });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201]);
    for (const base of [a, b]) {
      const refused = await call(base, 'conversations', { method: 'POST' });
      expect(refused.status).toBe(429);
      expect(retryAfter(refused)).toBeGreaterThan(0);
    }
  });

  it('counts one conversation’s messages sent in parallel to both instances against one limit', async () => {
    await clearOfWindowEnd(60, 15);
    const [a, b] = services.urls;
    const chat = await newConversation(a, '127.0.0.5');
    const sends = Array.from({ length: 8 }, (_, i) =>
      call(i % 2 ? b : a, `conversations/${chat.conversationId}/messages`, {
        method: 'POST',
        from: '127.0.0.5',
        token: chat.token,
        body: { clientMessageId: `p${i}`, text: 'hello' },
      }),
    );
    const statuses = (await Promise.all(sends)).map((r) => r.status);
    // Exactly the limit passes, whichever instance each landed on; the rest are refused, none counted twice.
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});
