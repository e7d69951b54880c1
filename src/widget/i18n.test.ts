import { afterEach, describe, expect, it, vi } from 'vitest';
import { pickStrings } from './i18n';

afterEach(() => vi.unstubAllGlobals());

describe('pickStrings()', () => {
  it('follows the locale setting, region or not', () => {
    expect(pickStrings('de').openChat).toBe('Chat öffnen');
    expect(pickStrings('de-AT').lang).toBe('de');
    expect(pickStrings('EN-gb').lang).toBe('en');
  });

  it("falls back to the browser's language", () => {
    vi.stubGlobal('navigator', { language: 'de-CH' });
    expect(pickStrings().lang).toBe('de');
  });

  it('falls back to English for a language it does not have', () => {
    expect(pickStrings('ja-JP').lang).toBe('en');
    expect(pickStrings('constructor').lang).toBe('en');
  });

  it('has every English string in German', () => {
    expect(Object.keys(pickStrings('de')).sort()).toEqual(Object.keys(pickStrings('en')).sort());
  });
});
