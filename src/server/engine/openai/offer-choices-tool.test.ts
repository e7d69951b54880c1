// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTurn } from '../../testing/engine-test-harness';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';

// Issue 20: the model offers choices with the offer_choices tool; the service checks the options before the shopper
// sees a chip, and the model reads what was shown or what was wrong.

let server: FakeOpenAiServer;
beforeEach(async () => {
  server = await startFakeOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

const offer = (args: string, id = 'c1') =>
  toolCallAnswer([{ id, name: 'offer_choices', argumentPieces: [args] }]);
const toolMessages = (i: number) => server.body(i).messages.filter((m) => m.role === 'tool');

describe('openai engine: offer_choices', () => {
  it('shows the options as a choices part, after the text, and tells the model they were shown', async () => {
    server.enqueue(
      toolCallAnswer(
        [{ id: 'c1', name: 'offer_choices', argumentPieces: ['{"options":', '[" 1002 ","1003"]}'] }],
        'Which order do you mean?',
      ),
      textAnswer(''),
    );
    const h = runTurn(server, { turn: { message: 'where are my orders 1002 and 1003?' } });
    await h.result;
    expect(h.events).toEqual([
      { type: 'delta', text: 'Which order do you mean?' },
      { type: 'part', part: { type: 'choices', options: ['1002', '1003'] } },
    ]);
    expect(toolMessages(1)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content:
          'Shown to the shopper as buttons: "1002", "1003". The one they press arrives as their next message. ' +
          'Do not list them again in your text.',
      },
    ]);
  });

  it.each([
    [
      'seven options',
      JSON.stringify({ options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }),
      'options must hold 1 to 6 answers',
    ],
    [
      'an option over 80 characters',
      JSON.stringify({ options: ['x'.repeat(81)] }),
      'each option must be at most 80 characters',
    ],
    ['a number', '{"options":["yes",1]}', 'each option must be a string'],
    ['no options', '{"options":[]}', 'options must hold 1 to 6 answers'],
    ['a string instead of a list', '{"options":"yes|no"}', 'options must hold 1 to 6 answers'],
    ['an unknown parameter', '{"options":["a"],"html":"<b>"}', 'unknown parameter(s): "html"'],
  ])('refuses %s: no chip, and the model is told why', async (_, args, problem) => {
    server.enqueue(offer(args), textAnswer('Which one?'));
    const h = runTurn(server);
    await h.result;
    expect(h.events.filter((e) => e.type === 'part')).toEqual([]);
    expect(toolMessages(1).at(-1)?.content).toBe(
      `Error: invalid arguments for offer_choices: ${problem}. No buttons were shown.`,
    );
  });

  it('shows one set of chips per answer: a second call is refused', async () => {
    server.enqueue(
      offer('{"options":["S","M"]}', 'c1'),
      offer('{"options":["L","XL"]}', 'c2'),
      textAnswer('Which size?'),
    );
    const h = runTurn(server);
    await h.result;
    expect(h.events.filter((e) => e.type === 'part')).toEqual([
      { type: 'part', part: { type: 'choices', options: ['S', 'M'] } },
    ]);
    expect(toolMessages(2).at(-1)?.content).toBe(
      'Error: offer_choices was already called in this answer; call it once.',
    );
  });
});
