import { writtenWords } from './text-tokens';
import { wordMemo } from './word-memo';

// German word forms for matching a shopper's words against a store's (DESIGN "Answers that fit the question"): a
// question says "zurückgeben", "gibt … zurück" or "Versandkosten" where the store wrote "Rückgabe", "Versand" and
// "Kosten". Three things of the language meet them:
// - a stemmer, CISTEM (Weissweiler & Fraser 2017, the best-evaluated light stemmer for German), with the derivational
//   "-ung" and the strong verbs' vowel changes on top: "Lieferung", "liefern", "geliefert" → "liefer"; "gibt", "gab",
//   "Gabe", "gegeben" → "geb";
// - separable verbs: the particle is part of the key ("zurück" as its noun form "rück"), and a particle that a clause
//   sent to its end is joined back to the clause's verb ("Wie gebe ich das zurück?" → "zurückgebe");
// - compounds, split over a lexicon the caller has (the index's own words): "versandkosten" → "versand" + "kosten".
//
// Written here rather than taken from a library: the maintained JavaScript stemmers (Snowball through
// @orama/stemmers, already used by knowledge-terms.ts) stem "Rückgabe" to "ruckgab" and "zurückgeben" to
// "zuruckgeb", and know neither particles nor vowel changes; the decompounders on npm either bring a dictionary of
// their own (megabytes, and words a store's text does not use) or are unmaintained. The algorithm is a few screens.
// Shared by the store's knowledge and usable by the catalog (see `germanKey`, `splitCompound`).

/** Lowercase, umlauts folded to their vowel and ß to ss, as shoppers often type them ("Groesse" aside). */
export function foldGerman(word: string): string {
  return word
    .toLowerCase()
    .replace(/[äàáâ]/g, 'a')
    .replace(/[öòóô]/g, 'o')
    .replace(/[üùúû]/g, 'u')
    .replace(/ß/g, 'ss');
}

/**
 * CISTEM, case-insensitive variant, on a folded word: strips "ge-" before at least four letters, then repeatedly
 * "-em"/"-er"/"-nd" (from words over five letters), "-t", and "-e"/"-s"/"-n", while more than three letters are left
 * ("sch", "ei", "ie" and doubled letters count as one).
 */
export function cistem(folded: string): string {
  let word = folded.replace(/^ge(.{4,})/, '$1');
  word = word.replace(/sch/g, '$').replace(/ei/g, '%').replace(/ie/g, '&').replace(/(.)\1/g, '$1*');
  while (word.length > 3) {
    if (word.length > 5 && /(?:em|er|nd)$/.test(word)) {
      word = word.slice(0, -2);
      continue;
    }
    if (/[tesn]$/.test(word)) {
      word = word.slice(0, -1);
      continue;
    }
    break;
  }
  return word.replace(/(.)\*/g, '$1$1').replace(/%/g, 'ei').replace(/&/g, 'ie').replace(/\$/g, 'sch');
}

// The strong verbs whose vowel changes between the verb, its past, its participle and the nouns made from them
// (the principal parts of a German grammar's table, and the nouns the language derives from them: Gabe, Nahme,
// Kunft, Zug, Fahrt, Gang, Schrift, Bruch, Spruch, Wurf, Fund, Bund, Sprung, Flug, Schluss, Griff). The first word
// of a line is the one all others are keyed to. A closed class of the language, not a list of a store's words.
const STRONG_VERBS = [
  'geben gibt gibst gab gaben gabe',
  'nehmen nimmt nimmst nahm nahmen genommen nahme',
  'kommen kam kamen kunft',
  'ziehen zog zogen gezogen zug zuge',
  'fahren fahrt fährt fuhr fuhren',
  'gehen ging gingen gegangen gang gange',
  'schreiben schrieb schrieben geschrieben schrift',
  'brechen bricht brach gebrochen bruch',
  'sprechen spricht sprach gesprochen spruch',
  'werfen wirft warf geworfen wurf',
  'finden fand fanden gefunden fund',
  'binden band gebunden bund',
  'springen sprang gesprungen sprung',
  'fliegen flog geflogen flug',
  'schließen schloss geschlossen schluss',
  'greifen griff gegriffen',
  'stehen stand standen gestanden',
  'sehen sieht sah gesehen',
  'rufen rief riefen gerufen',
  'halten hält hielt gehalten',
  'laden lädt lud geladen',
  'tragen trägt trug getragen',
  'treten tritt trat getreten',
  'treffen trifft traf getroffen',
  'helfen hilft half geholfen',
  'bieten bot boten geboten',
  'bringen brachte gebracht',
  'senden sandte gesandt',
  'bleiben blieb geblieben',
  'leihen lieh geliehen',
  'tun tat getan',
  'waschen wäscht wusch gewaschen',
  'wachsen wächst wuchs gewachsen',
  'messen misst maß gemessen',
  'lesen liest las gelesen',
  'liegen lag gelegen',
  'schneiden schnitt geschnitten schnitt',
  'schieben schob geschoben schub',
  'gießen goss gegossen guss',
  'fließen floss geflossen fluss',
  'lassen lässt ließ gelassen',
  'fallen fällt fiel gefallen',
  'fangen fängt fing gefangen',
  'heben hob gehoben hub',
  'wiegen wog gewogen',
  'frieren fror gefroren',
  'reißen riss gerissen',
  'streichen strich gestrichen',
  'weisen wies gewiesen',
];

/** The CISTEM stem of a strong verb's form → the stem of its infinitive ("gab" → "geb"). */
const VOWEL_CHANGES = new Map<string, string>();
for (const line of STRONG_VERBS) {
  const [infinitive, ...forms] = line.split(' ');
  const key = cistem(foldGerman(infinitive));
  for (const form of forms) {
    const stem = cistem(foldGerman(form));
    // A form whose stem is another verb's infinitive stem stays that verb's ("lag" is not "lagen").
    if (stem !== key && !VOWEL_CHANGES.has(stem)) VOWEL_CHANGES.set(stem, key);
  }
}

/** The separable particles, folded, longest first so "zurück" is taken before "zu"; each → its form in the key. */
const PARTICLES: [string, string][] = (
  [
    ['zuruck', 'ruck'],
    ['ruck', 'ruck'],
    ['zusammen', 'zusammen'],
    ['herunter', 'herunter'],
    ['heraus', 'heraus'],
    ['herein', 'herein'],
    ['hinaus', 'hinaus'],
    ['hinein', 'hinein'],
    ['vorbei', 'vorbei'],
    ['weiter', 'weiter'],
    ['wieder', 'wieder'],
    ['fest', 'fest'],
    ['nach', 'nach'],
    ['auf', 'auf'],
    ['aus', 'aus'],
    ['bei', 'bei'],
    ['ein', 'ein'],
    ['her', 'her'],
    ['hin', 'hin'],
    ['los', 'los'],
    ['mit', 'mit'],
    ['vor', 'vor'],
    ['weg', 'weg'],
    ['ab', 'ab'],
    ['an', 'an'],
    ['um', 'um'],
    ['zu', 'zu'],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

/** The particles a clause may send to its end ("Ich gebe es zurück"), folded. */
const TRAILING_PARTICLES = new Set(PARTICLES.map(([p]) => p).filter((p) => p !== 'ruck'));

/** How a German word (folded) can begin: a vowel, or consonants the language opens a syllable with, then a vowel. */
const ONSET =
  /^(?:[aeiou]|sch[lmnrw]?[aeiouy]|(?:[bcdfghjklmnpqrstvwxz]|bl|br|ch|dr|fl|fr|gl|gr|kl|kn|kr|pf|pfl|pl|pr|sp|spr|st|str|tr|zw|qu)[aeiouy])/;

/** The stem of a word without a particle: "-ung" dropped, CISTEM, then the strong verbs' vowel changes. */
function rootStem(folded: string): string {
  const base = /.{3}ungen$/.test(folded)
    ? folded.slice(0, -5)
    : /.{3}ung$/.test(folded)
      ? folded.slice(0, -3)
      : folded;
  const stem = cistem(base);
  return VOWEL_CHANGES.get(stem) ?? stem;
}

/**
 * A German word's key: its separable particle (if any, "zurück" as "rück") and the stem of the rest, so the forms of
 * one verb and the nouns made from it share it. Words of other languages get a key too; it only ever meets words
 * with the same key. Memoized.
 *
 * @example
 * germanKey('zurückgeben');   // → 'ruckgeb'
 * germanKey('Rückgabe');      // → 'ruckgeb'
 * germanKey('zurückgegeben'); // → 'ruckgeb'
 * germanKey('Lieferung');     // → 'liefer', as 'liefern' and 'geliefert'
 */
export const germanKey = wordMemo((word: string): string => {
  const folded = foldGerman(word);
  let key = rootStem(folded);
  for (const [particle, form] of PARTICLES) {
    if (!folded.startsWith(particle)) continue;
    let rest = folded.slice(particle.length);
    // The rest must be a word of its own: "Zucker" is not "zu" + "cker", "Abend" not "ab" + "end".
    if (rest.length < 4 || !ONSET.test(rest)) continue;
    // "zurückzugeben": the infinitive's "zu" sits between particle and verb.
    if (rest.startsWith('zu') && rest.length >= 7 && rest.endsWith('en')) rest = rest.slice(2);
    key = form + rootStem(rest);
    break;
  }
  return key;
});

/** Words a clause opens with that are not its verb: question words, pronouns, articles, a few adverbs. */
const NOT_VERBS = new Set(
  (
    'wie wann wo was warum wieso weshalb wer wen wem welche welcher welches welchen woher wohin ' +
    'ich du er sie es wir ihr man das der die den dem des ein eine einen einem einer ' +
    'mein meine meinen meinem meiner dein deine deinen ihre ihren ihrem unser unsere unseren euer eure sein seine ' +
    'dann heute morgen jetzt bitte noch schon auch da so hier dort gestern bis ab' +
    ' kann kannst konnen konnt muss musst mussen darf durfen soll sollen will wollen mochte mochten werde wird werden'
  ).split(' '),
);

/** How a German finite verb ends: "-e", "-n", "-t", "-st" ("bieten", "bietet", "bietest", "biete"). */
const VERB_ENDING = /(?:e|n|t)$/u;

const CLAUSE_BREAK = /[.!?;:,()[\]\n"“”„«»]+|\s(?:und|oder|aber|sondern|denn|weil|dass|wenn|ob)\s/i;

/** A separable verb a clause split: its verb and particle as the text wrote them, and the word they make. */
export interface SeparatedVerb {
  verb: string;
  particle: string;
  /** Particle and verb joined, as one word: "zurückgebe". */
  word: string;
}

/**
 * The separable verbs a text split, joined back: in "Wie gebe ich Schuhe zurück?" the particle ends the clause and
 * the verb opens it (second, after a question word or pronoun, or first in a yes/no question). Words lowercased.
 *
 * @example
 * separatedVerbs('Wie gibt man Schuhe zurück? Holen Sie es im Laden ab.').map((v) => v.word);
 * // → ['zurückgibt', 'abholen']
 */
export function separatedVerbs(text: string): SeparatedVerb[] {
  const out: SeparatedVerb[] = [];
  for (const clause of text.split(CLAUSE_BREAK)) {
    // Tokenized once: the words as written, for their capitals below, and lowercased.
    const original = writtenWords(clause);
    const words = original.map((w) => w.toLowerCase());
    if (words.length < 3) continue;
    const particle = words[words.length - 1];
    if (!TRAILING_PARTICLES.has(foldGerman(particle))) continue;
    // The verb comes first or second, after one part of the clause ("Wie", "Ihr Paket"); a capitalized word inside
    // a clause is a noun, not the verb.
    const lowercase = original.every((o) => o === o.toLowerCase());
    const candidates = words
      .slice(0, Math.min(3, words.length - 1))
      .map((w, i) =>
        !NOT_VERBS.has(foldGerman(w)) && /^\p{L}{2,}$/u.test(w) && (i === 0 || original[i] === w || lowercase)
          ? w
          : null,
      );
    // A capitalized first word followed by a lowercase one shaped like a verb is the clause's object put first
    // ("Nachnahme bieten wir nicht an"), not a verb opening it ("Holen Sie …", "Bietet ihr …", "Schick einfach …").
    const objectFirst =
      !lowercase &&
      candidates[0] !== null &&
      candidates[1] !== null &&
      original[0] !== words[0] &&
      original[1] === words[1] &&
      VERB_ENDING.test(words[1]);
    const verb = (objectFirst ? candidates.slice(1) : candidates).find((w) => w !== null);
    if (verb) out.push({ verb, particle, word: particle + verb });
  }
  return out;
}

/** German compounds join with these linking letters ("Lieferung-s-bedingungen", "Tag-es-zeit"), or with none. */
export const COMPOUND_LINKS: readonly string[] = ['', 's', 'es', 'n', 'en', 'e'];

/**
 * A compound's parts, each a word `isKnown` accepts (the caller's lexicon: the index's own words), or null when the
 * word is no compound of known words. Fewest parts win, then the longest last part (German puts the head last).
 * Parts are at least `minPart` letters; a linking "s"/"es"/"n"/"en"/"e" may sit between them.
 *
 * @example
 * splitCompound('versandkosten', (w) => ['versand', 'kosten'].includes(w)); // → ['versand', 'kosten']
 * splitCompound('wanderschuhe', (w) => w === 'schuhe');                      // → null ("wander" is unknown)
 */
export function splitCompound(
  word: string,
  isKnown: (part: string) => boolean,
  minPart = 3,
): string[] | null {
  const n = word.length;
  if (n < minPart * 2) return null;
  /** best[i]: the fewest known parts covering word[i..], or null. */
  const best: (string[] | null)[] = new Array(n + 1).fill(null);
  best[n] = [];
  for (let i = n - minPart; i >= 0; i--) {
    let chosen: string[] | null = null;
    for (let j = n; j >= i + minPart; j--) {
      let known: boolean | undefined;
      for (const link of COMPOUND_LINKS) {
        const next = j + link.length;
        if (next > n || word.slice(j, next) !== link) continue;
        const rest = best[next];
        if (rest === null || (chosen !== null && rest.length + 1 >= chosen.length)) continue;
        // The lexicon is asked once per part, and only for a part that would make a better split.
        known ??= isKnown(word.slice(i, j));
        if (known) chosen = [word.slice(i, j), ...rest];
      }
    }
    best[i] = chosen;
  }
  const parts = best[0];
  return parts && parts.length >= 2 ? parts : null;
}
