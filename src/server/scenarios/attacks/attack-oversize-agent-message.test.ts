// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_TEXT_MAX } from '../../../protocol/chat';
import {
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21: an agent's message passes the checks a shopper's does. Blank, empty, one character too long, not JSON, not
// text, and a body over the service's cap are refused with a clear error, and the shopper's transcript gets nothing.

describe.each(serviceBackends)(
  'attack: an oversize or blank agent message, on $name',
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    it('answers 400, 413 or 415 and stores nothing', async () => {
      const anna = agent(kit.base, AGENTS.anna.key);
      const chat = await shopper(kit.base);
      await chat.handoff();
      await anna.take(chat.id);
      for (const body of [
        { text: '' },
        { text: ' \n\t ' },
        { text: 'x'.repeat(MESSAGE_TEXT_MAX + 1) },
        { text: 42 },
        {},
        { text: 'hi', role: 'assistant' },
      ]) {
        const answer = await anna.post(chat.id, body);
        expect([answer.status, answer.error], JSON.stringify(body).slice(0, 40)).toEqual([
          400,
          'invalid_request',
        ]);
      }
      const url = `${kit.base}/v0/admin/widgets/shop/conversations/${chat.id}/messages`;
      const headers = { authorization: `Bearer ${AGENTS.anna.key}` };
      const huge = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'x'.repeat(100_000) }),
      });
      expect(huge.status).toBe(413);
      const notJson = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"text":',
      });
      expect(notJson.status).toBe(400);
      const form = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(form.status).toBe(415);
      expect((await chat.history()).messages.some((m) => m.role === 'agent')).toBe(false);
      // The longest allowed text goes through.
      expect((await anna.post(chat.id, { text: 'y'.repeat(MESSAGE_TEXT_MAX) })).status).toBe(201);
    });
  },
);
