// Words, for the local engine's matching. Deliberately simple and deterministic: lowercase, split on anything that is
// not a letter or digit, drop stop words, and fold common English and German endings so "orders" meets "order".

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from get give have how i id if in is it its me my of on or our ' +
    'please show tell that the this to up want was what when where which who why will with would you your ' +
    'ich du der die das ein eine einen und oder ist mein meine meinen mir bitte wie wo was wann hat haben zu von mit'
  ).split(' '),
);

/** A text's words as written, in order: its runs of letters and digits. */
export const writtenWords = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Lowercased words of a text, in order (diacritics kept: "größe" stays one word). */
export const words = (text: string): string[] => writtenWords(text.toLowerCase());

/** A crude stem: enough to match "orders"/"order", "shipping"/"shipped"/"ship", "hours"/"hour". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const suffix of ['ings', 'ing', 'ies', 'ed', 'es', 's', 'en', 'er']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' ? `${base}y` : base.replace(/(.)\1$/, '$1');
    }
  }
  return word;
}

/** Stems of the meaningful words of a text, without duplicates. */
export const keywords = (text: string): Set<string> =>
  new Set(
    words(text)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem),
  );
