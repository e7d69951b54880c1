import { CHOICE_TEXT_MAX, CHOICES_MAX } from '../../../protocol/chat';
import { err, type Result } from '../../../protocol/result';
import { readChoices } from '../../core/choices';
import type { ChatTool } from './stream-completion';

// Choices (issue 20, DESIGN "Starters and choices") as a tool rather than a reply convention: a call's arguments are
// JSON the service checks (caps, types) before the shopper sees anything, whereas a convention in the text ("Options:
// a | b") would stream to the shopper before it could be recognised, and a model that half-follows it would leave
// stray markup in the answer. Offered always; at most one set of chips per answer.

export const OFFER_CHOICES_TOOL = 'offer_choices';

export const OFFER_CHOICES: ChatTool = {
  type: 'function',
  function: {
    name: OFFER_CHOICES_TOOL,
    description:
      `Shows the shopper up to ${CHOICES_MAX} short answers as buttons under your message, when they should pick one ` +
      'of a few: which of two orders, a size, a colour, yes or no. The button they press is sent as their next ' +
      'message, word for word, so write each option as the shopper would say it. Ask your question in your text; ' +
      'do not list the options there too. At most once per answer.',
    parameters: {
      type: 'object',
      properties: {
        options: {
          type: 'array',
          items: { type: 'string', maxLength: CHOICE_TEXT_MAX },
          minItems: 1,
          maxItems: CHOICES_MAX,
          description: `1 to ${CHOICES_MAX} answers, each at most ${CHOICE_TEXT_MAX} characters.`,
        },
      },
      required: ['options'],
      additionalProperties: false,
    },
  },
};

/** The model's arguments → the options; every error is a sentence for the model. */
export function readOfferChoicesArguments(args: Record<string, unknown>): Result<string[], string> {
  const unknown = Object.keys(args).filter((key) => key !== 'options');
  if (unknown.length > 0)
    return err(`unknown parameter(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  return readChoices(args.options);
}
