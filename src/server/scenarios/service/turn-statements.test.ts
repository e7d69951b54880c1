// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { readSse, textOf } from '../../testing/sse-reader';

// Issue 32 item 3, fewer fixed statements: what a turn costs the database, read from the service's own
// `service_db_statements_total` over HTTP. A store question answered from the knowledge, in a conversation that has
// had turns before, is two statements on the embedded database: the message's (the conversation's token, the limits,
// the message, its reply and everything its turn starts from) and the reply's end with its events. A statement added
// to that path fails this test.

let service: RunningService;
let api: string;
beforeAll(async () => {
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        knowledge: [{ title: 'Payment methods', text: 'We accept Visa, Mastercard and PayPal.' }],
        limits: { messagesPerIpPerMinute: 1000, messagesPerConversationPerMinute: 1000 },
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
  api = `${service.url}/v0/widget/shop/conversations`;
});
afterAll(() => service?.close());

async function statementsSoFar(): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('service_db_statements_total '));
  return Number(line?.split(' ')[1]);
}

describe('the statements of a turn (issue 32)', () => {
  it('answers a knowledge question in two statements: the token, the limits and the turn’s start are the message’s', async () => {
    const created = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
    const ask = async () => {
      const res = await fetch(`${api}/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ clientMessageId: randomUUID(), text: 'Which payment methods do you take?' }),
      });
      expect(textOf(await readSse(res))).toContain('PayPal');
    };
    await ask();
    // The fewest of three turns: the service's own timers (sweeps) only ever add to a window.
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await statementsSoFar();
      await ask();
      // The reply's end is written before its last event is sent: nothing of the turn is left to count.
      counts.push((await statementsSoFar()) - before);
    }
    expect(Math.min(...counts)).toBe(2);
  });
});
