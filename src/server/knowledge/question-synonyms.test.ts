// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createKnowledgeIndex, type KnowledgeSection } from './knowledge-index';
import { termForms } from './knowledge-terms';
import { questionPhrases, synonymForms } from './question-synonyms';

// A bike shop's knowledge, written for these tests.
const SECTIONS: KnowledgeSection[] = [
  {
    title: 'Sending bikes',
    text: 'Bikes go out boxed by courier. Express: ordered by 11 am, at your door the next working day. We also deliver to the United Kingdom.',
    source: null,
  },
  {
    title: 'Changing your mind',
    text: 'Unridden bikes can be returned within 21 days; the refund follows within a week. Exchanges for another frame size are free. Damaged frames are replaced at our cost.',
    source: null,
  },
  {
    title: 'Fahrräder zurückgeben',
    text: 'Ungefahrene Räder nehmen wir 21 Tage lang zurück. Ein Umtausch in eine andere Rahmengröße ist kostenlos. Beschädigte Rahmen ersetzen wir.',
    source: null,
  },
];
const index = createKnowledgeIndex(SECTIONS);
const top = (question: string) => index.search(question)[0]?.title;

describe('questionPhrases()', () => {
  it('puts shopping phrases in the words a store page uses', () => {
    expect(questionPhrases('can I send my bike back?')).toBe('can I return?');
    expect(questionPhrases('when do I get my money back')).toBe('when do I get my refund');
    expect(questionPhrases('Can I pay later?')).toBe('Can I pay installments?');
    expect(questionPhrases('do I get the delivery fee back')).toBe('do I the delivery fee refund');
    expect(questionPhrases('Wann gibt es das Geld zurück?')).toBe('Wann gibt es das erstattung?');
    expect(questionPhrases('Bekomme ich die Versandkosten zurück?')).toBe(
      'ich die Versandkosten erstattung?',
    );
    // The money stays a word of the question: "sobald das Geld unterwegs ist" is the refund line.
    expect(questionPhrases('Wann bekomme ich mein Geld zurück?')).toBe('Wann ich mein Geld erstattung?');
    expect(questionPhrases('kann ich auf Rechnung kaufen')).toBe('kann ich rechnung bezahlen');
  });

  it('reads a thing that stopped working as defective, in both languages', () => {
    expect(questionPhrases('my headphones stopped working')).toBe('my headphones defective');
    expect(questionPhrases("the charger doesn't work")).toBe('the charger defective');
    expect(questionPhrases('mein Handy ist kaputt gegangen')).toBe('mein Handy ist kaputt');
    expect(questionPhrases('die Kamera funktioniert nicht mehr')).toBe('die Kamera defekt');
  });

  it('reads the store’s number or address as its contact, not the shopper’s own', () => {
    expect(questionPhrases("what's your phone number")).toBe("what's your contact");
    expect(questionPhrases('Welche E-Mail-Adresse hat der Kundenservice?')).toBe(
      'Welche kontakt hat der Kundenservice?',
    );
    expect(questionPhrases('Wie ist eure Telefonnummer?')).toBe('Wie ist eure kontakt?');
    expect(questionPhrases('can I change my email address')).toBe('can I change my email address');
    expect(questionPhrases('Was passiert mit meiner E-Mail-Adresse?')).toBe(
      'Was passiert mit meiner E-Mail-Adresse?',
    );
  });
});

describe('store-topic synonyms', () => {
  it('meets the page’s words: send, tomorrow, UK, swap, broken', () => {
    expect(top('do you ship to the USA')).toBe('Sending bikes');
    expect(synonymForms('send')).toContain('deliv');
    expect(top('can you send a bike to me by tomorrow?')).toBe('Sending bikes');
    expect(top('do you ship to the UK')).toBe('Sending bikes');
    expect(top('can I swap the bike for another frame size')).toBe('Changing your mind');
    expect(top('what if the frame is broken?')).toBe('Changing your mind');
    expect(top('how do I send the bike back')).toBe('Changing your mind');
  });

  it('joins a way to pay to the payment topic, not to the other ways', () => {
    const forms = synonymForms('nachnahme');
    expect(forms).toContain('zahlungsart');
    for (const other of termForms('vorkasse')) expect(forms).not.toContain(other);
  });

  it('meets them in German: tauschen finds Umtausch, kaputt finds beschädigt', () => {
    expect(top('Kann ich das Rad gegen eine andere Rahmengröße tauschen?')).toBe('Fahrräder zurückgeben');
    expect(top('Rahmen kaputt, was nun?')).toBe('Fahrräder zurückgeben');
  });
});
