// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_SAFETY_POLL_MS } from '../../runtime';
import { type Instances, settingsBackends, settingsConfig } from '../../testing/settings-test-kit';
import { readSse } from '../../testing/sse-reader';

// Issue 23, item 1: a reply stream open on one instance hears a reply produced on another at once, through
// LISTEN/NOTIFY, not at the stream's safety poll. Two instances on one PostgreSQL schema (TEST_DATABASE_URL).

const postgres = settingsBackends.find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('wake-ups across instances', () => {
  let service: Instances | undefined;
  afterEach(async () => {
    await service?.close();
  });

  it('a stream on one instance gets the reply that another instance produces, long before its safety poll', async () => {
    service = await (postgres as NonNullable<typeof postgres>).start(
      settingsConfig([{ id: 'shop', allowedOrigins: ['*'] }]),
      2,
    );
    const [one, two] = service.urls;
    const created = await fetch(`${one}/v0/widget/shop/conversations`, { method: 'POST' });
    const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
    const auth = { authorization: `Bearer ${token}` };
    const path = `/v0/widget/shop/conversations/${conversationId}`;

    // The widget's follow stream on instance one, opened before anything happens.
    const streamStarted = Date.now();
    const stream = fetch(`${one}${path}/events?follow=1`, {
      headers: { ...auth, 'last-event-id': '0' },
    }).then((res) => readSse(res, (e) => e.event === 'message.done'));
    await new Promise((r) => setTimeout(r, 300));

    // The message, and so the turn, on instance two; its answer is read to its end there.
    const sentAt = Date.now();
    const sent = await fetch(`${two}${path}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ clientMessageId: 'w1', text: 'hello' }),
    });
    await readSse(sent);
    const events = await stream;
    const heardAfter = Date.now() - sentAt;
    expect(events.map((e) => e.event)).toContain('message.done');
    // The safety poll is five minutes: an answer within seconds was woken by the other instance's NOTIFY.
    expect(STREAM_SAFETY_POLL_MS).toBeGreaterThanOrEqual(10_000);
    expect(heardAfter).toBeLessThan(3000);
    expect(Date.now() - streamStarted).toBeLessThan(STREAM_SAFETY_POLL_MS);
  });
});
