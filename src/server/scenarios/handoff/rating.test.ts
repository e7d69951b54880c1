// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxConversationResponse } from '../../../protocol/inbox';
import {
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issues 33 and 34: the shopper rates the help a person of the store's team gave, 1 to 5 with an optional comment
// (`POST …/rating`, conversation token); the agents see it with the conversation, and the merchant's systems hear of it
// (`conversation.rated`: scenarios/email/event-hooks.test.ts). Over real HTTP, on both databases.

describe.each(serviceBackends)('rating the help a person gave, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    kit = await startHandoff(backend);
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  const rate = (id: string, token: string | null, body: unknown, widget = 'shop') =>
    fetch(`${kit.base}/v0/widget/${widget}/conversations/${id}/rating`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
  /** A conversation Anna took, wrote in and handed back. */
  const helped = async () => {
    const s = await shopper(kit.base);
    await s.say('hello');
    await s.handoff();
    const anna = agent(kit.base, AGENTS.anna.key);
    await anna.take(s.id);
    await anna.post(s.id, { text: 'Your parcel left today.' });
    await anna.release(s.id);
    return s;
  };
  const inboxRating = async (id: string) =>
    (
      (await agent(kit.base, AGENTS.ben.key).get(`/widgets/shop/conversations/${id}`))
        .body as InboxConversationResponse
    ).rating;

  it('takes 1 to 5 and a comment, names the agent it was for, shows it to agents, and a later rating replaces it', async () => {
    const s = await helped();
    expect(await inboxRating(s.id)).toBeNull();
    expect((await rate(s.id, s.token, { score: 2, comment: '  Slow  ' })).status).toBe(204);
    expect(await inboxRating(s.id)).toMatchObject({
      score: 2,
      comment: 'Slow',
      agent: { id: 'anna', name: 'Anna' },
    });
    expect((await rate(s.id, s.token, { score: 5 })).status).toBe(204);
    const rating = await inboxRating(s.id);
    expect(rating).toMatchObject({ score: 5, comment: null, agent: { name: 'Anna' } });
    expect(Date.parse(rating?.ratedAt ?? '')).not.toBeNaN();
  });

  it('is refused while no agent has written in the conversation: nothing to rate', async () => {
    const s = await shopper(kit.base);
    await s.say('hello');
    const res = await rate(s.id, s.token, { score: 5 });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toBe('nothing_to_rate');
  });

  it.each([
    ['a score of 0', { score: 0 }],
    ['a score of 6', { score: 6 }],
    ['a score that is not whole', { score: 4.5 }],
    ['a score as text', { score: '5' }],
    ['no score', { comment: 'great' }],
    ['an empty comment', { score: 5, comment: '   ' }],
    ['a comment over 1000 characters', { score: 5, comment: 'x'.repeat(1001) }],
    ['a field the API does not know', { score: 5, agentId: 'ben' }],
    [
      'a deep body',
      JSON.stringify({ score: 5, comment: 'x', extra: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) }),
    ],
  ])('attack: %s is 400 and stores nothing', async (_what, body) => {
    const s = await helped();
    const res = await rate(s.id, s.token, body);
    expect(res.status).toBe(400);
    expect(await inboxRating(s.id)).toBeNull();
  });

  it("attack: no token, another conversation's token, or another widget: refused, and the rating stays as it was", async () => {
    const s = await helped();
    const other = await shopper(kit.base);
    expect((await rate(s.id, null, { score: 1 })).status).toBe(401);
    expect([401, 404]).toContain((await rate(s.id, other.token, { score: 1 })).status);
    expect([401, 404]).toContain((await rate(s.id, s.token, { score: 1 }, 'other')).status);
    expect(await inboxRating(s.id)).toBeNull();
  });

  it('attack: a flood of ratings is cut at 10 an hour per conversation (each one is an event for the merchant)', async () => {
    const s = await helped();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await rate(s.id, s.token, { score: (i % 5) + 1 })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(204));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // The last rating taken stands.
    expect((await inboxRating(s.id))?.score).toBe(5);
  });
});
