import { readRequest } from '../engine/local/read-request';

// How the insights group what shoppers asked (issue 35: top questions, knowledge gaps): by their words, with case,
// punctuation, accents' composed forms and numbers aside, so "Where is my order 1234?" and "where is my order #5678"
// are one question. A greeting alone ("Hi!", "Guten Tag", "thanks") is no question: the conversation's first question
// is its first message that asks something. Greetings are read with the local engine's lexicon (English and German),
// the same words the assistant itself takes for one.

/** A question is shown as written, cut to this many characters. */
export const QUESTION_TEXT_MAX = 200;
/** And grouped by this many characters of its key. */
export const QUESTION_KEY_MAX = 120;

export interface Question {
  /** As the shopper wrote it (trimmed, cut). */
  text: string;
  /** What questions are grouped by. */
  key: string;
}

/** The key of a question: lower case, NFKC, anything not a letter or digit a space, every run of digits one `#`. */
export function questionKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}]+/gu, ' ')
    .replace(/\p{Nd}+/gu, '#')
    .trim()
    .slice(0, QUESTION_KEY_MAX)
    .trim();
}

/** `text` as a question for the insights; null for a greeting or thanks alone, or nothing to group by. */
export function questionOf(text: string): Question | null {
  const trimmed = text.trim();
  const key = questionKey(trimmed);
  if (!key || readRequest(trimmed).request.kind === 'greeting') return null;
  return { text: Array.from(trimmed).slice(0, QUESTION_TEXT_MAX).join(''), key };
}
