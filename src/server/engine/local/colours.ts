// Colour words in English and German, grouped into the families a shopper asks for: "blue" is asked of a product
// whose colour the store wrote as "Navy" or "Dunkelblau", "rot" of one in "Bordeaux". A store's colour is read word by
// word ("Neon yellow" is yellow); a German compound is read by its ending ("Hellblau" is blue).

export type ColourFamily =
  | 'blue'
  | 'red'
  | 'green'
  | 'yellow'
  | 'orange'
  | 'black'
  | 'white'
  | 'grey'
  | 'brown'
  | 'pink'
  | 'purple'
  | 'gold';

const FAMILIES: Record<ColourFamily, string> = {
  blue: 'blue navy azure cyan teal turquoise indigo cobalt denim blau marine navyblau türkis tuerkis petrol jeansblau',
  red: 'red burgundy maroon crimson scarlet wine cherry rot bordeaux weinrot kirschrot',
  green: 'green olive mint lime sage emerald khaki grün gruen oliv smaragd',
  yellow: 'yellow mustard lemon gelb senfgelb zitronengelb',
  orange: 'orange coral apricot koralle',
  black: 'black schwarz',
  white: 'white ivory cream ecru offwhite weiß weiss creme elfenbein',
  grey: 'grey gray silver charcoal anthracite slate grau silber anthrazit',
  brown: 'brown tan beige camel chocolate cognac taupe braun schoko',
  pink: 'pink rose rosa magenta fuchsia altrosa',
  purple: 'purple violet lilac lavender plum lila violett flieder',
  gold: 'gold golden',
};

/** German colour stems a compound ends in ("hellblau", "dunkelgrün"), and their inflected forms' base ("blaue"). */
const GERMAN_STEMS: Array<[string, ColourFamily]> = [
  ['blau', 'blue'],
  ['grün', 'green'],
  ['gruen', 'green'],
  ['gelb', 'yellow'],
  ['schwarz', 'black'],
  ['weiß', 'white'],
  ['weiss', 'white'],
  ['grau', 'grey'],
  ['braun', 'brown'],
  ['rosa', 'pink'],
  ['lila', 'purple'],
  ['violett', 'purple'],
  ['orange', 'orange'],
  ['rot', 'red'],
];

const BY_WORD = new Map<string, ColourFamily>();
for (const [family, list] of Object.entries(FAMILIES) as Array<[ColourFamily, string]>)
  for (const word of list.split(' ')) BY_WORD.set(word, family);

/** Words that end in a colour stem without being a colour. */
const NOT_COLOURS = new Set(['brot', 'abendbrot', 'karot', 'schrot', 'grauen', 'grausam']);

/**
 * The colour family a (lowercased) word names, or undefined: "navy" → blue, "blaue" → blue, "hellblau" → blue.
 * @example
 * colourFamily('dunkelblauen'); // 'blue'
 * colourFamily('brot'); // undefined
 */
export function colourFamily(word: string): ColourFamily | undefined {
  const direct = BY_WORD.get(word);
  if (direct) return direct;
  if (NOT_COLOURS.has(word)) return undefined;
  // German inflection: "blaue", "blauen", "blauer", "blaues", "roten".
  const base = word.replace(/(?:e|en|er|es|em)$/, '');
  if (base !== word && BY_WORD.has(base)) return BY_WORD.get(base);
  for (const [stem, family] of GERMAN_STEMS) {
    // A compound: a word of its own before the stem ("hell", "dunkel", "königs"), at least three letters.
    if (word.length >= stem.length + 3 && (word.endsWith(stem) || base.endsWith(stem))) return family;
  }
  return undefined;
}

/** The families a store's colour value names ("Neon yellow" → yellow; "Black/Red" → black and red). */
export function coloursOf(value: string): ColourFamily[] {
  const found: ColourFamily[] = [];
  for (const word of value.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const family = colourFamily(word);
    if (family && !found.includes(family)) found.push(family);
  }
  return found;
}
