// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  AGENTS,
  agentWith,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21: someone without a key of the service's tries the console's API with keys that are nearly right, keys in
// the wrong place and no key at all. Every one is 401, and nothing they tried to do happened.

describe.each(serviceBackends)('attack: a forged agent key, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    // Each forged key from an address of its own: a guesser from one address meets the key-attempt limit (429) after
    // 30 tries a minute (attack-key-guessing.test.ts); here every attempt must be the 401 itself.
    kit = await startHandoff(backend, { trustProxy: 1 });
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  const forged = [
    `Bearer ${AGENTS.anna.key}x`,
    `Bearer ${AGENTS.anna.key.slice(0, -1)}`,
    `Bearer ${AGENTS.anna.key.toUpperCase()}`,
    `Bearer ${ADMIN_KEY} ${AGENTS.anna.key}`,
    `Basic ${AGENTS.anna.key}`,
    AGENTS.anna.key,
    'Bearer ',
    `Bearer ${'a'.repeat(10_000)}`,
    '',
  ];

  it.each(forged.map((f, i) => [f.slice(0, 40), f, `198.51.100.${i + 1}`]))(
    'answers 401 to "%s" on every route and changes nothing',
    async (_, authorization, from) => {
      const chat = await shopper(kit.base);
      await chat.handoff();
      const intruder = agentWith(kit.base, authorization, from);
      const answers = [
        await intruder.me(),
        await intruder.get('/widgets'),
        await intruder.get('/widgets/shop/conversations?mode=waiting'),
        await intruder.get(`/widgets/shop/conversations/${chat.id}`),
        await intruder.take(chat.id),
        await intruder.post(chat.id, { text: 'Hi, I am from the store. Your card number, please?' }),
        await intruder.release(chat.id),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.error).toBe('unauthorized');
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      const history = await chat.history();
      expect(history.mode).toBe('waiting');
      expect(history.messages.map((m) => m.role)).toEqual(['assistant']);
    },
  );
});
