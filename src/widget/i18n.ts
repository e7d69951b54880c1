import { english, type Strings } from './locales/english';
import { logError } from './log';

export type { Strings } from './locales/english';

export const en: Strings = english;

/**
 * Every language besides English, each a chunk of its own. A language added here has, in its own file, the words of
 * the chunks that keep their English apart too: `chat` (chat/handoff-strings.ts), `productCards`
 * (parts/product-card-strings.ts) and `orderCard` (parts/order-card-strings.ts).
 */
export const LOCALES: Record<string, () => Promise<{ default: Strings }>> = {
  ar: () => import('./locales/ar'),
  de: () => import('./locales/de'),
  he: () => import('./locales/he'),
};

/** The language subtag of `locale`, else of the browser's language, lower case: `de-AT` → `de`. */
export function languageOf(locale?: string): string {
  const tag = locale ?? (typeof navigator === 'undefined' ? '' : navigator.language);
  return (tag || '').toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * UI strings for `locale` (settings), else the browser's language, else English. English resolves at once; another
 * language fetches its chunk. Never rejects: a chunk that fails to load (the network) gives English, and one
 * `[service]` error.
 *
 * @example
 * const strings = await loadStrings('ar-EG'); // strings.lang === 'ar', strings.dir === 'rtl'
 */
export async function loadStrings(locale?: string, locales = LOCALES): Promise<Strings> {
  const language = languageOf(locale);
  // An own key only: `constructor` or `__proto__` as a locale is English, not Object's prototype.
  const load = Object.hasOwn(locales, language) ? locales[language] : undefined;
  if (!load) return en;
  try {
    return (await load()).default;
  } catch (error) {
    logError(`could not load the ${language} strings: English shown`, error);
    return en;
  }
}
