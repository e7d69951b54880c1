import type { KnowledgeHit } from '../core/engine';
import { COMPOUND_LINKS, germanKey, splitCompound } from '../core/german-words';
import { searchWords } from '../core/search-words';
import { isWordForm, joinedVerbs, rankedWords, termForms } from './knowledge-terms';
import { questionPhrases, synonymForms } from './question-synonyms';

// Ranking a store's knowledge sections for a shopper's question (DESIGN "Store knowledge"). BM25F over the title
// (weighted higher) and the text, on the catalog tokenizer's words under their English and German stems
// (knowledge-terms.ts), with three additions for real questions: a German compound meets its head ("Versandkosten"
// finds "Versand"), a typo meets the word ("retruns" finds "returns"), and a store-topic word meets the others of its
// topic ("call" finds "Phone", question-synonyms.ts). German compounds are split over the index's own words, both
// ways: a question's "Versandkosten" meets "Versand" and "Kosten", and a question's "Kosten" meets the text's
// "Versandkosten" (core/german-words.ts); a verb the text or question split ("gibt … zurück") is one word again.
//
// Written here rather than taken from a search library (MiniSearch, Orama, lunr): the scoring needs two things those
// do not offer together, a question word scored by the best of its two stems instead of their sum, and scores on a
// fixed scale so that one minimum tells "this section answers it" from "nothing does" whatever the number of
// sections. It is a few screens of code; `npm run bench` (scripts/bench-knowledge.mjs) measures it at the limit of
// 500 sections of 20,000 characters.

/** A section as it is ranked: written in the config (`source` null) or a heading of a `knowledgeUrls` document. */
export interface KnowledgeSection {
  title: string;
  text: string;
  source: string | null;
  /** The headings the section sits under in its document ("Shipping" for "Austria"), ranked as part of the title. */
  context?: string;
}

export interface KnowledgeIndex {
  /** How many sections it holds. */
  readonly size: number;
  /** The sections that answer `query`, best first, at most `limit` (default 3); none for an unrelated question. */
  search(query: string, limit?: number): KnowledgeHit[];
  /**
   * The question's ranked words, and for each its score in every section (0 where it is not found), on the same
   * scale as `search`: for choosing the lines of a section that answer (knowledge-passage.ts).
   */
  wordScores(query: string): { words: string[]; scores: Float64Array[] };
}

/** BM25's term-frequency saturation; the usual value. */
const K1 = 1.2;
/** BM25's length normalization, applied only to texts longer than the average (see `lengthNorm`). */
const B = 0.75;
/** A title word counts as this many words of text: a section titled "Shipping" is about shipping. */
const TITLE_WEIGHT = 3;
/** The enclosing headings count less than the section's own. */
const CONTEXT_WEIGHT = 1.5;
/** How much a match counts by kind: the word itself (1), a longer word it begins ("versand" → "versandkosten"), ... */
const PREFIX_WEIGHT = 0.8;
/** ... the head of a compound it is ("telefonnummer" → "telefon"), one typo away ("retruns" → "returns"), ... */
const HEAD_WEIGHT = 0.9;
const TYPO_WEIGHT = 0.75;
/** ... a part of the question's compound ("versandkosten" → "kosten"), or a compound whose head it is. */
const PART_WEIGHT = 0.85;
const COMPOUND_WEIGHT = 0.7;
/**
 * ... or, less, the head of a compound whose front the index does not know: German puts a compound's meaning last, so
 * a question's "Kreditkartendaten" is a kind of the text's "Kartendaten", and its "Garantie" what the text's
 * "Herstellergarantie" is a kind of.
 */
const TAIL_WEIGHT = 0.6;
/** Such a head is this long at least, and the front it leaves at least COMPOUND_PART_MIN: "daten" is too general. */
const TAIL_MIN = 6;
/** ... or a word of its store topic ("call" → "phone", question-synonyms.ts). */
const SYNONYM_WEIGHT = 0.6;
/**
 * Prefixes and heads are this long at least: shorter ones join unrelated words ("pay" is not "paypal"; the German
 * stem of "store", "stor", begins "stornieren").
 */
const PREFIX_MIN = 5;
const HEAD_MIN = 5;
/** A typo is looked for only in words this long; a shorter word is one letter from too many others. */
const TYPO_MIN = 5;
/** Parts of a compound are this long at least; a head found inside the index's compounds, this. */
const COMPOUND_PART_MIN = 3;
const COMPOUND_HEAD_MIN = 4;
/**
 * Longer question words are not split: splitting costs the square of a word's length, and German's long compounds
 * ("Rücksendeetikettenausdruck") stay under it.
 */
const COMPOUND_MAX = 40;
/** A short prefix may begin many words; the first this many in alphabetical order are taken. */
const PREFIX_EXPANSIONS_MAX = 64;
/** The fewest sections rarity is counted over (see `idf` below). */
const RARITY_SECTIONS = 20;
/** A question longer than this many distinct words is ranked on its first ones (a message is not a document). */
const QUERY_WORDS_MAX = 32;

/**
 * The least score of a hit. A question word adds at most 1 to a section's score: its match weight × how rare it is
 * among the sections (1 for a word of one section, near 0 for a word of all) × how strongly the section holds it
 * (0.71 for once in the title, 0.45 for once in a text of average length, nearer 1 the more often). A section is a hit
 * when it reaches this score and either a question word is in its title ("store hours" finds "Opening hours") or it
 * holds every word of the question ("Wann habt ihr geöffnet?" finds the text saying "geöffnet"). So one word of a
 * longer question found in some text is not a hit: "do you sell shoes" does not find the returns section that says
 * "shoes must be unworn", nor "Gibt es die Jacke in Größe L?" the one that says "andere Größe". Tuned on the demo
 * store's questions (demo/integrator/store-knowledge.test.ts); the result held from 0.2 to 0.35.
 */
export const MIN_SCORE = 0.3;
/**
 * A section that holds all of a question's words but one, of three or more, answers it when it scores this much and
 * the one is a word, not a number ("cancel order 1003" asks about that order): a sentence asks with words the text
 * need not have ("Wann geht meine Bestellung raus, wenn ich abends bestelle?" of
 * the text that says "spätere Bestellungen gehen am nächsten Werktag raus"). Two words of a two-word question still
 * must both be found ("do you sell shoes" is not the section saying "worn shoes").
 */
export const NEAR_SCORE = 0.6;
/** The fewest ranked words of a question that may leave one out (see NEAR_SCORE). */
const NEAR_WORDS_MIN = 3;

/**
 * Indexes sections once (per widget, again only when its knowledge changes) for many searches.
 *
 * @example
 * const index = createKnowledgeIndex([{ title: 'Shipping', text: 'We ship within 2 days.', source: null }]);
 * index.search('how long does shipping take')[0].title; // → 'Shipping'
 * index.search('what is the capital of France');        // → []
 */
export function createKnowledgeIndex(sections: readonly KnowledgeSection[]): KnowledgeIndex {
  const builder = indexBuilder(sections);
  builder.addSections(Number.POSITIVE_INFINITY);
  return builder.finish();
}

/**
 * {@link createKnowledgeIndex} a slice of text at a time, giving the event loop back between slices: 500 sections of
 * 20,000 characters take about a second to index, which must not hold up every other request of the service. A slice
 * is 80,000 characters, some 15 ms of work with the German forms (termForms: three stemmers per new word).
 *
 * @example
 * const index = await buildKnowledgeIndex(sections);
 */
export async function buildKnowledgeIndex(
  sections: readonly KnowledgeSection[],
  sliceChars = 80_000,
): Promise<KnowledgeIndex> {
  const builder = indexBuilder(sections);
  while (builder.addSections(sliceChars)) await new Promise((resolve) => setImmediate(resolve));
  return builder.finish();
}

/** The index's two steps: counting the sections' words (in slices), then the figures ranking needs. */
/**
 * A time or a small number ("7pm", "17uhr", "5"): when a question's, it says when or how many. Not an order or
 * invoice number ("1003", "58213"): a question that names one asks about that order, which no section answers.
 */
const WHEN_WORD = /^\d{1,2}(?:am|pm|uhr|h)?$/;

function indexBuilder(sections: readonly KnowledgeSection[]): {
  addSections(chars: number): boolean;
  finish(): KnowledgeIndex;
} {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  /** Per term: the sections holding it, and its weighted count in their titles and texts; parallel arrays. */
  const postingSections: number[][] = [];
  const postingTitles: number[][] = [];
  const postingTexts: number[][] = [];
  const textLengths: number[] = [];

  const idOf = (form: string): number => {
    let id = termIds.get(form);
    if (id === undefined) {
      id = terms.length;
      termIds.set(form, id);
      terms.push(form);
      postingSections.push([]);
      postingTitles.push([]);
      postingTexts.push([]);
    }
    return id;
  };
  /** A word's term ids, looked up once per build: a long text repeats its words, and this is the costly loop. */
  const idsOfWord = new Map<string, number[]>();
  const titleCounts = new Map<number, number>();
  const textCounts = new Map<number, number>();
  /** Counts the words of `text` into `counts`; returns how many words had forms. */
  const add = (text: string, counts: Map<number, number>, weight: number): number => {
    let found = 0;
    for (const word of searchWords(text)) {
      let ids = idsOfWord.get(word);
      if (ids === undefined) {
        ids = termForms(word).map(idOf);
        idsOfWord.set(word, ids);
      }
      if (ids.length === 0) continue;
      found++;
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + weight);
    }
    return found;
  };
  const addSection = (n: number) => {
    const section = sections[n];
    titleCounts.clear();
    textCounts.clear();
    add(section.title, titleCounts, TITLE_WEIGHT);
    if (section.context) add(section.context, titleCounts, CONTEXT_WEIGHT);
    textLengths.push(add(section.text, textCounts, 1));
    // "Holen Sie Ihre Bestellung im Laden ab" also says "abholen"; the words themselves stay counted.
    const joined = joinedVerbs(section.text);
    if (joined.length > 0) add(joined.join(' '), textCounts, 1);
    for (const [id, title] of titleCounts) {
      postingSections[id].push(n);
      postingTitles[id].push(title);
      postingTexts[id].push(textCounts.get(id) ?? 0);
    }
    for (const [id, text] of textCounts) {
      if (titleCounts.has(id)) continue;
      postingSections[id].push(n);
      postingTitles[id].push(0);
      postingTexts[id].push(text);
    }
  };
  let next = 0;
  /** Indexes the next sections, about `chars` characters of text; whether sections are left. */
  const addSections = (chars: number): boolean => {
    for (let taken = 0; next < sections.length && taken < chars; next++) {
      addSection(next);
      taken += sections[next].text.length;
    }
    return next < sections.length;
  };
  return { addSections, finish };

  function finish(): KnowledgeIndex {
    const averageLength = textLengths.reduce((a, b) => a + b, 0) / Math.max(1, textLengths.length) || 1;
    // Only a text longer than the average is discounted: a short text with the word once must not pass MIN_SCORE
    // on its shortness (see there).
    const lengthNorm = textLengths.map((n) => 1 - B + B * Math.max(1, n / averageLength));
    /** Per term and section, the saturated weight in [0, 1). */
    const strength: Float64Array[] = postingSections.map((list, id) => {
      const out = new Float64Array(list.length);
      for (let j = 0; j < list.length; j++) {
        const weighted = postingTitles[id][j] + postingTexts[id][j] / lengthNorm[list[j]];
        out[j] = weighted / (weighted + K1);
      }
      return out;
    });
    const inTitle: Uint8Array[] = postingTitles.map((list) => Uint8Array.from(list, (n) => (n > 0 ? 1 : 0)));
    // The counts are in `strength` and `inTitle` now; the index lives as long as the widget's knowledge does.
    postingTitles.length = 0;
    postingTexts.length = 0;
    // The words themselves stay (not the stop words), as the lexicon compounds are split over.
    const indexedWords = new Set<string>();
    for (const [word, ids] of idsOfWord) if (ids.length > 0) indexedWords.add(word);
    idsOfWord.clear();
    // Inverse document frequency on a fixed scale: 1 for a word of one section, falling towards 0 for a word of all.
    // Counted as if there were at least RARITY_SECTIONS sections: in a store's two sections "Shipping" and "Returns"
    // ("return shipping is free"), "shipping" is not a common word; there is just little knowledge.
    const count = sections.length;
    const population = Math.max(count, RARITY_SECTIONS);
    const idf = (df: number) => Math.log(1 + (population - df + 0.5) / (df + 0.5));
    const rarest = idf(1);
    const rarity = postingSections.map((list) => (rarest > 0 ? idf(list.length) / rarest : 1));

    let sortedWords: string[] | undefined;
    /** The indexed letter-only forms, sorted, for prefix lookups; built on the first one. */
    const wordList = () => {
      sortedWords ??= terms.filter(isWordForm).sort();
      return sortedWords;
    };
    let reversedWords: string[] | undefined;
    /** The indexed letter-only forms, each reversed, sorted: the compounds that end in a form are a range. */
    const reversedList = () => {
      reversedWords ??= terms.filter(isWordForm).map(reverse).sort();
      return reversedWords;
    };
    /**
     * Whether a word (part of a compound) is one of the index's own: a word of its texts, or a form of one by its
     * German key ("liefer" of "Lieferung"). Asked for every piece of a question word, so cheaper than `termForms`.
     */
    const isKnown = (part: string) => indexedWords.has(part) || termIds.has(germanKey(part));
    let deletions: Map<string, number[]> | undefined;
    /** Every indexed word and each of its one-letter deletions → the words (SymSpell, distance 1); built on first use. */
    const deletionIndex = () => {
      if (deletions) return deletions;
      deletions = new Map();
      for (let id = 0; id < terms.length; id++) {
        const term = terms[id];
        if (term.length < TYPO_MIN - 1 || !isWordForm(term)) continue;
        for (const key of withDeletions(term)) {
          const list = deletions.get(key);
          if (list) {
            if (list[list.length - 1] !== id) list.push(id);
          } else deletions.set(key, [id]);
        }
      }
      return deletions;
    };

    /** The indexed forms a question word matches, each with its match weight (the best, when several kinds agree). */
    const matchesOf = (word: string): Map<number, number> => {
      const found = new Map<number, number>();
      const put = (id: number | undefined, weight: number) => {
        if (id !== undefined && (found.get(id) ?? 0) < weight) found.set(id, weight);
      };
      const forms = termForms(word);
      for (const form of forms) put(termIds.get(form), 1);
      for (const form of forms) {
        if (!isWordForm(form)) continue;
        if (form.length >= PREFIX_MIN) {
          const list = wordList();
          let at = lowerBound(list, form);
          for (let taken = 0; at < list.length && taken < PREFIX_EXPANSIONS_MAX; at++, taken++) {
            if (!list[at].startsWith(form)) break;
            if (list[at] !== form) put(termIds.get(list[at]), PREFIX_WEIGHT);
          }
        }
        for (let n = form.length - 1; n >= HEAD_MIN; n--) put(termIds.get(form.slice(0, n)), HEAD_WEIGHT);
      }
      for (const form of synonymForms(word)) put(termIds.get(form), SYNONYM_WEIGHT);
      // A compound of the index's words: each part is looked for.
      const parts =
        isWordForm(word) && word.length <= COMPOUND_MAX
          ? splitCompound(word, isKnown, COMPOUND_PART_MIN)
          : null;
      for (const part of parts ?? []) for (const form of termForms(part)) put(termIds.get(form), PART_WEIGHT);
      if (isWordForm(word) && word.length <= COMPOUND_MAX) {
        for (let at = COMPOUND_PART_MIN; word.length - at >= TAIL_MIN; at++) {
          const tail = word.slice(at);
          if (!indexedWords.has(tail)) continue;
          for (const form of termForms(tail)) put(termIds.get(form), TAIL_WEIGHT);
          break;
        }
      }
      // A compound of the index whose head the word is, its other part one of the index's words too.
      for (const form of forms) {
        if (form.length < COMPOUND_HEAD_MIN || !isWordForm(form)) continue;
        const list = reversedList();
        const tail = reverse(form);
        for (
          let at = lowerBound(list, tail), taken = 0;
          at < list.length && taken < PREFIX_EXPANSIONS_MAX;
          at++
        ) {
          if (!list[at].startsWith(tail)) break;
          taken++;
          const compound = reverse(list[at]);
          const modifier = compound.slice(0, compound.length - form.length);
          if (modifier.length < COMPOUND_PART_MIN) continue;
          if (isCompoundModifier(modifier, isKnown)) put(termIds.get(compound), COMPOUND_WEIGHT);
          else if (form.length >= TAIL_MIN) put(termIds.get(compound), TAIL_WEIGHT);
        }
      }
      if (found.size > 0) return found;
      for (const form of forms) {
        if (form.length < TYPO_MIN || !isWordForm(form)) continue;
        const index = deletionIndex();
        for (const key of withDeletions(form)) {
          for (const id of index.get(key) ?? []) {
            if (isOneEditApart(form, terms[id])) put(id, TYPO_WEIGHT);
          }
        }
      }
      return found;
    };

    /** The question's words that are ranked: distinct, the first QUERY_WORDS_MAX, split verbs joined where found. */
    const questionWords = (query: string): string[] =>
      [...new Set(rankedWords(questionPhrases(query), (joined) => matchesOf(joined).size > 0))].slice(
        0,
        QUERY_WORDS_MAX,
      );
    /**
     * One question word's score in each section, into `best` (all zeros on the way in): its best match there
     * ("shipping" found as "ship" and as "shipping" is still one word of the question). Marks in `titled` the sections
     * whose title holds it. Returns the sections it scores in, so that a search reads (and clears) only those.
     */
    const scoreWord = (word: string, best: Float64Array, titled?: Uint8Array): number[] => {
      const touched: number[] = [];
      for (const [id, weight] of matchesOf(word)) {
        const list = postingSections[id];
        const held = strength[id];
        const titles = inTitle[id];
        const factor = weight * rarity[id];
        for (let j = 0; j < list.length; j++) {
          const n = list[j];
          const value = factor * held[j];
          if (titled && titles[j]) titled[n] = 1;
          if (value > best[n]) {
            if (best[n] === 0) touched.push(n);
            best[n] = value;
          }
        }
      }
      return touched;
    };

    return {
      size: count,
      wordScores(query) {
        const words = count === 0 ? [] : questionWords(query);
        return {
          words,
          scores: words.map((word) => {
            const best = new Float64Array(count);
            scoreWord(word, best);
            return best;
          }),
        };
      },
      search(query, limit = 3) {
        if (count === 0 || limit <= 0) return [];
        const words = questionWords(query);
        const scores = new Float64Array(count);
        const matched = new Uint8Array(count);
        const titled = new Uint8Array(count);
        const best = new Float64Array(count);
        /** A time or small number no section holds ("5pm", "7 days") says when, not what about. */
        let unheldNumbers = 0;
        /** Words with a digit ("1003"), and per section how many it holds: a near hit must hold them all. */
        let numbers = 0;
        const matchedNumbers = new Uint8Array(count);
        for (const word of words) {
          const touched = scoreWord(word, best, titled);
          const number = /\d/.test(word);
          if (touched.length === 0 && WHEN_WORD.test(word)) unheldNumbers++;
          else if (number) numbers++;
          for (const n of touched) {
            scores[n] += best[n];
            matched[n]++;
            if (number) matchedNumbers[n]++;
            best[n] = 0;
          }
        }
        const required = words.length - unheldNumbers;
        const ranked: number[] = [];
        for (let n = 0; n < count; n++) {
          // A section answers when the question names its topic (a word of its title) or it holds every word of the
          // question, or all but one of a longer one (NEAR_SCORE); one word of a longer question somewhere in a text
          // is chance (see MIN_SCORE).
          if (
            scores[n] >= MIN_SCORE &&
            (titled[n] ||
              (required > 0 && matched[n] >= required) ||
              (required >= NEAR_WORDS_MIN &&
                matched[n] >= required - 1 &&
                matchedNumbers[n] >= numbers &&
                scores[n] >= NEAR_SCORE))
          )
            ranked.push(n);
        }
        // Best first; a tie keeps the sections' own order (the config's, then the documents').
        ranked.sort((a, b) => scores[b] - scores[a] || a - b);
        return ranked.slice(0, limit).map((n) => ({
          title: sections[n].title,
          text: sections[n].text,
          source: sections[n].source,
          score: Math.round(scores[n] * 1000) / 1000,
        }));
      },
    };
  }
}

/** The first index of `list` (sorted) whose value is not below `value`. */
function lowerBound(list: readonly string[], value: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

const reverse = (word: string): string => [...word].reverse().join('');

/** Whether the front of a compound is a known word, with or without one of German's linking letters. */
function isCompoundModifier(modifier: string, isKnown: (part: string) => boolean): boolean {
  if (isKnown(modifier)) return true;
  for (const link of COMPOUND_LINKS) {
    if (link && modifier.endsWith(link) && modifier.length - link.length >= COMPOUND_PART_MIN) {
      if (isKnown(modifier.slice(0, -link.length))) return true;
    }
  }
  return false;
}

/** A word and each word made by deleting one of its letters. */
function withDeletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Whether two different words are one insertion, deletion, substitution or swap of neighbours apart. */
export function isOneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    // One substitution, or one swap of neighbours.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One letter more in the longer word.
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
