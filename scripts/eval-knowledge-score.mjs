// How the knowledge suite of `npm run eval` judges one answer to a store question (issue 31 item 8; DESIGN "Answers
// that fit the question": the passage that answers, about 600 characters at most unless the whole policy is asked
// for). No I/O here: scripts/eval-knowledge.mjs sends the question and hands the reply's text in.
//
// A question names the passage that answers it as `expect`: short, distinctive pieces of the answering sentence, list
// item or table row, each a string (it must be in the answer) or a list of strings (one of them must be). Two measures,
// per language (goals from DESIGN):
//   passage  every piece of `expect` is in the reply (≥ 90 %)
//   short    the reply, as the shopper reads it, is at most 600 characters (≥ 90 %); not judged for a question that
//            asks for the whole policy (`whole: true`), nor for a failed turn (that is a passage miss already)
// Both sides are compared as text a shopper reads: Unicode NFKC, case, dashes (– — ‑ as -), quotes (’ as '), no-break
// spaces and runs of white space folded, markdown emphasis, links' targets and table pipes left out.
import { quote } from './eval-measures.mjs';

export const KNOWLEDGE_MEASURES = ['passage', 'short'];
export const KNOWLEDGE_GOALS = { passage: 90, short: 90 };
/** DESIGN: "at most about 600 characters unless the shopper asks for the whole policy". */
export const ANSWER_MAX_CHARS = 600;

/** The reply as a shopper reads it: link text without targets, no emphasis, heading, list or table marks. */
export function visibleText(markdown) {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*$/gm, '')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Text folded for comparison (the rule above). */
export function fold(text) {
  return visibleText(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
    .replace(/\s+/g, ' ');
}

/** A turn in a few words: its length as read and its text. */
export function describeKnowledgeTurn(record) {
  if (record.failure) return `failed: ${record.failure}`;
  return `${visibleText(record.text).length} characters; reply ${quote(record.text)}`;
}

/**
 * Judges one reply. `question`: `{ expect, whole? }`; `record`: `{ text, failure? }`. Returns the items it adds to
 * the measures: `{ measure, value, why }` (why null on a hit).
 * @example
 * judgeKnowledge({ expect: ['2–4 working days'] }, { text: '**Shipping**: Austria: 2-4 working days, €6.95.' });
 * // → [{ measure: 'passage', value: 1, why: null }, { measure: 'short', value: 1, why: null }]
 */
export function judgeKnowledge(question, record) {
  if (record.failure) return [{ measure: 'passage', value: 0, why: `the turn failed: ${record.failure}` }];
  const reply = fold(record.text);
  const missing = question.expect.filter((piece) =>
    (Array.isArray(piece) ? piece : [piece]).every((alternative) => !reply.includes(fold(alternative))),
  );
  const items = [
    {
      measure: 'passage',
      value: missing.length === 0 ? 1 : 0,
      why:
        missing.length === 0
          ? null
          : `missing ${missing.map((piece) => (Array.isArray(piece) ? piece.map((p) => JSON.stringify(p)).join(' or ') : JSON.stringify(piece))).join(', ')}`,
    },
  ];
  if (!question.whole) {
    const length = visibleText(record.text).length;
    items.push({
      measure: 'short',
      value: length <= ANSWER_MAX_CHARS ? 1 : 0,
      why: length <= ANSWER_MAX_CHARS ? null : `${length} characters (at most ${ANSWER_MAX_CHARS})`,
    });
  }
  return items;
}
