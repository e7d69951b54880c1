// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { detectLanguage, localeLanguage, replyLanguage, shopperTexts } from './reply-language';

describe('replyLanguage()', () => {
  it("answers a plain message in its own language, whatever the page's locale", () => {
    expect(replyLanguage('Wo ist meine Bestellung 1001?', 'en')).toBe('de');
    expect(replyLanguage('Where is my order 1001?', 'de-AT')).toBe('en');
  });

  it("continues the language of the shopper's latest plain message when this one shows none", () => {
    expect(replyLanguage('ada@example.com', 'en', ['Wo ist meine Bestellung 1001?'])).toBe('de');
    expect(replyLanguage('1001', 'de', ['Wo ist meine Bestellung?', 'Where is my order?', 'ok'])).toBe('en');
  });

  it("falls back to the widget's locale, then English", () => {
    expect(replyLanguage('1001', 'de-CH', ['ok', '42'])).toBe('de');
    expect(replyLanguage('1001', 'ar')).toBe('en');
    expect(replyLanguage('1001', null)).toBe('en');
  });
});

describe('detectLanguage() and localeLanguage()', () => {
  it('tells nothing from a number or an address, and reads de-AT as de', () => {
    expect(detectLanguage('ada@example.com')).toBeNull();
    expect(detectLanguage('58213')).toBeNull();
    expect(localeLanguage('de-AT')).toBe('de');
    expect(localeLanguage('fr')).toBeNull();
  });
});

describe('shopperTexts()', () => {
  it("takes the shopper's messages only, in order", () => {
    const history = [
      { role: 'user', parts: [{ type: 'text', text: 'Wo ist meine Bestellung?' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Which order do you mean?' }] },
      { role: 'agent', parts: [{ type: 'text', text: 'Hello, Anna here' }] },
      { role: 'user', parts: [{ type: 'text', text: '1001' }] },
    ];
    expect(shopperTexts(history)).toEqual(['Wo ist meine Bestellung?', '1001']);
  });
});
