import { splitCompound as splitIntoWords } from '../../core/german-words';
import { singular } from '../../core/search-words';

// The shopping vocabulary the local engine reads product requests with, in English and German (DESIGN "Answers that
// fit the question"): a German shopper meets stores whose catalog is in English ("Handy", "Herrenuhr", "Hundefutter")
// and an English shopper German ones, so each word of a request is searched in its forms in both languages. The lists
// are general retail vocabulary (the departments of a department store, the usual colours, materials and purposes),
// not the words of one catalog: a word that is not here is still searched as written.
//
// German compounds are split over this vocabulary from the end ("Herrenuhr" → herren + uhr, "Laufschuhe" → lauf +
// schuhe, "Hundefutter" → hunde + futter), with the linking letters German uses (s, es, n, en, e, er); the last part is
// the compound's head, the thing it is. A part shorter than three letters is never split off.

/** German word (lowercase, umlauts written out) → its English forms. Plurals and inflections are folded by `baseOf`. */
const GERMAN_TO_ENGLISH: Record<string, readonly string[]> = {
  // Phones, computers, electronics
  handy: ['phone', 'smartphone', 'mobile phone'],
  smartphone: ['smartphone', 'phone'],
  telefon: ['phone'],
  laptop: ['laptop', 'notebook'],
  notebook: ['laptop', 'notebook'],
  rechner: ['computer'],
  computer: ['computer'],
  tablet: ['tablet'],
  kamera: ['camera'],
  fotoapparat: ['camera'],
  kopfhoerer: ['headphones', 'headphone', 'earphones'],
  ohrhoerer: ['earphones', 'earbuds'],
  lautsprecher: ['speaker'],
  ladegeraet: ['charger'],
  ladekabel: ['charging cable', 'cable'],
  kabel: ['cable'],
  huelle: ['case', 'cover'],
  schutzhuelle: ['case', 'cover'],
  halterung: ['holder', 'mount', 'stand'],
  staender: ['stand'],
  fernseher: ['tv', 'television'],
  uhr: ['watch'],
  armbanduhr: ['watch', 'wristwatch'],
  // Clothes, shoes, accessories
  schuh: ['shoe', 'sneaker'],
  turnschuh: ['sneaker', 'shoe'],
  sneaker: ['sneaker', 'shoe'],
  stiefel: ['boot'],
  sandale: ['sandal'],
  hemd: ['shirt'],
  shirt: ['shirt', 't-shirt'],
  oberteil: ['top', 'shirt'],
  top: ['top'],
  bluse: ['blouse'],
  kleid: ['dress'],
  rock: ['skirt'],
  hose: ['trousers', 'pants'],
  jeans: ['jeans'],
  jacke: ['jacket'],
  mantel: ['coat'],
  pullover: ['sweater', 'pullover', 'jumper'],
  socke: ['sock'],
  muetze: ['hat', 'beanie', 'cap'],
  hut: ['hat'],
  kappe: ['cap'],
  handschuh: ['glove'],
  tasche: ['bag'],
  handtasche: ['handbag', 'bag'],
  rucksack: ['backpack', 'rucksack'],
  geldboerse: ['wallet', 'purse'],
  portemonnaie: ['wallet', 'purse'],
  brille: ['glasses'],
  sonnenbrille: ['sunglasses'],
  schmuck: ['jewellery', 'jewelry'],
  kette: ['necklace', 'chain'],
  halskette: ['necklace'],
  armband: ['bracelet'],
  ring: ['ring'],
  ohrring: ['earring'],
  guertel: ['belt'],
  // Beauty and care
  parfuem: ['perfume', 'fragrance', 'eau'],
  parfum: ['perfume', 'fragrance', 'eau'],
  duft: ['fragrance', 'perfume'],
  kosmetik: ['beauty', 'cosmetics'],
  wimperntusche: ['mascara'],
  mascara: ['mascara'],
  lippenstift: ['lipstick'],
  nagellack: ['nail polish'],
  lidschatten: ['eyeshadow'],
  puder: ['powder'],
  creme: ['cream'],
  lotion: ['lotion'],
  seife: ['soap'],
  duschgel: ['shower gel', 'body wash'],
  shampoo: ['shampoo'],
  sonnencreme: ['sunscreen'],
  hautpflege: ['skin care', 'skincare'],
  // Home, furniture, kitchen
  moebel: ['furniture'],
  bett: ['bed'],
  sofa: ['sofa', 'couch'],
  couch: ['sofa', 'couch'],
  stuhl: ['chair'],
  sessel: ['armchair', 'chair'],
  tisch: ['table'],
  schreibtisch: ['desk'],
  schrank: ['cabinet', 'wardrobe'],
  regal: ['shelf'],
  lampe: ['lamp', 'light'],
  leuchte: ['lamp', 'light'],
  spiegel: ['mirror'],
  vase: ['vase'],
  kerze: ['candle'],
  deko: ['decoration', 'decor'],
  dekoration: ['decoration', 'decor'],
  bild: ['picture', 'painting'],
  pflanze: ['plant'],
  kissen: ['pillow', 'cushion'],
  decke: ['blanket'],
  teppich: ['rug', 'carpet'],
  kueche: ['kitchen'],
  messer: ['knife'],
  gabel: ['fork'],
  loeffel: ['spoon'],
  pfanne: ['pan'],
  topf: ['pot'],
  teller: ['plate'],
  tasse: ['cup', 'mug'],
  becher: ['mug', 'cup'],
  glas: ['glass'],
  schuessel: ['bowl'],
  brett: ['board'],
  schneidebrett: ['cutting board', 'chopping board'],
  sieb: ['strainer', 'sieve'],
  reibe: ['grater'],
  mixer: ['blender', 'mixer'],
  kessel: ['kettle'],
  wasserkocher: ['kettle'],
  toaster: ['toaster'],
  besteck: ['cutlery'],
  geschirr: ['dishes', 'tableware'],
  flasche: ['bottle'],
  trinkflasche: ['water bottle', 'bottle'],
  dose: ['can', 'tin'],
  box: ['box'],
  ausruestung: ['equipment', 'gear'],
  artikel: ['products', 'items'],
  sache: ['things', 'stuff'],
  zeug: ['stuff', 'gear'],
  bedarf: ['supplies'],
  geraet: ['appliance', 'device'],
  zubehoer: ['accessories'],
  getraenk: ['drink', 'beverage', 'juice', 'water', 'soda'],
  make: ['makeup'],
  schminke: ['makeup', 'cosmetics', 'lipstick', 'mascara', 'eyeshadow'],
  makeup: ['makeup', 'cosmetics', 'mascara', 'lipstick', 'eyeshadow', 'powder', 'nail polish'],
  // Food and pets
  lebensmittel: ['groceries', 'food'],
  essen: ['food'],
  futter: ['food'],
  obst: ['fruit'],
  frucht: ['fruit'],
  gemuese: ['vegetables', 'vegetable'],
  apfel: ['apple'],
  banane: ['banana'],
  zitrone: ['lemon'],
  orange: ['orange'],
  kartoffel: ['potato'],
  gurke: ['cucumber'],
  zwiebel: ['onion'],
  tomate: ['tomato'],
  fleisch: ['meat'],
  rindfleisch: ['beef'],
  huhn: ['chicken'],
  haehnchen: ['chicken'],
  fisch: ['fish'],
  milch: ['milk'],
  ei: ['egg'],
  eier: ['eggs', 'egg'],
  kaese: ['cheese'],
  brot: ['bread'],
  saft: ['juice'],
  wasser: ['water'],
  kaffee: ['coffee'],
  tee: ['tea'],
  honig: ['honey'],
  oel: ['oil'],
  reis: ['rice'],
  nudel: ['pasta', 'noodles'],
  zucker: ['sugar'],
  salz: ['salt'],
  eis: ['ice cream', 'ice'],
  tier: ['pet', 'animal'],
  hund: ['dog'],
  hunde: ['dog'],
  katze: ['cat'],
  katzen: ['cat'],
  // Sport, outdoors, vehicles
  ball: ['ball'],
  schlaeger: ['racket', 'bat'],
  fahrrad: ['bike', 'bicycle'],
  rad: ['bike', 'bicycle'],
  helm: ['helmet'],
  zelt: ['tent'],
  schlafsack: ['sleeping bag'],
  matte: ['mat'],
  handtuch: ['towel'],
  motorrad: ['motorcycle', 'motorbike'],
  roller: ['scooter'],
  auto: ['car', 'vehicle'],
  wagen: ['car', 'vehicle'],
  fahrzeug: ['vehicle'],
};

/** German modifiers (adjectives, compound fronts, purposes) → English. */
const GERMAN_MODIFIERS: Record<string, readonly string[]> = {
  herren: ['men', 'mens'],
  herr: ['men', 'mens'],
  maenner: ['men', 'mens'],
  mann: ['men', 'mens'],
  damen: ['women', 'womens'],
  dame: ['women', 'womens'],
  frauen: ['women', 'womens'],
  frau: ['women', 'womens'],
  kinder: ['kids', 'children'],
  kind: ['kids', 'children'],
  baby: ['baby'],
  lauf: ['running'],
  laufen: ['running'],
  renn: ['running'],
  jogging: ['running', 'jogging'],
  wander: ['hiking'],
  wandern: ['hiking'],
  berg: ['mountain'],
  trail: ['trail'],
  fussball: ['football', 'soccer'],
  basketball: ['basketball'],
  tennis: ['tennis'],
  golf: ['golf'],
  fitness: ['fitness'],
  yoga: ['yoga'],
  schwimm: ['swimming', 'swim'],
  schwimmen: ['swimming', 'swim'],
  rad: ['cycling', 'bike'],
  reise: ['travel'],
  reisen: ['travel'],
  buero: ['office'],
  garten: ['garden'],
  regen: ['rain'],
  winter: ['winter'],
  sommer: ['summer'],
  sport: ['sport', 'sports'],
  wasserdicht: ['waterproof'],
  wasserfest: ['waterproof', 'water resistant'],
  kabellos: ['wireless'],
  drahtlos: ['wireless'],
  leicht: ['light', 'lightweight'],
  warm: ['warm'],
  bio: ['organic'],
  leder: ['leather'],
  holz: ['wood', 'wooden'],
  metall: ['metal'],
  glas: ['glass'],
  baumwolle: ['cotton'],
  wolle: ['wool'],
  seide: ['silk'],
  edelstahl: ['stainless steel', 'steel'],
  stahl: ['steel'],
  gold: ['gold'],
  golden: ['gold', 'golden'],
  silbern: ['silver'],
  hoelzern: ['wood', 'wooden'],
  silber: ['silver'],
  klein: ['small'],
  gross: ['large', 'big'],
  rot: ['red'],
  blau: ['blue'],
  gruen: ['green'],
  gelb: ['yellow'],
  schwarz: ['black'],
  weiss: ['white'],
  grau: ['grey', 'gray'],
  braun: ['brown'],
  rosa: ['pink'],
  pink: ['pink'],
  lila: ['purple'],
  beige: ['beige'],
  sonnen: ['sun'],
  hand: ['hand'],
  hals: ['neck'],
  arm: ['wrist', 'arm'],
  kaffee: ['coffee'],
  tee: ['tea'],
  wasser: ['water'],
  kuechen: ['kitchen'],
  wohn: ['home', 'living'],
  tier: ['pet', 'animal'],
  haus: ['home', 'house'],
};

/**
 * English product words and the other words catalogs name the same things with: a shopper's "phone" is a catalog's
 * "smartphone", "trainers" are "sneakers".
 */
const ENGLISH_SYNONYMS: Record<string, readonly string[]> = {
  phone: ['smartphone', 'cellphone', 'mobile phone'],
  mobile: ['smartphone', 'phone'],
  cellphone: ['smartphone', 'phone'],
  smartphone: ['phone'],
  laptop: ['notebook'],
  beverage: ['drink', 'juice', 'water', 'soda', 'soft drink'],
  drink: ['beverage', 'juice', 'water', 'soda'],
  cosmetic: ['beauty', 'makeup', 'mascara', 'lipstick', 'eyeshadow', 'powder', 'nail polish'],
  makeup: ['cosmetics', 'mascara', 'lipstick', 'eyeshadow', 'powder', 'nail polish'],
  lady: ['women', 'womens'],
  ladies: ['women', 'womens'],
  gent: ['men', 'mens'],
  gents: ['men', 'mens'],
  fruit: ['fruits'],
  veggie: ['vegetable'],
  cookware: ['pot', 'pan'],
  notebook: ['laptop'],
  sneaker: ['shoe', 'trainer'],
  trainer: ['sneaker', 'shoe'],
  tee: ['t-shirt'],
  tshirt: ['t-shirt'],
  couch: ['sofa'],
  sofa: ['couch'],
  perfume: ['fragrance', 'eau de parfum', 'eau de toilette'],
  fragrance: ['perfume'],
  scent: ['fragrance', 'perfume'],
  jumper: ['sweater', 'pullover'],
  sweater: ['jumper', 'pullover'],
  pants: ['trousers'],
  trousers: ['pants'],
  purse: ['wallet', 'handbag'],
  handbag: ['bag'],
  tv: ['television'],
  television: ['tv'],
  headphone: ['earphone', 'headset'],
  earphone: ['earbud', 'headphone'],
  earbud: ['earphone'],
  wristwatch: ['watch'],
  bike: ['bicycle'],
  bicycle: ['bike'],
  motorbike: ['motorcycle'],
  motorcycle: ['motorbike'],
  rucksack: ['backpack'],
  backpack: ['rucksack'],
  sunglass: ['sunglasses'],
  shade: ['sunglasses'],
  jewelry: ['jewellery'],
  jewellery: ['jewelry'],
  mug: ['cup'],
  cup: ['mug'],
  car: ['vehicle'],
  pc: ['computer', 'desktop'],
  computer: ['laptop', 'desktop'],
};

/** The other English words for an English product word (its singular looked up): "phones" → ["smartphone", ...]. */
export function englishSynonyms(word: string): readonly string[] {
  const lower = word.toLowerCase();
  const one = singular(lower);
  return (
    (Object.hasOwn(ENGLISH_SYNONYMS, lower) && ENGLISH_SYNONYMS[lower]) ||
    (Object.hasOwn(ENGLISH_SYNONYMS, one) && ENGLISH_SYNONYMS[one]) ||
    []
  );
}

/**
 * A word with umlauts and ß written out, as the lists above write them ("Küche" → "kueche"), so "Küche" and "Kueche"
 * meet. Not core/german-words.ts `foldGerman`, which drops the umlaut's e for the knowledge's stems.
 */
export const spellOutUmlauts = (word: string): string =>
  word.toLowerCase().replaceAll('ä', 'ae').replaceAll('ö', 'oe').replaceAll('ü', 'ue').replaceAll('ß', 'ss');

/**
 * The German base form a listed word has, for an inflected or plural word ("schuhe" → "schuh", "wasserdichte" →
 * "wasserdicht", "hunden" → "hund"); undefined when none of its forms is listed.
 */
function baseOf(word: string, table: Record<string, readonly string[]>, depth = 0): string | undefined {
  if (Object.hasOwn(table, word)) return word;
  for (const ending of ['en', 'er', 'es', 'em', 'e', 'n', 's']) {
    if (word.length - ending.length < 2 || !word.endsWith(ending)) continue;
    const base = word.slice(0, -ending.length);
    if (Object.hasOwn(table, base)) return base;
    // A plural with an umlaut: "räder" → "rad", "töpfe" → "topf".
    const plain = base.replace(/(ae|oe|ue)([^aeiou]*)$/, (_, vowel: string, rest: string) => vowel[0] + rest);
    if (plain !== base && Object.hasOwn(table, plain)) return plain;
    // An inflected adjective of an adjective form: "goldene" → "golden" → "gold".
    const deeper = depth === 0 ? baseOf(base, table, 1) : undefined;
    if (deeper) return deeper;
  }
  return undefined;
}

const LINKS = ['', 's', 'es', 'n', 'en', 'e', 'er'];
const PART_MIN = 3;

/**
 * A German word split into the listed words it is made of, the head (a product word) last: "herrenuhr" → ["herren",
 * "uhr"]; "laufschuhe" → ["lauf", "schuh"]. Null when it is not such a compound (or not German vocabulary at all).
 */
export function splitCompound(word: string): { modifiers: string[]; head: string } | null {
  const folded = spellOutUmlauts(word);
  const whole = baseOf(folded, GERMAN_TO_ENGLISH);
  if (whole) return { modifiers: [], head: whole };
  // Heads from the longest: "schneidebrett" is a listed word, "brett" a shorter head.
  for (let at = PART_MIN; at <= folded.length - PART_MIN; at++) {
    const head = baseOf(folded.slice(at), GERMAN_TO_ENGLISH);
    if (!head) continue;
    const front = frontParts(folded.slice(0, at));
    if (front) return { modifiers: front, head };
    // A front the lists do not know ("Baseball|ausrüstung", "Cricket|schläger") is kept as written: a brand, a sport,
    // a material the catalog may well name. Only a long one, so that no short word's ending is mistaken for a head.
    const unknown = folded.slice(0, at).replace(/-$/, '');
    if (unknown.length >= 4 && at >= 4 && !/(?:s|es|n|en|e|er)$/.test(unknown.slice(-1)))
      return { modifiers: [unknown], head };
  }
  return null;
}

/**
 * The listed words a compound's front is made of ("herren"; "wasser" + "dicht"), with a linking letter before the head:
 * one listed word, or several split by the shared German splitter (core/german-words.ts) over the lists.
 */
function frontParts(front: string): string[] | null {
  for (const link of LINKS) {
    if (!front.endsWith(link)) continue;
    const stem = front.slice(0, front.length - link.length);
    if (stem.length < PART_MIN) continue;
    if (isListed(stem)) return [stem];
    const parts = splitIntoWords(stem, isListed, PART_MIN);
    if (parts) return parts;
  }
  return null;
}

const isListed = (part: string) =>
  Object.hasOwn(GERMAN_MODIFIERS, part) || Object.hasOwn(GERMAN_TO_ENGLISH, part);

/** The English forms of a German product word or modifier (its base form found), else []. */
export function englishForms(word: string): readonly string[] {
  const folded = spellOutUmlauts(word);
  const noun = baseOf(folded, GERMAN_TO_ENGLISH);
  if (noun) return GERMAN_TO_ENGLISH[noun];
  const modifier = baseOf(folded, GERMAN_MODIFIERS);
  return modifier ? GERMAN_MODIFIERS[modifier] : [];
}
