import { CHOICE_TEXT_MAX, CHOICES_MAX, type MessagePart } from '../../protocol/chat';
import { err, ok, type Result } from '../../protocol/result';

// Choices parts (issue 20, DESIGN "Starters and choices"): a few answers the shopper can pick as chips, each sent as
// their next message. Whatever writes one (the local engine, a model's `offer_choices` call) goes through here, and
// run-turn.ts passes every choices part an engine emits through here again, so none reaches a shopper outside the
// protocol's caps.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * Checks a list of options: 1..`CHOICES_MAX` strings of 1..`CHOICE_TEXT_MAX` characters once trimmed (control and bidi
 * characters become spaces), none twice (case aside). Errors are sentences a model can act on.
 * @example
 * readChoices([' 1002 ', '1003']); // { ok: true, value: ['1002', '1003'] }
 * readChoices([]); // { ok: false, error: 'options must hold 1 to 6 answers' }
 */
/** An option's text as a chip shows it: one line, control and bidi characters as spaces, trimmed. */
export function choiceText(option: string): string {
  return option.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
}

export function readChoices(options: unknown): Result<string[], string> {
  if (!Array.isArray(options) || options.length < 1 || options.length > CHOICES_MAX)
    return err(`options must hold 1 to ${CHOICES_MAX} answers`);
  const out: string[] = [];
  for (const option of options) {
    if (typeof option !== 'string') return err('each option must be a string');
    const text = choiceText(option);
    if (text === '') return err('an option must not be empty');
    if (text.length > CHOICE_TEXT_MAX)
      return err(`each option must be at most ${CHOICE_TEXT_MAX} characters`);
    if (out.some((o) => o.toLowerCase() === text.toLowerCase())) return err(`"${text}" is offered twice`);
    out.push(text);
  }
  return ok(out);
}

/** The part for these options, or null when they break a cap (the answer then goes without chips). */
export function choicesPart(options: unknown): MessagePart | null {
  const read = readChoices(options);
  return read.ok ? { type: 'choices', options: read.value } : null;
}
