import { termForms } from './knowledge-terms';

// Shoppers ask about the same few things of every store (DESIGN "Store knowledge": shipping, returns, payment,
// opening hours, contact) in words the store's page may not use: "can I call you" where the page says "Phone", "how
// do I get my money back" where it says "Refunds", "Kreditkarten" where it says "Karte". A question word of one of
// these groups also looks for the group's other words, at a lower weight than the word itself (knowledge-index.ts).
// Only these groups: a general thesaurus would join words that mean different things in a shop.

// Each group in one language: an English question word looks for English words only, so that it finds the English
// section, not its German translation.
const GROUPS = [
  // Shipping and delivery.
  'ship shipping shipment deliver delivery dispatch send parcel package courier tracking arrive',
  'versand versenden lieferung liefern lieferzeit paket zustellung sendung schicken',
  // Fast delivery: "tomorrow" is what the page calls express or the next working day.
  'tomorrow express overnight',
  'morgen express expressversand eilversand',
  // Places a shopper names in short: the page says "United Kingdom" or "Großbritannien". Not "USA" for "America":
  // a payment page's "American Express" is no place.
  'uk britain england kingdom',
  'großbritannien england uk königreich',
  // Returns, exchanges and refunds.
  'return refund exchange swap money',
  'rückgabe rücksendung zurückschicken zurücksenden umtausch umtauschen tauschen erstattung erstatten retoure geld',
  // Damaged goods.
  'damaged broken defective faulty damage',
  'beschädigt kaputt defekt mangelhaft schaden',
  // Warranty: what the law calls it and what shoppers do. A broken thing finds the text's "defect" (above).
  'warranty guarantee repair repairs',
  'garantie gewährleistung reparatur reparieren',
  // Bulky goods, which every shop delivers its own way (a freight carrier, a delivery slot), by the items shoppers name.
  'bulky furniture sofa couch mattress wardrobe bed',
  'sperrig sperrgut möbel sofa couch matratze schrank bett',
  // Cosmetics, which hygiene keeps from being returned once opened, by the items shoppers name.
  'cosmetics makeup lipstick mascara skincare perfume',
  'kosmetik makeup lippenstift mascara hautpflege parfum parfüm',
  // Payment.
  'pay payment card credit debit instalments installments financing',
  'bezahlen zahlen zahlung zahlungsart zahlungsarten kreditkarte karte raten ratenzahlung ratenkauf finanzierung',
  // Each way to pay is of the payment topic, not another way: "Nachnahme" is not "Vorkasse".
  'payment cod',
  'payment prepayment',
  'zahlungsarten nachnahme',
  'zahlungsarten vorkasse',
  'zahlungsarten überweisung',
  'zahlungsarten lastschrift',
  // Contact.
  'contact call phone telephone email mail reach hotline',
  'kontakt anrufen telefon telefonisch erreichen kundenservice kundendienst hotline mail email',
  // Opening hours.
  'hours open opening closed',
  'öffnungszeiten geöffnet offen geschlossen',
  // Newsletter and the account.
  'unsubscribe subscribe newsletter emails',
  'abbestellen abmelden anmelden abonnieren kündigen newsletter',
  'account login password sign',
  'konto kundenkonto passwort einloggen anmelden',
  // Invoices.
  'invoice bill receipt',
  'rechnung quittung beleg',
];

/** Each form of a group word → the forms of its group's other words. */
const related = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const forms = new Set(group.split(' ').flatMap((word) => termForms(word)));
  for (const form of forms) {
    const others = related.get(form) ?? new Set<string>();
    for (const other of forms) if (other !== form) others.add(other);
    related.set(form, others);
  }
}

/**
 * The forms a question word's store-topic synonyms are indexed under (none for a word of no group).
 *
 * @example
 * synonymForms('call'); // → ['contact', 'phone', 'telefon', …]
 */
export function synonymForms(word: string): string[] {
  const out = new Set<string>();
  for (const form of termForms(word)) for (const other of related.get(form) ?? []) out.add(other);
  for (const form of termForms(word)) out.delete(form);
  return [...out];
}

/**
 * Phrases whose words say something else together: "send it back" is a return, "money back" a refund, "pay later"
 * paying in instalments. Each is replaced by the word the store's page uses, before the question is ranked, so that
 * "back" and "later" do not count as words a section must hold.
 */
const PHRASES: readonly [RegExp, string][] = [
  [
    /\b(?:send|sending|sent|bring|take|ship|mail|post)\s+(?:(?:it|them|this|that|something|things|stuff|everything|(?:an?|the|my|our|your)\s+[a-z]+)\s+)?back\b/giu,
    'return',
  ],
  [/\b(?:money|cash)\s+back\b/giu, 'refund'],
  // A thing that stopped working is defective; "kaputt gegangen" is "kaputt".
  [/\b(?:stopped|stops|stop|quit|quits)\s+working\b/giu, 'defective'],
  [
    /\b(?:doesn\W?t|does\s+not|won\W?t|isn\W?t)\s+(?:work|working|turn\s+on|charge|charging)\b/giu,
    'defective',
  ],
  [/\b(?:funktioniert|funktionieren|geht|gehen)\s+(?:\p{L}+\s+){0,2}(?:nicht|nich)\s+mehr\b/giu, 'defekt'],
  [/\bkaputt\s*(?:gegangen|gehen|geht|ging)\b/giu, 'kaputt'],
  [/\bpay\s+(?:it\s+)?later\b/giu, 'pay installments'],
  // The thing got back stays in the question: "do I get the delivery fee back" asks about the fee's refund.
  [/\bget\s+((?:(?:my|the|our|your|it|them)\s+)?(?:[a-z]+\s+){0,2})back\b/giu, '$1refund'],
  // "Bekomme ich mein Geld zurück?" keeps the money ("sobald das Geld unterwegs ist") and asks for the refund.
  [
    /\b(?:bekomme|bekommt|bekommen|kriege|kriegt|kriegen|erhalte|erhaltet|erhalten)\s+((?:\p{L}+\s+){0,4})zurück(?!\p{L})/giu,
    '$1erstattung',
  ],
  [/\b(?:geld|betrag)\s+(?:\p{L}+\s+)?zurück(?!\p{L})/giu, 'erstattung'],
  // "Auf Rechnung kaufen" is paying by invoice, not buying.
  [
    /\bauf\s+rechnung\s+(?:kaufen|kaufe|bestellen|bestelle|einkaufen|zahlen|bezahlen)\b/giu,
    'rechnung bezahlen',
  ],
  // The store's address or number is how to reach it; the shopper's own ("my email address") is not.
  [
    /(?<!\b(?:my|our)\s+)\b(?:(?:tele)?phone\s+(?:number|no)|e-?mail\s+address|number\s+to\s+call)\b/giu,
    'contact',
  ],
  [
    /(?<!\b(?:mein|meine|meiner|meinem|meinen)\s+)\b(?:telefon|e-?mail)(?:-|\s+)?(?:nummer|adresse)\b/giu,
    'kontakt',
  ],
];

/**
 * The question with its shopping phrases put in the page's words.
 *
 * @example
 * questionPhrases('how long do I have to send it back?'); // → 'how long do I have to return?'
 */
export function questionPhrases(question: string): string {
  let out = question;
  for (const [pattern, word] of PHRASES) out = out.replace(pattern, word);
  return out;
}
