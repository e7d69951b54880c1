// The language the demo integrator answers in (issue 31 item 5): the service sends every custom-action and webhook
// call with `Accept-Language`, the language the assistant answers that turn in, so the card's labels and the
// integrator's sentences sit in the same language as the words around them. The demo speaks English and German; any
// other wish, or none, gets English, as a real store falls back to its default language.

export type DemoLanguage = 'en' | 'de';

const SPOKEN: readonly DemoLanguage[] = ['en', 'de'];

/**
 * The best language of `Accept-Language` the demo speaks (RFC 9110 §12.5.4: `q` weights, a tag matches by its
 * language, `de-AT` is `de`), else English. Read the way any integrator would, though the service sends one tag.
 * @example
 * shopperLanguage('de'); // → 'de'
 * shopperLanguage('fr, de;q=0.8, en;q=0.5'); // → 'de'
 * shopperLanguage(undefined); // → 'en'
 */
export function shopperLanguage(acceptLanguage: string | undefined): DemoLanguage {
  let best: DemoLanguage = 'en';
  let bestQ = 0;
  // A header is short; a longer one is not from the service and gets the default.
  if (!acceptLanguage || acceptLanguage.length > 200) return best;
  for (const entry of acceptLanguage.split(',')) {
    const [tag = '', ...params] = entry.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0] as DemoLanguage;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (SPOKEN.includes(language) && Number.isFinite(q) && q > bestQ) {
      best = language;
      bestQ = q;
    }
  }
  return best;
}
