import { describe, expect, it } from 'vitest';
import { CUSTOM_INSTRUCTIONS_MAX } from '../protocol';
import {
  checkCustomInstructions,
  checkUserData,
  isInIframe,
  parseSettings,
  resolveHidden,
  type WidgetSettings,
} from './settings';

const defaults = { baseUrl: 'https://cdn.example.com' };

/** The settings of a parse that must succeed. */
function parse(raw: unknown, fallback: { baseUrl: string; widgetId?: string } = defaults) {
  const result = parseSettings(raw, fallback);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('parseSettings()', () => {
  describe('widgetId', () => {
    it('accepts a non-empty string', () => {
      expect(parse({ widgetId: 'demo' }).settings.widgetId).toBe('demo');
    });

    it('falls back to the id the script tag gave', () => {
      expect(parse({}, { ...defaults, widgetId: 'from-tag' }).settings.widgetId).toBe('from-tag');
    });

    it('prefers the settings over the script tag', () => {
      expect(parse({ widgetId: 'mine' }, { ...defaults, widgetId: 'from-tag' }).settings.widgetId).toBe(
        'mine',
      );
    });

    it.each([
      ['missing', {}],
      ['empty', { widgetId: '' }],
      ['blank', { widgetId: '   ' }],
      ['a number', { widgetId: 42 }],
    ])('is fatal when %s and there is no fallback', (_, raw) => {
      const result = parseSettings(raw, defaults);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/widgetId/);
    });

    it('reports an invalid id and uses the script tag id when there is one', () => {
      const { settings, issues } = parse({ widgetId: 42 }, { ...defaults, widgetId: 'from-tag' });
      expect(settings.widgetId).toBe('from-tag');
      expect(issues).toEqual([expect.stringMatching(/widgetId/)]);
    });
  });

  it('treats absent settings as an empty object', () => {
    expect(parse(undefined, { ...defaults, widgetId: 'demo' }).issues).toEqual([]);
  });

  it('reports settings that are not an object', () => {
    expect(parse('demo', { ...defaults, widgetId: 'demo' }).issues).toEqual(['settings must be an object']);
  });

  describe('baseUrl', () => {
    it('defaults to the script origin', () => {
      expect(parse({ widgetId: 'w' }).settings.baseUrl).toBe('https://cdn.example.com');
    });

    it.each([
      ['https://service.example.com/', 'https://service.example.com'],
      ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
      ['https://example.com/assistant/', 'https://example.com/assistant'],
    ])('accepts %s', (baseUrl, expected) => {
      expect(parse({ widgetId: 'w', baseUrl }).settings.baseUrl).toBe(expected);
    });

    it.each([['/relative'], ['ftp://example.com'], ['javascript:alert(1)'], [''], [42]])(
      'ignores %s',
      (baseUrl) => {
        const { settings, issues } = parse({ widgetId: 'w', baseUrl });
        expect(settings.baseUrl).toBe('https://cdn.example.com');
        expect(issues).toEqual([expect.stringMatching(/^baseUrl .*ignored$/)]);
      },
    );
  });

  describe('hidden', () => {
    it.each([[true], [false]])('accepts %s', (hidden) => {
      expect(parse({ widgetId: 'w', hidden }).settings.hidden).toBe(hidden);
    });

    it('stays absent when absent', () => {
      expect('hidden' in parse({ widgetId: 'w' }).settings).toBe(false);
    });

    it.each([['true'], [1], [null]])('ignores %j', (hidden) => {
      const { settings, issues } = parse({ widgetId: 'w', hidden });
      expect(settings.hidden).toBeUndefined();
      expect(issues).toEqual([expect.stringMatching(/^hidden/)]);
    });
  });

  describe('userData', () => {
    it('accepts a flat object of strings, finite numbers, booleans and null', () => {
      const userData = { email: 'ada@example.com', orders: 3, vip: true, phone: null };
      expect(parse({ widgetId: 'w', userData }).settings.userData).toEqual(userData);
    });

    it('is a copy: later changes by the page do not leak in', () => {
      const userData: Record<string, string> = { name: 'Ada' };
      const { settings } = parse({ widgetId: 'w', userData });
      userData.name = 'Eve';
      expect(settings.userData).toEqual({ name: 'Ada' });
    });

    it('ignores an invalid userData with one issue that names the field', () => {
      const { settings, issues } = parse({ widgetId: 'w', userData: { nested: { a: 1 } } });
      expect(settings.userData).toBeUndefined();
      expect(issues).toEqual([expect.stringMatching(/^userData\.nested/)]);
    });
  });

  describe('customInstructions', () => {
    it('accepts 1 to 5000 characters', () => {
      const long = 'x'.repeat(CUSTOM_INSTRUCTIONS_MAX);
      expect(parse({ widgetId: 'w', customInstructions: long }).settings.customInstructions).toBe(long);
    });

    it.each([[''], ['x'.repeat(CUSTOM_INSTRUCTIONS_MAX + 1)], [42]])('ignores %#', (customInstructions) => {
      const { settings, issues } = parse({ widgetId: 'w', customInstructions });
      expect(settings.customInstructions).toBeUndefined();
      expect(issues).toEqual([expect.stringMatching(/^customInstructions/)]);
    });
  });

  describe('locale', () => {
    it('accepts and canonicalizes a BCP 47 tag', () => {
      expect(parse({ widgetId: 'w', locale: 'de-de' }).settings.locale).toBe('de-DE');
    });

    it.each([['not a locale!'], [''], [7]])('ignores %j', (locale) => {
      const { settings, issues } = parse({ widgetId: 'w', locale });
      expect(settings.locale).toBeUndefined();
      expect(issues).toEqual([expect.stringMatching(/^locale/)]);
    });
  });

  describe('callbacks', () => {
    it.each([['onReady'], ['onChatOpen'], ['onChatClose'], ['onMessageSent'], ['onLinkClick']])(
      'accepts a function as %s and ignores anything else',
      (name) => {
        const callback = (): void => {};
        expect(parse({ widgetId: 'w', [name]: callback }).settings[name as keyof WidgetSettings]).toBe(
          callback,
        );
        const { settings, issues } = parse({ widgetId: 'w', [name]: 'alert(1)' });
        expect(settings[name as keyof WidgetSettings]).toBeUndefined();
        expect(issues).toEqual([`${name} must be a function; ignored`]);
      },
    );
  });

  it('reports each invalid field once and keeps the valid ones', () => {
    const { settings, issues } = parse({ widgetId: 'w', hidden: 'yes', locale: 'de', userData: [] });
    expect(issues).toHaveLength(2);
    expect(settings.locale).toBe('de');
  });

  it('takes identityToken when it has the shape of a JWT, and reports anything else', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
    expect(parse({ widgetId: 'w', identityToken: jwt }).settings.identityToken).toBe(jwt);
    for (const bad of ['not a jwt', 42, 'a.b', `${jwt}.extra`, 'x'.repeat(5000)]) {
      const { settings, issues } = parse({ widgetId: 'w', identityToken: bad });
      expect(settings.identityToken).toBeUndefined();
      expect(issues).toEqual(['identityToken must be a JWT (three base64url parts) or null; ignored']);
    }
    // A store's template prints '' for a visitor who is not signed in: anonymous, and no error for it.
    const empty = parse({ widgetId: 'w', identityToken: '' });
    expect([empty.settings.identityToken, empty.issues]).toEqual([undefined, []]);
  });

  it('ignores unknown fields silently, for forward compatibility', () => {
    expect(parse({ widgetId: 'w', futureOption: 1 }).issues).toEqual([]);
  });
});

describe('checkUserData()', () => {
  it('accepts an empty object and a null-prototype object', () => {
    expect(checkUserData({}).ok).toBe(true);
    expect(checkUserData(Object.assign(Object.create(null), { a: 1 })).ok).toBe(true);
  });

  it.each([
    ['a nested object', { address: { city: 'Berlin' } }],
    ['an array value', { tags: ['a'] }],
    ['a function value', { fn: () => 1 }],
    ['NaN', { score: Number.NaN }],
    ['Infinity', { score: Number.POSITIVE_INFINITY }],
    ['undefined', { email: undefined }],
    ['a bigint', { id: 1n }],
    ['a symbol value', { s: Symbol('x') }],
    ['a Date value', { at: new Date(0) }],
  ])('refuses %s', (_, value) => {
    expect(checkUserData(value).ok).toBe(false);
  });

  it.each([
    ['an array', ['a']],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a class instance', new (class User {})()],
    ['a string', 'ada@example.com'],
    ['null', null],
  ])('refuses %s as the whole object', (_, value) => {
    expect(checkUserData(value)).toEqual({ ok: false, error: 'userData must be a plain object' });
  });

  it('refuses __proto__ tricks', () => {
    // JSON.parse creates an own "__proto__" key; a literal `__proto__` swaps the prototype instead.
    expect(checkUserData(JSON.parse('{"__proto__": {"isAdmin": true}}')).ok).toBe(false);
    expect(checkUserData(JSON.parse('{"__proto__": "x"}')).ok).toBe(false);
    expect(checkUserData({ __proto__: { isAdmin: true } }).ok).toBe(false);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('checkCustomInstructions()', () => {
  it('counts the limit inclusively', () => {
    expect(checkCustomInstructions('a').ok).toBe(true);
    expect(checkCustomInstructions('a'.repeat(5000)).ok).toBe(true);
    expect(checkCustomInstructions('a'.repeat(5001)).ok).toBe(false);
  });
});

describe('resolveHidden()', () => {
  it.each([
    // hidden, in an iframe, on a hideUrls page → hidden?
    [true, false, false, true],
    [true, true, false, true],
    [false, false, false, false],
    [false, true, false, false],
    [false, false, true, false],
    [undefined, false, false, false],
    [undefined, true, false, true],
    [undefined, false, true, true],
  ] as const)('hidden=%s, iframe=%s, hideUrls match=%s → %s', (hidden, inIframe, onHiddenUrl, expected) => {
    expect(resolveHidden(hidden, inIframe, onHiddenUrl)).toBe(expected);
  });
});

describe('isInIframe()', () => {
  it('is false at the top', () => {
    const win = {} as Window;
    Object.assign(win, { self: win, top: win });
    expect(isInIframe(win)).toBe(false);
  });

  it('is true inside a frame', () => {
    const win = { self: {}, top: {} } as unknown as Window;
    expect(isInIframe(win)).toBe(true);
  });

  it('is true when the parent refuses access', () => {
    const win = {
      self: {},
      get top(): Window {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    } as unknown as Window;
    expect(isInIframe(win)).toBe(true);
  });
});

describe('parseSettings(): issue 20 settings', () => {
  const parse = (extra: Record<string, unknown>) =>
    parseSettings({ widgetId: 'demo', ...extra }, { baseUrl: 'https://s.example' });

  it('takes storage, theme, analytics and a container element or selector', () => {
    const box = document.createElement('div');
    box.id = 'chat-box';
    document.body.append(box);
    const parsed = parse({ storage: 'none', theme: 'auto', analytics: 'dataLayer', container: '#chat-box' });
    expect(parsed.ok && parsed.value.settings).toMatchObject({
      storage: 'none',
      theme: 'auto',
      analytics: 'dataLayer',
      container: box,
    });
    expect(parsed.ok && parsed.value.issues).toEqual([]);
    box.remove();
  });

  it.each([
    ['storage', 'cookies', 'storage must be "local" or "session" or "none"'],
    ['theme', 'neon', 'theme must be "light" or "dark" or "auto"'],
    ['analytics', 'ga4', 'analytics must be "dataLayer"'],
    ['container', '#missing', 'container "#missing" matches no element on this page'],
    ['container', '<<<', 'container "<<<" is not a valid CSS selector'],
    ['container', document.createElement('div'), 'container must be an element of this page'],
    ['onAddToCart', 'addToCart()', 'onAddToCart must be a function'],
  ])('reports %s %o and loads without it', (field, value, message) => {
    const parsed = parse({ [field]: value });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.issues).toHaveLength(1);
    expect(parsed.value.issues[0]).toContain(message);
    expect((parsed.value.settings as unknown as Record<string, unknown>)[field]).toBeUndefined();
  });
});
