// Every language's strings at once, synchronously: for tests (and tools) only. The widget itself never imports this
// file: it loads one language, as a chunk of its own (i18n.ts `loadStrings`).
import { en, languageOf, type Strings } from '../i18n';
import ar from './ar';
import de from './de';
import he from './he';

export const ALL_STRINGS: Readonly<Record<string, Strings>> = { en, ar, de, he };

/** The strings `loadStrings(locale)` resolves to when every chunk loads. */
export const pickStrings = (locale?: string): Strings =>
  (Object.hasOwn(ALL_STRINGS, languageOf(locale)) && ALL_STRINGS[languageOf(locale)]) || en;
