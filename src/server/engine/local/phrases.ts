import { formatMoney } from '../../core/price-text';
import type { ReplyLanguage } from '../../core/reply-language';
import type { Miss } from './product-miss';

// Everything the local engine says, in the widget's two languages (DESIGN "The assistant": English and German). Kept
// in one table so that a new sentence cannot be added in one language only: the type requires both.

/** A price in the answer's language: "€169.00" / "169,00 €"; the bare number when the currency is unknown. */
function money(amount: number, currency: string | undefined, language: ReplyLanguage): string {
  const locale = language === 'de' ? 'de-DE' : 'en';
  return (
    (currency ? formatMoney(amount, currency, locale) : null) ??
    new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(amount)
  );
}

const list = (items: readonly string[], and: string): string =>
  items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

export const PHRASES = {
  en: {
    hi: (name?: string) => (name ? `Hi ${name}!` : 'Hi!'),
    welcome: "You're welcome! Is there anything else I can do for you?",
    canHelpWith: (things: string[]) =>
      `I can help with ${list([...things, 'finding products', 'questions about the store'], 'and')}. ` +
      'For example: "Where is my order 1234?" or "running shoes under 100".',
    cancellingOrders: 'cancelling orders',
    orderStatus: 'where your order is',
    sorryNothing: 'Sorry, I did not find anything for that.',
    foundOne: 'I found this product:',
    foundMany: (n: number) => `Here are ${n} products that match:`,
    nothingFits: 'Nothing matches everything you asked for.',
    nothingFitsAtAll: 'Nothing in the store matches everything you asked for.',
    nearestAre: (n: number) => (n === 1 ? 'This one comes closest:' : `These ${n} come closest:`),
    noSuchProducts: (kind: string) => `Sorry, the store has no ${kind} at the moment.`,
    miss: (m: Miss): string => {
      switch (m.kind) {
        case 'above':
          return `${money(m.price, m.currency, 'en')}, above your ${money(m.cap, m.currency, 'en')}`;
        case 'below':
          return `${money(m.price, m.currency, 'en')}, below your ${money(m.floor, m.currency, 'en')}`;
        case 'stock':
          return 'out of stock';
        case 'brand':
          return m.brand ? `by ${m.brand}, not ${m.wanted}` : `not by ${m.wanted}`;
        case 'wish':
          return `not ${m.said}`;
      }
    },
    hereIsOrder: (id: string) => `Here is order ${id}:`,
    hereIsWhatIFound: 'Here is what I found:',
    hereIsProduct: 'Here is the product:',
    actionFailed: (name: string) => `Sorry, "${name}" did not work just now. Please try again in a moment.`,
    noCard: (name: string) => `Sorry, I got an answer from "${name}" but cannot show it here.`,
    signInFirst: (name: string) =>
      `Please sign in to the store first: "${name}" is only for signed-in customers.`,
    dropped: 'Okay, I have dropped that. What else can I do for you?',
    whichOrder:
      'Which order do you mean? Please tell me the order number (you find it in your order confirmation).',
    whichOfThese: (ids: readonly string[]) => `You mentioned ${list(ids, 'and')}. Which order do you mean?`,
    // "Does it come in blue?" with no product on the page and none just shown, or several shown.
    whichProduct: 'Which product do you mean? Tell me its name, or ask me on its page and I will know.',
    whichShownProduct: 'Which of these do you mean?',
    askValue: (what: string) =>
      `Could you tell me ${/^(the|your|a|an)\b/i.test(what) ? what : `the ${what}`}?`,
    askYesNo: (what: string) => `Should I go ahead with ${what}? (yes or no)`,
    orderLookupOffer: 'If you tell me your order number, I can look up where your order is.',
    fromSection: (title: string) => `From our "${title}" information:`,
    // Under a passage of a section (knowledge-passage.ts): where the rest is.
    wholeSectionHint: (title: string) => `Ask me for the whole "${title}" section to read all of it.`,
    sectionSource: (link: string) => `Read more: ${link}`,
    // A widget with no one to hand to (no agents), or a handoff that did not go through (`failed`).
    personNoHandoff: (failed: boolean) =>
      `${failed ? "I couldn't hand you over to a person just now" : "I can't hand you over to a person in this chat"}, ` +
      "but the store's team is happy to help. Here is how to reach them:",
    personNoContact: (failed: boolean) =>
      `${failed ? "I couldn't hand you over to a person just now" : "I can't hand you over to a person in this chat"}. ` +
      "Please use the contact details on the store's website.",
    // The product on the page (issue 20). `name` arrives bold and escaped; store values (colours, sizes) escaped.
    colourIs: (colour: string) => `Yes: its colour is ${colour}.`,
    colourVariant: (colour: string, variant: string) => `Yes, it also comes in ${colour}: ${variant}.`,
    colourNot: (name: string, colours: string[], asked: string) =>
      `${name} comes in ${list(colours, 'and')}; the store's catalog lists no ${asked} one.`,
    colours: (name: string, colours: string[]) => `${name} comes in ${list(colours, 'and')}.`,
    noColours: (name: string) => `The store's catalog lists no colours for ${name}.`,
    descriptionMentions: (asked: string) => `Its description mentions ${asked}:`,
    descriptionSilent: (asked: string) => `Its description does not mention ${asked} either.`,
    price: (name: string, price: string) => `${name} costs ${price}.`,
    noPrice: (name: string) => `I have no price for ${name}; the product page shows it.`,
    inStock: (name: string) => `Yes, ${name} is in stock.`,
    outOfStock: (name: string) => `${name} is out of stock at the moment.`,
    preorder: (name: string) => `${name} is not in stock yet, but you can pre-order it.`,
    discontinued: (name: string) => `${name} is no longer available.`,
    unknownStock: (name: string) =>
      `The store's catalog does not say whether ${name} is in stock; the product page shows its current availability.`,
    othersInStock: (labels: string[]) => `In stock: ${list(labels, 'and')}.`,
    sizes: (name: string, sizes: string[]) => `${name} comes in sizes ${list(sizes, 'and')}.`,
    outOfStockMark: 'out of stock',
    sizeIn: (size: string, inStock: boolean | undefined) =>
      inStock === undefined
        ? `Yes, it comes in size ${size}.`
        : inStock
          ? `Yes, it comes in size ${size}, and that size is in stock.`
          : `It comes in size ${size}, but that size is out of stock at the moment.`,
    sizeNot: (size: string) => `Size ${size} is not among them.`,
    noSizes: (name: string) => `The store's catalog lists no sizes for ${name}.`,
    material: (name: string, material: string) => `${name} is made of ${material}.`,
    noMaterial: (name: string) => `The store's catalog names no material for ${name}.`,
    about: (name: string) => `About ${name}:`,
    noDescription: (name: string) => `The store's catalog has no description of ${name}.`,
    details: 'Details',
    cancelWhichOrder: 'Which order would you like to cancel? Please tell me the order number.',
    cancelNeedNumber:
      'I need the order number to cancel an order; it is in your order confirmation. Which order is it?',
    cancelNotDone: 'Okay, I have not cancelled anything. What else can I do for you?',
    cancelNotOffered:
      "I can't cancel orders in this chat. Please contact the store; I can show you how to reach them if you ask for a person.",
    cancelled: (id: string) => `Order ${id} is cancelled.`,
    alreadyCancelled: (id: string) => `Order ${id} is already cancelled, so there is nothing more to do:`,
    orderEmail:
      'To show you the order, I need the email address you placed it with. What is it? (Signed-in customers ' +
      'see their orders without it.)',
    notCancelledBecause: (id: string, why: string) =>
      `I could not cancel order ${id}. The store says: ${why}`,
    notCancelled: (id: string) => `The store did not cancel order ${id}.`,
    cancelSignIn: (id: string) =>
      `Please sign in to the store first: only signed-in customers can cancel an order here. Order ${id} has not been cancelled.`,
    cancelUnreadable: (id: string) =>
      `Sorry, the store's order system sent an answer I could not read, so I cannot confirm that order ${id} ` +
      'was cancelled. Please check the order in your account or contact the store.',
    cancelUnreachable: (id: string) =>
      `Sorry, I could not reach the store's order system, so order ${id} has not been cancelled. ` +
      'Please try again in a few minutes or contact the store.',
  },
  de: {
    hi: (name?: string) => (name ? `Hallo ${name}!` : 'Hallo!'),
    welcome: 'Gern geschehen! Kann ich sonst noch etwas für Sie tun?',
    canHelpWith: (things: string[]) =>
      `Ich helfe Ihnen gern bei ${list([...things, 'der Produktsuche', 'Fragen zum Shop'], 'und')}. ` +
      'Zum Beispiel: „Wo ist meine Bestellung 1234?“ oder „Laufschuhe unter 100 Euro“.',
    cancellingOrders: 'Stornierungen',
    orderStatus: 'dem Stand Ihrer Bestellung',
    sorryNothing: 'Dazu habe ich leider nichts gefunden.',
    foundOne: 'Ich habe dieses Produkt gefunden:',
    foundMany: (n: number) => `Hier sind ${n} passende Produkte:`,
    nothingFits: 'Leider passt nichts zu allen Ihren Wünschen.',
    nothingFitsAtAll: 'Leider passt im Shop nichts zu allen Ihren Wünschen.',
    nearestAre: (n: number) => (n === 1 ? 'Am nächsten kommt dieses:' : `Am nächsten kommen diese ${n}:`),
    noSuchProducts: (kind: string) => `Leider führt der Shop derzeit keine ${kind}.`,
    miss: (m: Miss): string => {
      switch (m.kind) {
        case 'above':
          return `${money(m.price, m.currency, 'de')}, über Ihren ${money(m.cap, m.currency, 'de')}`;
        case 'below':
          return `${money(m.price, m.currency, 'de')}, unter Ihren ${money(m.floor, m.currency, 'de')}`;
        case 'stock':
          return 'nicht auf Lager';
        case 'brand':
          return m.brand ? `von ${m.brand}, nicht ${m.wanted}` : `nicht von ${m.wanted}`;
        case 'wish':
          return `nicht ${m.said}`;
      }
    },
    hereIsOrder: (id: string) => `Hier ist Bestellung ${id}:`,
    hereIsWhatIFound: 'Das habe ich gefunden:',
    hereIsProduct: 'Hier ist das Produkt:',
    actionFailed: (name: string) =>
      `„${name}“ hat gerade leider nicht funktioniert. Bitte versuchen Sie es gleich noch einmal.`,
    noCard: (name: string) =>
      `„${name}“ hat geantwortet, aber ich kann die Antwort hier leider nicht anzeigen.`,
    signInFirst: (name: string) =>
      `Bitte melden Sie sich zuerst im Shop an: „${name}“ gibt es nur für angemeldete Kunden.`,
    dropped: 'In Ordnung, das lasse ich. Was kann ich sonst für Sie tun?',
    whichOrder:
      'Welche Bestellung meinen Sie? Bitte nennen Sie mir die Bestellnummer (sie steht in Ihrer Bestellbestätigung).',
    whichOfThese: (ids: readonly string[]) =>
      `Sie haben ${list(ids, 'und')} genannt. Welche Bestellung meinen Sie?`,
    whichProduct:
      'Welches Produkt meinen Sie? Nennen Sie mir seinen Namen, oder fragen Sie mich auf seiner Seite, dann weiß ich es.',
    whichShownProduct: 'Welches davon meinen Sie?',
    askValue: (what: string) => `Können Sie mir bitte Folgendes nennen: ${what}?`,
    askYesNo: (what: string) => `Soll ich das tun: ${what}? (ja oder nein)`,
    orderLookupOffer: 'Wenn Sie mir Ihre Bestellnummer nennen, sehe ich nach, wo Ihre Bestellung gerade ist.',
    fromSection: (title: string) => `Aus unseren Informationen zu „${title}“:`,
    wholeSectionHint: (title: string) =>
      `Fragen Sie mich nach dem ganzen Abschnitt „${title}“, um alles zu lesen.`,
    sectionSource: (link: string) => `Mehr dazu: ${link}`,
    personNoHandoff: (failed: boolean) =>
      `${failed ? 'Ich konnte Sie gerade nicht an einen Menschen übergeben' : 'Ich kann Sie in diesem Chat nicht an einen Menschen übergeben'}, ` +
      'aber das Team des Shops hilft Ihnen gern. So erreichen Sie es:',
    personNoContact: (failed: boolean) =>
      `${failed ? 'Ich konnte Sie gerade nicht an einen Menschen übergeben' : 'Ich kann Sie in diesem Chat nicht an einen Menschen übergeben'}. ` +
      'Bitte nutzen Sie die Kontaktdaten auf der Website des Shops.',
    colourIs: (colour: string) => `Ja, die Farbe ist ${colour}.`,
    colourVariant: (colour: string, variant: string) => `Ja, das gibt es auch in ${colour}: ${variant}.`,
    colourNot: (name: string, colours: string[], asked: string) =>
      `${name} gibt es in ${list(colours, 'und')}; in ${asked} führt der Katalog des Shops nichts.`,
    colours: (name: string, colours: string[]) => `${name} gibt es in ${list(colours, 'und')}.`,
    noColours: (name: string) => `Der Katalog des Shops nennt keine Farben für ${name}.`,
    descriptionMentions: (asked: string) => `Die Beschreibung erwähnt ${asked}:`,
    descriptionSilent: (asked: string) => `Auch die Beschreibung erwähnt ${asked} nicht.`,
    price: (name: string, price: string) => `${name} kostet ${price}.`,
    noPrice: (name: string) => `Einen Preis für ${name} habe ich nicht; er steht auf der Produktseite.`,
    inStock: (name: string) => `Ja, ${name} ist auf Lager.`,
    outOfStock: (name: string) => `${name} ist gerade nicht auf Lager.`,
    preorder: (name: string) => `${name} ist noch nicht auf Lager, kann aber vorbestellt werden.`,
    discontinued: (name: string) => `${name} ist nicht mehr erhältlich.`,
    unknownStock: (name: string) =>
      `Ob ${name} auf Lager ist, steht nicht im Katalog des Shops; die Produktseite zeigt die aktuelle Verfügbarkeit.`,
    othersInStock: (labels: string[]) => `Auf Lager: ${list(labels, 'und')}.`,
    sizes: (name: string, sizes: string[]) => `${name} gibt es in den Größen ${list(sizes, 'und')}.`,
    outOfStockMark: 'nicht auf Lager',
    sizeIn: (size: string, inStock: boolean | undefined) =>
      inStock === undefined
        ? `Ja, das gibt es in Größe ${size}.`
        : inStock
          ? `Ja, das gibt es in Größe ${size}, und diese Größe ist auf Lager.`
          : `Das gibt es in Größe ${size}, aber diese Größe ist gerade nicht auf Lager.`,
    sizeNot: (size: string) => `Größe ${size} ist nicht dabei.`,
    noSizes: (name: string) => `Der Katalog des Shops nennt keine Größen für ${name}.`,
    material: (name: string, material: string) => `Material von ${name}: ${material}.`,
    noMaterial: (name: string) => `Der Katalog des Shops nennt kein Material für ${name}.`,
    about: (name: string) => `Zu ${name}:`,
    noDescription: (name: string) => `Der Katalog des Shops hat keine Beschreibung von ${name}.`,
    details: 'Details',
    cancelWhichOrder: 'Welche Bestellung möchten Sie stornieren? Bitte nennen Sie mir die Bestellnummer.',
    cancelNeedNumber:
      'Zum Stornieren brauche ich die Bestellnummer; sie steht in Ihrer Bestellbestätigung. Um welche Bestellung geht es?',
    cancelNotDone: 'In Ordnung, ich habe nichts storniert. Was kann ich sonst für Sie tun?',
    cancelNotOffered:
      'Bestellungen kann ich in diesem Chat nicht stornieren. Bitte wenden Sie sich an den Shop; fragen Sie nach einem Mitarbeiter, dann zeige ich Ihnen, wie Sie ihn erreichen.',
    cancelled: (id: string) => `Bestellung ${id} ist storniert.`,
    alreadyCancelled: (id: string) => `Bestellung ${id} ist bereits storniert, es ist nichts weiter zu tun:`,
    orderEmail:
      'Um Ihnen die Bestellung zu zeigen, brauche ich die E-Mail-Adresse, mit der Sie bestellt haben. Wie lautet ' +
      'sie? (Angemeldete Kunden sehen ihre Bestellungen ohne sie.)',
    notCancelledBecause: (id: string, why: string) =>
      `Ich konnte Bestellung ${id} nicht stornieren. Der Shop schreibt: ${why}`,
    notCancelled: (id: string) => `Der Shop hat Bestellung ${id} nicht storniert.`,
    cancelSignIn: (id: string) =>
      `Bitte melden Sie sich zuerst im Shop an: Nur angemeldete Kunden können hier eine Bestellung stornieren. Bestellung ${id} wurde nicht storniert.`,
    cancelUnreadable: (id: string) =>
      `Das Bestellsystem des Shops hat leider eine Antwort geschickt, die ich nicht lesen konnte. Ich kann daher nicht bestätigen, dass Bestellung ${id} ` +
      'storniert wurde. Bitte prüfen Sie die Bestellung in Ihrem Kundenkonto oder wenden Sie sich an den Shop.',
    cancelUnreachable: (id: string) =>
      `Ich konnte das Bestellsystem des Shops leider nicht erreichen, Bestellung ${id} wurde daher nicht storniert. ` +
      'Bitte versuchen Sie es in ein paar Minuten noch einmal oder wenden Sie sich an den Shop.',
  },
} satisfies Record<ReplyLanguage, unknown>;

export type Phrases = (typeof PHRASES)['en'];

// The type check that both languages have every phrase, with the same signature.
const _same: Record<ReplyLanguage, Phrases> = PHRASES;
void _same;
