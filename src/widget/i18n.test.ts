import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_PREFIX } from '../protocol';
import { HANDOFF_ENGLISH, type HandoffStrings } from './chat/handoff-strings';
import { en, LOCALES, languageOf, loadStrings, type Strings } from './i18n';
import { ALL_STRINGS } from './locales/all';
import { ORDER_CARD_ENGLISH } from './parts/order-card-strings';
import { PRODUCT_CARDS_ENGLISH } from './parts/product-card-strings';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('languageOf()', () => {
  it('takes the language subtag of a tag, whatever its case or separator', () => {
    expect(languageOf('de-AT')).toBe('de');
    expect(languageOf('EN-gb')).toBe('en');
    expect(languageOf('ar_EG')).toBe('ar');
  });

  it("falls back to the browser's language", () => {
    vi.stubGlobal('navigator', { language: 'he-IL' });
    expect(languageOf()).toBe('he');
  });
});

describe('loadStrings()', () => {
  it('gives English at once, without fetching a chunk', async () => {
    const locales = { de: vi.fn(LOCALES.de) };
    expect(await loadStrings('en-US', locales)).toBe(en);
    expect(locales.de).not.toHaveBeenCalled();
  });

  it("loads the locale setting's language, region or not", async () => {
    expect((await loadStrings('de-AT')).openChat).toBe('Chat öffnen');
    const arabic = await loadStrings('ar-EG');
    expect([arabic.lang, arabic.dir, arabic.send]).toEqual(['ar', 'rtl', 'إرسال']);
    const hebrew = await loadStrings('he');
    expect([hebrew.lang, hebrew.dir, hebrew.send]).toEqual(['he', 'rtl', 'שליחה']);
  });

  it("follows the browser's language when there is no locale setting", async () => {
    vi.stubGlobal('navigator', { language: 'de-CH' });
    expect((await loadStrings()).lang).toBe('de');
  });

  it.each([['ja-JP'], ['constructor'], ['__proto__'], ['toString'], ['']])(
    'falls back to English for a language it does not have: %j',
    async (locale) => {
      expect(await loadStrings(locale)).toBe(en);
    },
  );

  it('falls back to English with one [service] error when the chunk does not load', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = {
      ar: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    };
    expect(await loadStrings('ar', failing)).toBe(en);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toBe(`${LOG_PREFIX} could not load the ar strings: English shown`);
  });
});

describe('the languages', () => {
  const others = Object.entries(ALL_STRINGS).filter(([lang]) => lang !== 'en');
  /** A locale's keys that are not English's: its direction, and the tables of chunks that keep their English apart. */
  const OWN_TABLES = ['dir', 'chat', 'productCards', 'orderCard'] as const satisfies (keyof Strings)[];
  /** A table's words, nested ones under `outer.inner`, in order. */
  const wordsOf = (table: object): [string, string][] =>
    Object.entries(table).flatMap(([key, value]): [string, string][] =>
      typeof value === 'string'
        ? [[key, value]]
        : Object.entries(value as Record<string, string>).map(([inner, word]) => [`${key}.${inner}`, word]),
    );

  it('are the ones the widget loads, each under its own tag', () => {
    expect(others.map(([lang]) => lang).sort()).toEqual(Object.keys(LOCALES).sort());
    for (const [lang, strings] of others) expect(strings.lang).toBe(lang);
  });

  it('mirror exactly the right-to-left ones (Arabic, Hebrew)', () => {
    const rtl = Object.values(ALL_STRINGS).filter((s) => s.dir === 'rtl');
    expect(rtl.map((s) => s.lang).sort()).toEqual(['ar', 'he']);
  });

  // A string left in English (or blank) is a hole in the translation, not a fallback.
  it.each(others)('translate every English string: %s', (_lang, strings: Strings) => {
    expect(Object.keys(strings).filter((key) => !(OWN_TABLES as readonly string[]).includes(key))).toEqual(
      Object.keys(en),
    );
    for (const key of Object.keys(en) as Exclude<keyof Strings, (typeof OWN_TABLES)[number]>[]) {
      if (key === 'lang') continue;
      expect(strings[key].trim(), key).not.toBe('');
      expect(strings[key], key).not.toBe(en[key]);
    }
    // The conversation chunk's words (chat/handoff-strings.ts), kept in the locale's chunk.
    const chat = strings.chat as HandoffStrings;
    expect(Object.keys(chat)).toEqual(Object.keys(HANDOFF_ENGLISH));
    for (const key of Object.keys(HANDOFF_ENGLISH) as (keyof HandoffStrings)[]) {
      expect(chat[key].trim(), key).not.toBe('');
      expect(chat[key], key).not.toBe(HANDOFF_ENGLISH[key]);
    }
  });

  // The cards' words (parts/product-card-strings.ts, parts/order-card-strings.ts), kept in the locale's chunk: a table
  // or a word missing here would read English on that shopper's cards.
  it.each(others)("translate every word of the cards' own tables: %s", (_lang, strings: Strings) => {
    for (const [table, english] of [
      [strings.productCards, PRODUCT_CARDS_ENGLISH],
      [strings.orderCard, ORDER_CARD_ENGLISH],
    ] as const) {
      const words = wordsOf(table ?? {});
      expect(words.map(([key]) => key)).toEqual(wordsOf(english).map(([key]) => key));
      for (const [[key, word], [, englishWord]] of words.map((entry, at) => [entry, wordsOf(english)[at]!])) {
        // The button says nothing while idle, in every language.
        if (englishWord === '') expect(word, key).toBe('');
        else {
          expect(word.trim(), key).not.toBe('');
          expect(word, key).not.toBe(englishWord);
        }
      }
    }
  });

  it.each([
    ['ar', /^[\u0600-\u06ff\s.!?؟،…:()]+$/u],
    ['he', /^[\u0590-\u05ff\s.!?,…:'()]+$/u],
  ])('write %s in its own script only (no Latin left in)', (lang, script) => {
    const strings = ALL_STRINGS[lang] as Strings;
    for (const key of Object.keys(en) as Exclude<keyof Strings, (typeof OWN_TABLES)[number]>[]) {
      if (key === 'lang') continue;
      expect(strings[key], key).toMatch(script);
    }
  });
});
