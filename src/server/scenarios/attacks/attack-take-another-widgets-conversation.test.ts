// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21: an agent reaches a conversation through its widget's URL only. Another widget's conversation through this
// widget's URL, an id that exists nowhere and one that is no id are the same 404, for every agent route, and the
// other widget's conversation is left as it was.

describe.each(serviceBackends)(
  "attack: taking another widget's conversation, on $name",
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    it('answers 404 unknown_conversation for take, messages, release and events, and changes nothing', async () => {
      const theirs = await shopper(kit.base, 'other');
      await theirs.handoff();
      const anna = agent(kit.base, AGENTS.anna.key);
      for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', "' OR 1=1 --"]) {
        const answers = [
          await anna.take(id, 'shop'),
          await anna.post(id, { text: 'hello' }, 'shop'),
          await anna.release(id, 'shop'),
          await anna.get(`/widgets/shop/conversations/${encodeURIComponent(id)}/events`),
        ];
        expect(
          answers.map((a) => [a.status, a.error]),
          id,
        ).toEqual(Array(4).fill([404, 'unknown_conversation']));
      }
      expect((await anna.take(theirs.id, 'nope')).error).toBe('unknown_widget');
      const history = await theirs.history();
      expect(history.mode).toBe('waiting');
      expect(history.agent).toBeNull();
      expect(history.messages.map((m) => m.role)).toEqual(['assistant']);
      // Through its own widget's URL it is there.
      expect((await anna.take(theirs.id, 'other')).status).toBe(200);
    });
  },
);
