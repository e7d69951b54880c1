// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cistem, foldGerman, germanKey, separatedVerbs, splitCompound } from './german-words';

describe('cistem', () => {
  it('strips endings the way the published CISTEM does (umlauts folded, ge- before four letters)', () => {
    // Examples worked by hand from the algorithm of Weissweiler & Fraser (2017).
    expect(cistem(foldGerman('Schuhe'))).toBe('schuh');
    expect(cistem(foldGerman('kaufen'))).toBe('kauf');
    expect(cistem(foldGerman('gekauft'))).toBe('kauf');
    expect(cistem(foldGerman('liefern'))).toBe('liefer');
    expect(cistem(foldGerman('Größe'))).toBe('gross');
  });
});

describe('germanKey', () => {
  it('gives a separable verb and the noun made from it one key, "zurück" meeting "Rück-"', () => {
    const key = germanKey('zurückgeben');
    expect(germanKey('Rückgabe')).toBe(key);
    expect(germanKey('zurückgegeben')).toBe(key);
    expect(germanKey('zurückzugeben')).toBe(key);
    expect(germanKey('zurückgibt')).toBe(key);
    expect(germanKey('Rücknahme')).toBe(germanKey('zurücknehmen'));
    expect(germanKey('Rücksendung')).toBe(germanKey('zurücksenden'));
  });

  it('follows the strong verbs’ vowel changes into their nouns', () => {
    expect(germanKey('Ankunft')).toBe(germanKey('ankommen'));
    expect(germanKey('Abholung')).toBe(germanKey('abholen'));
    expect(germanKey('Umtausch')).toBe(germanKey('umtauschen'));
    expect(germanKey('Anruf')).toBe(germanKey('anrief'));
  });

  it('meets a verb’s forms and its "-ung" noun', () => {
    const key = germanKey('Lieferung');
    expect(germanKey('liefern')).toBe(key);
    expect(germanKey('geliefert')).toBe(key);
    expect(germanKey('Zahlung')).toBe(germanKey('zahlen'));
    expect(germanKey('Erstattung')).toBe(germanKey('erstatten'));
  });

  it('takes a particle off only when a word of its own is left ("Zucker" is not "zu" + "cker")', () => {
    expect(germanKey('Zucker')).toBe(cistem('zucker'));
    expect(germanKey('Abend')).toBe(cistem('abend'));
    expect(germanKey('Schuhe')).not.toBe(germanKey('Schule'));
  });
});

describe('separatedVerbs', () => {
  it('joins a particle at the end of a clause to the verb at its start, in questions and statements', () => {
    const words = (text: string) => separatedVerbs(text).map((v) => v.word);
    expect(words('Wie gebe ich Schuhe zurück?')).toEqual(['zurückgebe']);
    expect(words('Gibt man getragene Schuhe zurück?')).toEqual(['zurückgibt']);
    expect(words('Holen Sie Ihre Bestellung im Laden ab.')).toEqual(['abholen']);
    // A noun inside the clause is not its verb: "Paket" is capitalized, "kommt" is the verb.
    expect(words('Ihr Paket kommt innerhalb von 3 Tagen an, und wir schicken eine E-Mail.')).toEqual([
      'ankommt',
    ]);
    expect(words('wann kommt meine bestellung an')).toEqual(['ankommt']);
  });

  it('takes the verb second where the object opens the clause ("Nachnahme bieten wir nicht an")', () => {
    const words = (text: string) => separatedVerbs(text).map((v) => v.word);
    expect(words('Nachnahme bieten wir nicht an.')).toEqual(['anbieten']);
    expect(words('Bietet ihr Nachnahme an?')).toEqual(['anbietet']);
    // A verb that opens the clause stays the verb: the word after it is a pronoun, or not shaped like a verb.
    expect(words('Schick einfach alles zurück.')).toEqual(['zurückschick']);
  });

  it('finds nothing where no particle ends a clause, or no verb opens it', () => {
    expect(separatedVerbs('Kann ich Schuhe zurückgeben?')).toEqual([]);
    expect(separatedVerbs('Ich möchte mein Geld zurück')).toEqual([]);
    expect(separatedVerbs('Versand ab 50 € kostenlos')).toEqual([]);
  });
});

describe('splitCompound', () => {
  const lexicon = (...words: string[]) => {
    const known = new Set(words);
    return (part: string) => known.has(part);
  };

  it('splits a compound into words of the lexicon, with or without a linking letter', () => {
    expect(splitCompound('versandkosten', lexicon('versand', 'kosten'))).toEqual(['versand', 'kosten']);
    expect(splitCompound('lieferungszeit', lexicon('lieferung', 'zeit'))).toEqual(['lieferung', 'zeit']);
    expect(splitCompound('rückgaberecht', lexicon('rückgabe', 'recht', 'rück', 'gabe'))).toEqual([
      'rückgabe',
      'recht',
    ]);
  });

  it('does not split where a part is not in the lexicon, or into one part', () => {
    expect(splitCompound('wanderschuhe', lexicon('schuhe'))).toBeNull();
    expect(splitCompound('zeit', lexicon('zeit'))).toBeNull();
  });
});
