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
  'ship shipping shipment deliver delivery dispatch parcel package courier tracking arrive',
  'versand versenden lieferung liefern lieferzeit paket zustellung sendung',
  // Returns, exchanges and refunds.
  'return refund exchange money',
  'rückgabe rücksendung zurückschicken zurücksenden umtausch umtauschen erstattung erstatten retoure geld',
  // Payment.
  'pay payment card credit debit instalments installments',
  'bezahlen zahlen zahlung zahlungsart zahlungsarten kreditkarte karte raten',
  // Contact.
  'contact call phone telephone email mail reach hotline',
  'kontakt anrufen telefon telefonisch erreichen',
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
