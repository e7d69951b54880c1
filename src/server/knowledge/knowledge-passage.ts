import { searchWords } from '../core/search-words';
import { createKnowledgeIndex, type KnowledgeIndex } from './knowledge-index';
import { termForms } from './knowledge-terms';
import { clip } from './markdown-sections';
import { type AnswerCue, lineCues, questionCues } from './question-cues';
import { type SectionUnit, sectionUnits } from './section-units';

// The lines of a section that answer a question (DESIGN "Answers that fit the question"): "Do you ship to Austria?"
// is answered by the Austria row of the shipping table, "Can I return shoes I already wore?" by the item about worn
// shoes, not by the whole policy. A section is cut into its sentences, list items and table rows (section-units.ts);
// each is scored by the question's words with the same matching as the sections themselves (knowledge-index.ts:
// stems, German forms, compounds, typos, store-topic words); the best is taken, then others that answer a word of the
// question the first did not, or answer as well, while they fit. The lines that belong to a chosen one come with it:
// a list's introduction ("We accept:"), the sub-heading above, the sentence a "This …" or "Dies …" refers back to.
// A question that names only the section's topic ("returns?") gets the section's opening lines (all of it, when it
// fits): a short section is not cut for a question that asks about all of it.

/** What a passage is, for the answer to say. */
export interface Passage {
  /** The passage's markdown: the section's own lines, in their order, lists as lists. */
  text: string;
  /** Whether it is the whole section. */
  whole: boolean;
}

/** A question word found in the title counts this much in a line: every line of "Returns" is about returns. */
const TOPIC_WEIGHT = 0.25;
/** A title word and a question word of which one begins the other are the same topic from this length on. */
const TOPIC_PREFIX_MIN = 5;
/** A further line is taken for its own sake when it scores this share of the best one. */
const ALSO_GOOD = 0.75;
/**
 * A line that gives what the question asks for (a duration for "how long", a price for "how much", question-cues.ts)
 * ranks as if its words scored this much more, per kind given: "You can return items within 30 days" answers "how
 * long do I have to return?" before "Returns are free" does, though both say "return".
 */
const CUE_BOOST = 1;
/** What such a line scores at least, when the question's only words are the topic's and it holds none of them. */
const CUE_FLOOR = 0.01;
/** A sentence that opens with one of these words leans on the one before it. */
const REFERS_BACK =
  /^(?:this|that|these|those|it|they|then|there|also|however|but|so|otherwise|dies|diese[rsmn]?|das|dann|dort|dabei|außerdem|aber|jedoch|deshalb|daher|sonst|ansonsten)\b/iu;

/** What a section is cut into and indexed by, whatever the question: read once per text (`readSection`). */
interface ReadSection {
  units: readonly SectionUnit[];
  /** The whole section, rendered. */
  all: string;
  /** Its units as documents, to score a question's words against. */
  index: KnowledgeIndex;
  /** The kinds of answer each unit gives. */
  cues: readonly ReadonlySet<AnswerCue>[];
}

/**
 * Sections read, by their text: the store's knowledge is the same from one question to the next, and cutting a
 * section into its lines and indexing them was most of the local engine's work for a knowledge question (issue 32,
 * the cost of a turn). Bounded by their characters (an index holds a few times its text), the oldest going first; an
 * edited section is a new text, and its old one ages out.
 */
const READ_CHARS_MAX = 1_000_000;
const readSections = new Map<string, ReadSection>();
let readChars = 0;

function readSection(text: string): ReadSection {
  const known = readSections.get(text);
  if (known) return known;
  const units = sectionUnits(text);
  const read: ReadSection = {
    units,
    all: render(units, new Set(units.keys())),
    index: createKnowledgeIndex(units.map((unit) => ({ title: '', text: unit.text, source: null }))),
    cues: units.map((unit) => lineCues(unit.text)),
  };
  if (text.length > READ_CHARS_MAX) return read;
  for (const [oldest] of readSections) {
    if (readChars + text.length <= READ_CHARS_MAX) break;
    readSections.delete(oldest);
    readChars -= oldest.length;
  }
  readSections.set(text, read);
  readChars += text.length;
  return read;
}

/**
 * The passage of `section` that answers `question`, within `maxChars`; the whole section when `whole` is asked for
 * (then up to `wholeMaxChars`), or when the question names only its topic and it fits.
 *
 * @example
 * passageOf({ title: 'Shipping', text: '| Country | Time |\n|---|---|\n| Germany | 2 days |\n| Austria | 4 days |' },
 *   'how long to Austria', 40);
 * // → { text: '- **Austria**: Time 4 days', whole: false }
 */
export function passageOf(
  section: { title: string; text: string },
  question: string,
  maxChars: number,
  options: { whole?: boolean; wholeMaxChars?: number } = {},
): Passage {
  const { units, all, index, cues } = readSection(section.text);
  if (options.whole) {
    const max = options.wholeMaxChars ?? Number.POSITIVE_INFINITY;
    return { text: clip(all, max), whole: all.length <= max };
  }

  const scores = unitScores(section.title, units, index, question);
  const asked = questionCues(question);
  const given = answerCues(units, cues, question, new Set(asked), scores);
  const gives = given.map((cues) => cues.size);
  const rank = (n: number) => (scores.value[n] + (gives[n] > 0 ? CUE_FLOOR : 0)) * (1 + CUE_BOOST * gives[n]);
  const answersOwn = (n: number) => scores.words.some((_, w) => !scores.topic[w] && scores.byWord[w][n] > 0);
  // When no line holds a word of the question beyond the topic ("how much is a canoe?" of "Canoe rental"), a line
  // that gives what it asks for answers, with the topic's word or without.
  const onlyTopic = !units.some((_, n) => answersOwn(n));
  // Lines that hold a question word beyond the topic's; a line that only says "returns" again answers nothing,
  // unless it gives what the question asks for ("how long can I return?": the line with the days).
  const order = [...units.keys()].filter(
    (n) => (scores.value[n] > 0 || (onlyTopic && gives[n] > 0)) && (gives[n] > 0 || answersOwn(n)),
  );
  order.sort((a, b) => rank(b) - rank(a) || a - b);
  const chosen = new Set<number>();
  let length = 0;
  /** Takes a unit with what belongs to it, if all of it fits; whether it did. */
  const take = (n: number): boolean => {
    const adding = [n, ...belonging(units, n)].filter((k) => !chosen.has(k));
    const next = new Set([...chosen, ...adding]);
    const size = render(units, next).length;
    if (size > maxChars) return false;
    for (const k of adding) chosen.add(k);
    length = size;
    return true;
  };

  if (order.length > 0) {
    const best = order[0];
    if (!take(best)) return { text: clip(render(units, new Set([best])), maxChars), whole: false };
    const covered = new Set(scores.words.filter((_, w) => scores.byWord[w][best] > 0));
    // What the question asks for counts like a word of it: when the best line is about the laptop but gives no
    // duration, "how long is the warranty on a laptop?" also takes the line that does.
    const coveredCues = new Set(given[best]);
    // "Can I return shoes I bought?" answered by "Worn shoes are excluded" alone reads as a no: a yes/no question
    // about the section's topic whose best line is an exception gets the section's rule too, its first line when
    // that names the topic ("Most items can be returned within 30 days").
    const opening = units.findIndex((unit) => unit.kind === 'sentence' || unit.kind === 'item');
    if (
      opening >= 0 &&
      opening !== best &&
      asked.has('negation') &&
      cues[best].has('negation') &&
      !cues[opening].has('negation') &&
      scores.words.some((_, w) => scores.topic[w] && scores.byWord[w][opening] > 0)
    )
      take(opening);
    for (const n of order.slice(1)) {
      const answersMore =
        scores.words.some((word, w) => !covered.has(word) && scores.byWord[w][n] > 0) ||
        [...given[n]].some((cue) => cue !== 'negation' && !coveredCues.has(cue));
      if (!answersMore && rank(n) < ALSO_GOOD * rank(best)) continue;
      if (!take(n)) continue;
      scores.words.forEach((word, w) => {
        if (scores.byWord[w][n] > 0) covered.add(word);
      });
      for (const cue of given[n]) coveredCues.add(cue);
    }
  } else {
    // Only the topic was asked about: the section's opening lines, as many as fit.
    for (const n of units.keys()) if (!take(n)) break;
    if (chosen.size === 0) return { text: clip(all, maxChars), whole: false };
  }
  return { text: render(units, chosen), whole: length === all.length };
}

/**
 * Which of the kinds of answer the question asks for each unit gives (question-cues.ts). A yes/no question counts a
 * line that says what is not done only when the section names none of the question's own words: "do you ship to
 * Japan?" of a page that lists no Japan is answered by "We do not ship outside Europe".
 */
function answerCues(
  units: readonly SectionUnit[],
  cues: readonly ReadonlySet<AnswerCue>[],
  question: string,
  /** What the question asks for (questionCues); changed here. */
  asked: Set<AnswerCue>,
  scores: { words: string[]; byWord: Float64Array[]; topic: boolean[] },
): Set<AnswerCue>[] {
  const own = scores.words.map((_, w) => w).filter((w) => !scores.topic[w]);
  const unnamed = own.length > 0 && own.every((w) => scores.byWord[w].every((v) => v === 0));
  // ... and asks about a place or a name ("to the USA", "a Brompton"), not "do you offer returns?", which the
  // section's opening lines answer better than its exceptions.
  const names = capitalized(question);
  const named = own.some((w) => names.has(scores.words[w]));
  if (!unnamed || !(asked.has('place') || named)) asked.delete('negation');
  return units.map((unit, n) => {
    if (asked.size === 0 || unit.kind === 'lead' || unit.kind === 'heading') return new Set<AnswerCue>();
    return new Set([...asked].filter((cue) => cues[n].has(cue)));
  });
}

/** Each unit's score for the question; words found in the title count little (TOPIC_WEIGHT). */
function unitScores(
  title: string,
  units: readonly SectionUnit[],
  index: KnowledgeIndex,
  question: string,
): { value: Float64Array; words: string[]; byWord: Float64Array[]; topic: boolean[] } {
  const { words, scores } = index.wordScores(question);
  const titleForms = searchWords(title).flatMap((word) => termForms(word));
  const value = new Float64Array(units.length);
  const byWord: Float64Array[] = [];
  const topic: boolean[] = [];
  words.forEach((word, w) => {
    const row = scores[w];
    topic.push(namesTopic(word, titleForms));
    const weight = topic[w] ? TOPIC_WEIGHT : 1;
    byWord.push(row);
    for (let n = 0; n < units.length; n++) value[n] += weight * row[n];
  });
  // A lead or heading alone answers nothing; it comes with the lines it introduces.
  units.forEach((unit, n) => {
    if (unit.kind === 'lead' || unit.kind === 'heading') value[n] = 0;
  });
  return { value, words, byWord, topic };
}

/**
 * Whether a question word is the section's title word, in some form ("returns" and "Returns and refunds",
 * "zurückgeben" and "Rückgabe", "Versandkosten" and "Versand"), not merely a word of its topic: "PayPal" and
 * "installments" ask about a line of "Payment methods".
 */
function namesTopic(word: string, titleForms: readonly string[]): boolean {
  return termForms(word).some((form) =>
    titleForms.some(
      (title) =>
        form === title ||
        (Math.min(form.length, title.length) >= TOPIC_PREFIX_MIN &&
          (form.startsWith(title) || title.startsWith(form))),
    ),
  );
}

/** The units that come with unit `n`: its lead or heading, and the sentence it refers back to. */
function belonging(units: readonly SectionUnit[], n: number): number[] {
  const out: number[] = [];
  const unit = units[n];
  if (unit.lead !== undefined) {
    out.push(unit.lead);
    const leadsLead = units[unit.lead].lead;
    if (leadsLead !== undefined) out.push(leadsLead);
  }
  if (unit.kind === 'sentence' && n > 0 && units[n - 1].block === unit.block && REFERS_BACK.test(unit.text))
    out.push(n - 1, ...belonging(units, n - 1));
  return out;
}

/** The chosen units as markdown, in their order: a paragraph's sentences on one line, a list's items as a list. */
function render(units: readonly SectionUnit[], chosen: ReadonlySet<number>): string {
  const blocks: string[] = [];
  let current = -1;
  let parts: string[] = [];
  let separator = ' ';
  const flush = () => {
    if (parts.length > 0) blocks.push(parts.join(separator));
    parts = [];
  };
  units.forEach((unit, n) => {
    if (!chosen.has(n)) return;
    if (unit.block !== current) {
      flush();
      current = unit.block;
      separator = unit.kind === 'item' ? '\n' : ' ';
    }
    parts.push(unit.text);
  });
  flush();
  return blocks.join('\n\n');
}

/** The question's words written with a capital after its first word ("to the USA", "nach Japan"), lowercased. */
function capitalized(question: string): Set<string> {
  const tokens = question.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return new Set(
    tokens
      .slice(1)
      .filter((t) => /^\p{Lu}/u.test(t))
      .map((t) => t.toLowerCase()),
  );
}
