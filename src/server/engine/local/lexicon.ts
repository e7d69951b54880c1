import { stemmer as englishStem } from '@orama/stemmers/english';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { wordMemo } from '../../core/word-memo';

// The local engine's lexicon: what a shopper's words mean, in English and German. Words are grouped into concepts
// ("an order", "where it is", "cancel", "a person", "talk to"), and the engine reasons over concepts, not over single
// phrasings: "where is my parcel 58213", "track purchase #58213" and "wo bleibt mein Paket Nr. 58213" are the same
// question. Each entry is matched by its surface form, its Snowball stem in either language, or (for entries ending
// in `*`) as a prefix, which is how German compounds are caught ("Bestellnummer", "Stornierungsanfrage"). An entry
// ending in `=` is matched as written only: "assistant" is a person, but its stem "assist" is also "assistance".

export type Concept =
  /** The shopper's order: order, purchase, parcel, Bestellung, Paket. */
  | 'order'
  /** Where an order is or how it stands: status, track, where, ETA, Sendungsverfolgung, wo. */
  | 'status'
  /** When it arrives: arrive, expect, deliver, ankommen, zugestellt. */
  | 'arrival'
  /** Calling something off: cancel, Storno, stornieren, widerrufen. */
  | 'cancel'
  /** A person: human, agent, operator, Mensch, Mitarbeiter, Kundendienst. */
  | 'person'
  /** Anyone at all: someone, anybody, jemand (a person only when the shopper asks to reach them). */
  | 'someone'
  /** Reaching someone: talk, speak, chat, contact, sprechen, verbinden. */
  | 'talk'
  /** A wish: want, need, wanna, möchte, brauche. */
  | 'want'
  /** A real, live one (of a person): real, live, actual, echt. */
  | 'real'
  /** The assistant itself, which a shopper may set against a person: bot, robot, KI. */
  | 'bot'
  /** Things that are not an order, which "cancel" or a number may refer to instead. */
  | 'invoice'
  | 'subscription'
  | 'account'
  /** Feedback about the store, which may name its staff without asking for them: complaint, review, Beschwerde. */
  | 'feedback'
  /** Shopping for products: sell, buy, in stock, size, price; kaufen, Größe. */
  | 'product'
  /** What store information is about: shipping, returns, payment, hours, contact, policies. */
  | 'store'
  /** Words that only greet, thank or fill ("hi", "thanks", "please", "Grüß Gott"). */
  | 'greeting'
  | 'thanks';

const ENTRIES: Record<Concept, string> = {
  order:
    'order orders ordered purchase purchases purchased package packages parcel parcels shipment shipments delivery ' +
    'deliveries consignment bestellung* bestellnummer* bestellt auftrag* paket* päckchen paeckchen lieferung* ' +
    'sendung* einkauf kauf bstellig* bestellig* päckli paeckli',
  status:
    'status state track tracking trace locate whereabouts where eta progress shipped dispatched ' +
    'wo stand verfolgen nachverfolgen sendungsverfolgung* tracken trackingnummer bleibt unterwegs verschickt ' +
    'versendet versandt zustand raus warehouse lieferstatus* bestellstatus* sendungsstatus* sent ship yet lost missing ' +
    'wait waiting warte warten wartend verloren dhl ups dpd gls hermes fedex usps carrier courier',
  arrival:
    'arrive arrives arrival arriving expect expected deliver delivered come coming long soon ' +
    'ankommen ankommt kommt eintreffen zugestellt geliefert liefertermin lieferdatum cho chunnt lange dauert dauerts dauern bald',
  cancel:
    'cancel cancels cancelled canceled cancelling canceling cancellation cancelation revoke withdraw annul ' +
    'storn* abbestellen abbestellung annullieren widerrufen widerruf zurückziehen zurueckziehen rückgängig rueckgaengig ' +
    'zurücktret* zuruecktret* zurucktret* rücktritt ruecktritt abbrechen löschen loeschen lösche streichen ' +
    'stop stopp stoppen scrap void undo auflösen aufloesen zurücknehmen zuruecknehmen canceln',
  person:
    'human humans person people agent agents operator operators representative ' +
    'rep staff employee employees advisor adviser consultant colleague assistant= assistants= supervisor manager ' +
    'mensch* mitarbeiter* person personen berater* kundenberater* kundenbetreuer* betreuer* kollege* kollegin* vorgesetzt* chef chefin ' +
    'kundenservice kundendienst support servicemitarbeiter* servicekraft* ansprechpartner* sachbearbeiter* hotline ' +
    'servicehotline',
  someone: 'someone somebody anyone anybody jemand*',
  talk:
    'talk talking speak speaking chat chatting contact contacting reach call phone connect transfer forward ' +
    'sprechen spreche reden rede chatten kontakt* erreichen verbinden verbinde anrufen telefonieren weiterleiten ' +
    'leiten leite durchstellen escalate put through ' +
    'besprechen',
  bot: 'bot bots robot chatbot machine automated ki ai automat computer',
  real: 'real live actual echte echten echter echtem lebendig leibhaftig',
  want: 'get want wanna need needs like would wish möchte moechte will brauche bräuchte braeuchte hätte haette gern gerne',
  invoice: 'invoice invoices bill bills receipt receipts rechnung* quittung* beleg*',
  subscription:
    'subscription subscriptions newsletter newsletters membership abo abonnement* mitgliedschaft*',
  account: 'account accounts profile password login konto kundenkonto* passwort* profil',
  feedback:
    'complaint complaints complain complaining reclamation review reviews feedback opinion rate rating ' +
    'terrible awful horrible worst useless ridiculous disappointed frechheit unverschämt* unverschaemt* ' +
    'katastroph* enttäuscht* enttaeuscht* ' +
    'beschwerde* beschweren reklamation* bewertung* bewerten meinung feedback',
  product:
    'sell sells selling buy stock size sizes price prices cheap colour color model brand waterproof ' +
    'verkauft verkaufen kaufen größe groesse preis preise farbe modell marke wasserdicht',
  store:
    'shipping ship delivery deliveries deliver courier carrier returns return refund refunds exchange payment ' +
    'payments pay paying paypal klarna card cards invoice account password newsletter contact hours open opening ' +
    'closed warranty guarantee policy privacy complaint complain review reviews cost costs fee fees charge free ' +
    'international countries country address phone email store shop location ' +
    'versand* lieferzeit* lieferkosten liefern rücksend* ruecksend* rückgabe* rueckgabe* umtausch* erstattung* ' +
    'zahlung* zahlen bezahl* rechnung* kontakt* öffnungszeit* oeffnungszeit* geöffnet geoeffnet garantie ' +
    'gewährleistung* gewaehrleistung* beschwerde* bewertung* datenschutz agb kosten gebühr* gebuehr* filiale* ' +
    'laden adresse telefon mail',
  greeting:
    'hi hello hey hiya heya howdy morning evening afternoon greetings yo hallo moin servus grüezi gruezi ' +
    'grüß gruess gott guten tag abend morgen',
  thanks:
    'thanks thank thx ty cheers appreciated appreciate danke dank vielen merci dankeschön dankeschoen ' +
    'please pls plz bitte',
};

interface ConceptIndex {
  exact: Map<string, Concept[]>;
  prefixes: Array<[string, Concept]>;
}

const add = (map: Map<string, Concept[]>, key: string, concept: Concept) => {
  const list = map.get(key) ?? [];
  if (!list.includes(concept)) list.push(concept);
  map.set(key, list);
};

function buildIndex(): ConceptIndex {
  const exact = new Map<string, Concept[]>();
  const prefixes: Array<[string, Concept]> = [];
  for (const [concept, list] of Object.entries(ENTRIES) as Array<[Concept, string]>) {
    for (const entry of list.split(/\s+/)) {
      if (entry.endsWith('*')) prefixes.push([entry.slice(0, -1), concept]);
      else if (entry.endsWith('=')) add(exact, entry.slice(0, -1), concept);
      else {
        add(exact, entry, concept);
        add(exact, `en:${englishStem(entry)}`, concept);
        add(exact, `de:${germanStem(entry)}`, concept);
      }
    }
  }
  return { exact, prefixes };
}

const INDEX = buildIndex();

/** The concepts a (lowercased) word stands for; none for most words. */
export function conceptsOf(word: string): readonly Concept[] {
  return INDEX.exact.get(word) ?? stemmedConcepts(word);
}

const NO_CONCEPTS: readonly Concept[] = Object.freeze([]);
/** The longest word the engine's memos keep (the lexicon's longest is shorter; a typo is at most two edits from one). */
export const MEMO_MAX_LENGTH = 32;

/**
 * A word's concepts by its stems and prefixes. Remembered, as germanKey and termForms are: both stemmers and every
 * prefix, for each word of every message, were about 3 % of a turn's CPU (issue 32, a perf profile of the turn-cost
 * bench), and shoppers' words repeat.
 */
const stemmedConcepts = wordMemo(
  (word: string): readonly Concept[] => {
    const concepts: Concept[] = [];
    if (word.length > 3) {
      for (const c of INDEX.exact.get(`en:${englishStem(word)}`) ?? [])
        if (!concepts.includes(c)) concepts.push(c);
      for (const c of INDEX.exact.get(`de:${germanStem(word)}`) ?? [])
        if (!concepts.includes(c)) concepts.push(c);
    }
    for (const [prefix, concept] of INDEX.prefixes)
      if (word.startsWith(prefix) && !concepts.includes(concept)) concepts.push(concept);
    return concepts.length === 0 ? NO_CONCEPTS : concepts;
  },
  { longest: MEMO_MAX_LENGTH },
);

/** Every surface word of the lexicon (no prefixes), for spelling correction. */
export const LEXICON_WORDS: readonly string[] = [
  ...new Set(
    Object.values(ENTRIES)
      .flatMap((list) => list.split(/\s+/))
      .map((w) => w.replace(/[*=]$/, '')),
  ),
];
