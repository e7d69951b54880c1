// The demo store's own knowledge (DESIGN "Store knowledge"), written as Ridgeline Outfitters, a small outdoor shop
// in Berlin, would write its help pages: shipping, returns, payment, contact and opening hours in the widget config
// (`DEMO_KNOWLEDGE`), invoices and the customer account as a markdown document the integrator serves
// (`DEMO_HELP_DOCUMENT`, at /help/account.md, in the widget's `knowledgeUrls`). Every section is there in English and
// in German, so that a German question finds a German answer. The facts agree with the rest of the demo: the Berlin
// store's hours and hotline are those of the "Store hours" action (integrator-server.ts STORE_HOURS_TEXT), prices are
// in EUR, and an order can be cancelled in the chat until it ships (the order-cancellation webhook).
// A paragraph is one line: the widget shows a single line break in markdown as a line break.

/** The path the demo integrator serves `DEMO_HELP_DOCUMENT` at. */
export const DEMO_HELP_DOCUMENT_PATH = '/help/account.md';

export const DEMO_KNOWLEDGE: { title: string; text: string }[] = [
  {
    title: 'Shipping and delivery',
    text: `We ship from our warehouse in Berlin with DHL. Orders placed by 2 pm on a working day leave the same day, and your parcel arrives within the delivery time below.

| Destination | Delivery time | Shipping cost |
| --- | --- | --- |
| Germany | 1–3 working days | €4.95, free from €50 |
| Austria, Netherlands, Belgium, Luxembourg, Denmark, France | 3–5 working days | €9.95, free from €100 |
| Other EU countries | 4–8 working days | €14.95 |
| Switzerland, Norway, United Kingdom | 5–8 working days | €19.95, plus import duties and VAT on delivery |

We do not ship outside Europe yet. As soon as your parcel leaves us you get an email with the DHL tracking link; you can also ask me "Where is my order …?" with your order number. You can pick up your order for free in our Berlin store (choose "Click & Collect" at checkout): we email you when it is ready, usually within 2 hours.`,
  },
  {
    title: 'Returns and refunds',
    text: `You can return anything you bought within **30 days** of delivery, no reason needed.

- Items must be unused, with their labels, in the original packaging. Try shoes and boots on indoors only.
- Opened socks cannot be returned, for hygiene reasons.
- Returns from Germany are free: download the prepaid DHL label from your account (Orders → Return) or ask us for one. From other countries please send the parcel at your own cost to Ridgeline Outfitters, Returns, Beispielstraße 12, 10435 Berlin, Germany.
- We refund to the payment method you used within 5 working days of the return reaching us. A Klarna invoice is adjusted by Klarna.
- Want another size? Return the item and place a new order, so you get the new size as quickly as possible.

An order that has not shipped yet can still be cancelled: ask me "Cancel order …" with your order number.`,
  },
  {
    title: 'Payment methods',
    text: `We accept:

- credit and debit cards: Visa, Mastercard and American Express
- PayPal
- Klarna: pay by invoice within 14 days, or in 3 interest-free instalments
- Apple Pay and Google Pay
- prepayment by bank transfer (your order ships once the money is in our account, usually 1–2 working days)

Your card or PayPal account is charged when your order ships, not when you place it. All prices are in euros and include German VAT. In our Berlin store you can also pay cash or with a girocard.`,
  },
  {
    title: 'Contact',
    text: `How to reach our customer service in Berlin:

- Email: service@demo-store.example (we reply within one working day)
- Phone: +49 30 1234 5678, Monday to Friday 9:00–18:00 (CET)
- Post: Ridgeline Outfitters GmbH, Beispielstraße 12, 10435 Berlin, Germany

Please have your order number ready. Outside these hours, write to us or ask me here.`,
  },
  {
    title: 'Opening hours',
    text: `**Berlin store** (Beispielstraße 12, 10435 Berlin):

- Monday to Friday: 9:00–18:00
- Saturday: 10:00–16:00
- Sunday and public holidays: closed

**Phone hotline:** Monday to Friday 9:00–18:00 (CET). The online shop is open around the clock; orders placed at the weekend ship on Monday.`,
  },
  {
    title: 'Versand und Lieferung',
    text: `Wir versenden aus unserem Lager in Berlin mit DHL. Bestellungen, die bis 14 Uhr an einem Werktag eingehen, verlassen uns noch am selben Tag, und Ihr Paket kommt innerhalb der Lieferzeit unten bei Ihnen an.

| Ziel | Lieferzeit | Versandkosten |
| --- | --- | --- |
| Deutschland | 1–3 Werktage | 4,95 €, ab 50 € kostenlos |
| Österreich, Niederlande, Belgien, Luxemburg, Dänemark, Frankreich | 3–5 Werktage | 9,95 €, ab 100 € kostenlos |
| Übrige EU-Länder | 4–8 Werktage | 14,95 € |
| Schweiz, Norwegen, Vereinigtes Königreich | 5–8 Werktage | 19,95 €, zzgl. Einfuhrabgaben und Steuer bei Zustellung |

Außerhalb Europas liefern wir noch nicht. Sobald Ihr Paket unterwegs ist, bekommen Sie eine E-Mail mit dem DHL-Sendungslink; Sie können mich auch mit Ihrer Bestellnummer fragen: „Wo ist meine Bestellung …?“ In unserem Berliner Laden holen Sie Ihre Bestellung kostenlos ab („Click & Collect“ an der Kasse wählen): Wir schicken Ihnen eine E-Mail, sobald sie bereitliegt, meist innerhalb von 2 Stunden.`,
  },
  {
    title: 'Rückgabe und Erstattung',
    text: `Sie haben **30 Tage** Zeit: Alles, was Sie bei uns gekauft haben, können Sie innerhalb von 30 Tagen nach Erhalt zurückschicken, ohne Angabe von Gründen.

- Die Ware muss unbenutzt sein, mit Etiketten, in der Originalverpackung. Schuhe und Stiefel bitte nur drinnen anprobieren.
- Geöffnete Socken sind aus hygienischen Gründen vom Umtausch ausgeschlossen.
- Rücksendungen aus Deutschland sind kostenlos: Laden Sie das frankierte DHL-Etikett in Ihrem Kundenkonto herunter (Bestellungen → Rücksendung) oder fragen Sie uns danach. Aus anderen Ländern schicken Sie das Paket bitte auf eigene Kosten an Ridgeline Outfitters, Retouren, Beispielstraße 12, 10435 Berlin.
- Wir erstatten den Betrag innerhalb von 5 Werktagen nach Eingang der Rücksendung auf dem Zahlungsweg, mit dem Sie bezahlt haben. Eine Klarna-Rechnung passt Klarna an.
- Andere Größe gewünscht? Schicken Sie den Artikel zurück und bestellen Sie neu, so haben Sie die neue Größe am schnellsten.

Eine Bestellung, die noch nicht versendet ist, können Sie stornieren: Schreiben Sie mir „Bestellung … stornieren“ mit Ihrer Bestellnummer.`,
  },
  {
    title: 'Zahlungsarten',
    text: `Bei uns können Sie so bezahlen:

- Kredit- und Debitkarte: Visa, Mastercard und American Express
- PayPal
- Klarna: Kauf auf Rechnung mit 14 Tagen Zahlungsziel oder in 3 zinsfreien Raten
- Apple Pay und Google Pay
- Vorkasse per Überweisung (wir versenden, sobald das Geld da ist, meist nach 1–2 Werktagen)

Ihre Karte oder Ihr PayPal-Konto wird erst belastet, wenn wir die Bestellung versenden. Alle Preise sind in Euro, inklusive deutscher Mehrwertsteuer. In unserem Berliner Laden zahlen Sie auch bar oder mit girocard.`,
  },
  {
    title: 'Kontakt',
    text: `So erreichen Sie unseren Kundenservice in Berlin:

- E-Mail: service@demo-store.example (Antwort innerhalb eines Werktags)
- Telefon: +49 30 1234 5678, Montag bis Freitag 9:00–18:00 Uhr (MEZ)
- Post: Ridgeline Outfitters GmbH, Beispielstraße 12, 10435 Berlin

Halten Sie bitte Ihre Bestellnummer bereit. Außerhalb dieser Zeiten schreiben Sie uns oder fragen mich hier.`,
  },
  {
    title: 'Öffnungszeiten',
    text: `**Laden in Berlin** (Beispielstraße 12, 10435 Berlin):

- Montag bis Freitag: 9:00–18:00 Uhr
- Samstag: 10:00–16:00 Uhr
- Sonn- und Feiertage: geschlossen

**Telefon-Hotline:** Montag bis Freitag 9:00–18:00 Uhr (MEZ). Der Onlineshop ist rund um die Uhr geöffnet; Bestellungen vom Wochenende versenden wir am Montag.`,
  },
];

/**
 * The help page the demo integrator serves as markdown at {@link DEMO_HELP_DOCUMENT_PATH}: a `knowledgeUrls`
 * document, split into sections at its headings. Its first lines, before any heading, become a section titled
 * after the file ("account").
 */
export const DEMO_HELP_DOCUMENT = `Help with your Ridgeline Outfitters customer account and your invoices.

# Invoices

Your invoice comes as a PDF attached to the shipping confirmation email. You also find every invoice in your account under **Orders**.

- Buying for a company? Enter the company name and VAT ID at checkout and they appear on the invoice.
- Need an invoice changed (another address, a company name)? Email service@demo-store.example with your order number; we send a corrected invoice within one working day.
- Paying by Klarna invoice: Klarna sends its own payment details and reminders; our invoice shows the order.

# Your account

You can order as a guest or with an account. With an account you see your orders and their tracking, save addresses, and download return labels.

- **Forgot your password?** Choose "Sign in" → "Forgot password". The reset link is valid for one hour.
- **Change your email address** under Account → Settings.
- **Delete your account:** email service@demo-store.example; we delete it and your data within 30 days, except invoices, which the law makes us keep for 10 years.
- **Newsletter:** unsubscribe with the link in any newsletter, or under Account → Settings.

# Rechnungen

Ihre Rechnung erhalten Sie als PDF im Anhang der Versandbestätigung. Außerdem finden Sie jede Rechnung in Ihrem Kundenkonto unter **Bestellungen**.

- Sie kaufen für eine Firma? Geben Sie Firmenname und USt-IdNr. an der Kasse an, dann stehen sie auf der Rechnung.
- Rechnung ändern (andere Adresse, Firmenname)? Schreiben Sie mit Ihrer Bestellnummer an service@demo-store.example; Sie bekommen die korrigierte Rechnung innerhalb eines Werktags.
- Zahlung per Klarna-Rechnung: Klarna schickt Ihnen eigene Zahlungsdaten und Erinnerungen; unsere Rechnung zeigt die Bestellung.

# Kundenkonto

Sie können als Gast oder mit Kundenkonto bestellen. Mit Kundenkonto sehen Sie Ihre Bestellungen und die Sendungsverfolgung, speichern Adressen und laden Rücksendeetiketten herunter.

- **Passwort vergessen?** Wählen Sie „Anmelden“ → „Passwort vergessen“. Der Link zum Zurücksetzen gilt eine Stunde.
- **E-Mail-Adresse ändern** unter Konto → Einstellungen.
- **Konto löschen:** Schreiben Sie an service@demo-store.example; wir löschen das Konto und Ihre Daten innerhalb von 30 Tagen, außer Rechnungen, die wir laut Gesetz 10 Jahre aufbewahren müssen.
- **Newsletter:** Abmelden über den Link in jedem Newsletter oder unter Konto → Einstellungen.
`;
