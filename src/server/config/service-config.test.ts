// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseConfig, parseWidget } from './service-config';

const base = () => ({
  adminKey: 'admin-key-123456',
  widgets: [{ id: 'demo', allowedOrigins: ['http://localhost:5173'] }],
});

const errorOf = (raw: unknown) => {
  const r = parseConfig(raw);
  if (r.ok) throw new Error('expected the config to be refused');
  return r.error;
};

describe('parseConfig()', () => {
  it('accepts the minimal config and fills the documented defaults', () => {
    const r = parseConfig(base());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.database).toBe('embedded');
    expect(r.value.engine).toEqual({ type: 'local' });
    expect(r.value.allowHttpLoopback).toBe(false);
    expect(r.value.widgets[0]).toMatchObject({ feeds: [], actions: [], launcherPosition: 'bottom-right' });
  });

  it("fills the limits of DESIGN's table and trustProxy 0 when they are not given", () => {
    const r = parseConfig(base());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.trustProxy).toBe(0);
    expect(r.value.widgets[0].limits).toEqual({
      conversationsPerIpPerHour: 30,
      messagesPerIpPerMinute: 30,
      messagesPerConversationPerMinute: 10,
      queuedTurnsPerConversation: 2,
      openStreamsPerIp: 20,
      messagesPerConversation: 200,
    });
  });

  it('takes any positive integer for a limit and keeps the defaults of the others', () => {
    const c = base();
    Object.assign(c.widgets[0], { limits: { messagesPerDay: 5000, openStreamsPerIp: 1 } });
    const r = parseConfig({ ...c, trustProxy: 2 });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.trustProxy).toBe(2);
    expect(r.value.widgets[0].limits).toMatchObject({
      messagesPerDay: 5000,
      openStreamsPerIp: 1,
      messagesPerIpPerMinute: 30,
    });
  });

  it('refuses a limit that is not a positive integer, and a negative trustProxy', () => {
    for (const bad of [0, -1, 2.5, '10']) {
      const c = base();
      Object.assign(c.widgets[0], { limits: { messagesPerIpPerMinute: bad } });
      expect(errorOf(c)).toMatch(/^widgets\[0\]\.limits\.messagesPerIpPerMinute: /);
    }
    expect(errorOf({ ...base(), trustProxy: -1 })).toMatch(/^trustProxy: must be 0 or more/);
    expect(errorOf({ ...base(), trustProxy: 1.5 })).toMatch(/^trustProxy: must be a whole number/);
  });

  it("takes turnLeaseSeconds from 2 to 60, 8 when not given (a dead instance's turn is taken over within 15 s)", () => {
    const r = parseConfig(base());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.turnLeaseSeconds).toBe(8);
    const short = parseConfig({ ...base(), turnLeaseSeconds: 2 });
    expect(short.ok && short.value.turnLeaseSeconds).toBe(2);
    expect(errorOf({ ...base(), turnLeaseSeconds: 1 })).toMatch(/^turnLeaseSeconds: must be 2 or more/);
    expect(errorOf({ ...base(), turnLeaseSeconds: 61 })).toMatch(/^turnLeaseSeconds: must be 60 or less/);
    expect(errorOf({ ...base(), turnLeaseSeconds: 2.5 })).toMatch(
      /^turnLeaseSeconds: must be a whole number/,
    );
  });

  it('takes databasePoolSize from 1 to 100, none when not given (the pool then follows the CPUs)', () => {
    const r = parseConfig(base());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.databasePoolSize).toBeUndefined();
    const set = parseConfig({ ...base(), databasePoolSize: 12 });
    expect(set.ok && set.value.databasePoolSize).toBe(12);
    expect(errorOf({ ...base(), databasePoolSize: 0 })).toMatch(/^databasePoolSize: must be 1 or more/);
    expect(errorOf({ ...base(), databasePoolSize: 101 })).toMatch(/^databasePoolSize: must be 100 or less/);
    expect(errorOf({ ...base(), databasePoolSize: 2.5 })).toMatch(
      /^databasePoolSize: must be a whole number/,
    );
  });

  it('takes shutdownGraceSeconds from 0 to 600, 25 when not given (below Docker and Kubernetes kill timeouts once raised)', () => {
    const r = parseConfig(base());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.shutdownGraceSeconds).toBe(25);
    const none = parseConfig({ ...base(), shutdownGraceSeconds: 0 });
    expect(none.ok && none.value.shutdownGraceSeconds).toBe(0);
    expect(errorOf({ ...base(), shutdownGraceSeconds: -1 })).toMatch(
      /^shutdownGraceSeconds: must be 0 or more/,
    );
    expect(errorOf({ ...base(), shutdownGraceSeconds: 601 })).toMatch(
      /^shutdownGraceSeconds: must be 600 or less/,
    );
  });

  it('names a bad nested field by its path', () => {
    const c = base();
    Object.assign(c.widgets[0], { feeds: [{ url: 'https://ok.example/feed' }, { url: 'not a url' }] });
    expect(errorOf(c)).toMatch(/^widgets\[0\]\.feeds\[1\]\.url: /);
  });

  it('names an unknown field instead of ignoring a typo', () => {
    expect(errorOf({ ...base(), allowHttpLoopbak: true })).toMatch(/allowHttpLoopbak: is not a known field/);
  });

  it('refuses an origin with a path and a non-hex theme colour (no CSS injection through config)', () => {
    const withPath = base();
    withPath.widgets[0].allowedOrigins = ['https://shop.example/'];
    expect(errorOf(withPath)).toMatch(/allowedOrigins\[0\]/);
    const c = base();
    Object.assign(c.widgets[0], { themeColor: 'red;background:url(x)' });
    expect(errorOf(c)).toMatch(/themeColor/);
  });

  it('takes cart, up to 4 starters and themeMode, and names each bad one (issue 20)', () => {
    const r = parseConfig(base());
    if (!r.ok) throw new Error(r.error);
    expect(r.value.widgets[0]).toMatchObject({ cart: false, starters: [] });
    expect(r.value.widgets[0].themeMode).toBeUndefined();
    const c = base();
    Object.assign(c.widgets[0], { cart: true, starters: ['  Where is my order? '], themeMode: 'auto' });
    const ok = parseConfig(c);
    if (!ok.ok) throw new Error(ok.error);
    expect(ok.value.widgets[0]).toMatchObject({
      cart: true,
      starters: ['Where is my order?'],
      themeMode: 'auto',
    });

    const bad = (fields: Record<string, unknown>) => {
      const b = base();
      Object.assign(b.widgets[0], fields);
      return errorOf(b);
    };
    expect(bad({ cart: 'yes' })).toMatch(/^widgets\[0\]\.cart: must be true or false/);
    expect(bad({ starters: ['a', 'b', 'c', 'd', 'e'] })).toMatch(
      /^widgets\[0\]\.starters: must have at most 4/,
    );
    expect(bad({ starters: ['   '] })).toMatch(/^widgets\[0\]\.starters\[0\]: must not be empty/);
    expect(bad({ starters: ['x'.repeat(81)] })).toMatch(
      /^widgets\[0\]\.starters\[0\]: must be at most 80 characters/,
    );
    expect(bad({ starters: [42] })).toMatch(/^widgets\[0\]\.starters\[0\]: must be a string/);
    expect(bad({ starters: ['Hi', 'Hi'] })).toMatch(/starters: must not list the same starter twice/);
    expect(bad({ starters: 'Hi' })).toMatch(/^widgets\[0\]\.starters: /);
    expect(bad({ themeMode: 'sepia' })).toMatch(
      /^widgets\[0\]\.themeMode: must be "light", "dark" or "auto"/,
    );
  });

  it('refuses duplicate widget ids, a missing adminKey and task keys without the nsk_ prefix', () => {
    expect(errorOf({ ...base(), widgets: [...base().widgets, ...base().widgets] })).toMatch(
      /ids must be unique/,
    );
    const { adminKey: _, ...noKey } = base();
    expect(errorOf(noKey)).toBe(
      'adminKey: needs exactly one of adminKey and adminKeyEnv (the environment variable holding the key)',
    );
    // The key from the environment instead; both at once is ambiguous.
    expect(parseConfig({ ...noKey, adminKeyEnv: 'SERVICE_ADMIN_KEY' }).ok).toBe(true);
    expect(errorOf({ ...base(), adminKeyEnv: 'SERVICE_ADMIN_KEY' })).toMatch(/^adminKey: needs exactly one/);
    expect(errorOf({ ...noKey, adminKeyEnv: 'not a name' })).toMatch(/^adminKeyEnv: /);
    expect(errorOf({ ...base(), taskApiKeys: [{ user: 'a', key: 'sk_1234567890abcdefgh' }] })).toMatch(
      /taskApiKeys\[0\]\.key: must start with nsk_/,
    );
  });

  it('takes identity { secretEnv, required } and requiresIdentity, and refuses requiresIdentity without identity', () => {
    const c = base();
    const action = { name: 'Orders', url: 'https://shop.example/o', requiresIdentity: true };
    Object.assign(c.widgets[0], { identity: { secretEnv: 'SHOP_IDENTITY_SECRET' }, actions: [action] });
    const r = parseConfig(c);
    expect(r.ok && r.value.widgets[0].identity).toEqual({
      secretEnv: 'SHOP_IDENTITY_SECRET',
      required: false,
    });
    Object.assign(c.widgets[0], { identity: undefined });
    expect(errorOf(c)).toMatch(/requiresIdentity needs the widget's identity/);
    Object.assign(c.widgets[0], { identity: { secretEnv: 'not a name' } });
    expect(errorOf(c)).toMatch(/^widgets\[0\]\.identity\.secretEnv: /);
    Object.assign(c.widgets[0], { identity: { secretEnv: 'X', secret: 'inline' } });
    expect(errorOf(c)).toMatch(/identity\.secret: is not a known field/);
  });

  it('keeps conversations 90 days by default and takes any positive whole number of days for retentionDays', () => {
    const r = parseConfig(base());
    expect(r.ok && r.value.widgets[0].retentionDays).toBe(90);
    const c = base();
    Object.assign(c.widgets[0], { retentionDays: 1 });
    const one = parseConfig(c);
    expect(one.ok && one.value.widgets[0].retentionDays).toBe(1);
    for (const bad of [0, -5, 1.5, '30', null, 1e9]) {
      const w = base();
      Object.assign(w.widgets[0], { retentionDays: bad });
      expect(errorOf(w), String(bad)).toMatch(/^widgets\[0\]\.retentionDays: /);
    }
  });

  it('refuses a push API key listed under two widgets: the key alone names the widget', () => {
    const c = {
      ...base(),
      widgets: [
        { id: 'a', allowedOrigins: ['*'], productDataApiKeys: ['push-key-a-1', 'push-key-shared'] },
        { id: 'b', allowedOrigins: ['*'], productDataApiKeys: ['push-key-shared'] },
      ],
    };
    expect(errorOf(c)).toMatch(/productDataApiKeys must be unique across widgets/);
  });

  it('refuses a push API key shorter than 12 characters, as the admin and agent keys (issue 32: a short key is guessed)', () => {
    const c = base();
    Object.assign(c.widgets[0], { productDataApiKeys: ['push-key-long-enough', 'k-123'] });
    expect(errorOf(c)).toBe('widgets[0].productDataApiKeys[1]: must be at least 12 characters');
    Object.assign(c.widgets[0], { productDataApiKeys: ['   padded    '] });
    expect(errorOf(c)).toBe('widgets[0].productDataApiKeys[0]: must be at least 12 characters');
    Object.assign(c.widgets[0], { productDataApiKeys: ['twelve-chars'] });
    expect(parseConfig(c).ok).toBe(true);
  });

  it('refuses an openai engine without its models and a database that is neither embedded nor postgres', () => {
    expect(
      errorOf({ ...base(), engine: { type: 'openai', baseUrl: 'https://m.example', apiKeyEnv: 'K' } }),
    ).toMatch(/engine\.models/);
    expect(errorOf({ ...base(), database: 'mysql://x' })).toMatch(/database/);
  });

  describe('businessHours (issue 21)', () => {
    const withHours = (businessHours: unknown) => {
      const c = base();
      Object.assign(c.widgets[0], { businessHours });
      return c;
    };
    const range = (fields: Record<string, unknown>) =>
      withHours({
        timeZone: 'Europe/Berlin',
        hours: [{ days: ['mon'], open: '09:00', close: '17:00', ...fields }],
      });

    it('takes a zone with day ranges, a break, an overnight range, a range to 24:00 and no ranges at all', () => {
      const hours = {
        timeZone: 'America/Los_Angeles',
        hours: [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri'], open: '09:00', close: '12:30' },
          { days: ['mon', 'tue', 'wed', 'thu', 'fri'], open: '13:30', close: '18:00' },
          { days: ['fri', 'sat'], open: '22:00', close: '02:00' },
          { days: ['sun'], open: '00:00', close: '24:00' },
        ],
      };
      const r = parseConfig(withHours(hours));
      expect(r.ok && r.value.widgets[0].businessHours).toEqual(hours);
      const none = parseConfig(withHours({ timeZone: 'Asia/Tokyo', hours: [] }));
      expect(none.ok && none.value.widgets[0].businessHours).toEqual({ timeZone: 'Asia/Tokyo', hours: [] });
    });

    it('refuses a range that closes when it opens, and says how to write a whole day or a night', () => {
      expect(errorOf(range({ open: '09:00', close: '09:00' }))).toBe(
        'widgets[0].businessHours.hours[0].close: must differ from open (a whole day is "00:00" to "24:00"; ' +
          '"22:00" to "02:00" runs past midnight)',
      );
      expect(errorOf(range({ open: '00:00', close: '00:00' }))).toMatch(/hours\[0\]\.close: must differ/);
    });

    it('names each bad field: zone, day, a day twice, no day, times off the 24-hour clock, an unknown field', () => {
      expect(errorOf(withHours({ timeZone: 'Berlin', hours: [] }))).toBe(
        'widgets[0].businessHours.timeZone: must be an IANA time zone like "Europe/Berlin"',
      );
      expect(errorOf(range({ days: ['monday'] }))).toBe(
        'widgets[0].businessHours.hours[0].days[0]: must be one of mon, tue, wed, thu, fri, sat, sun',
      );
      expect(errorOf(range({ days: ['mon', 'tue', 'mon'] }))).toBe(
        'widgets[0].businessHours.hours[0].days: must not list the same day twice',
      );
      expect(errorOf(range({ days: [] }))).toBe(
        'widgets[0].businessHours.hours[0].days: must list at least one day',
      );
      expect(errorOf(range({ open: '9:00' }))).toBe(
        'widgets[0].businessHours.hours[0].open: must be a time like "09:00" (24-hour clock)',
      );
      // "24:00" ends a day; it starts none.
      expect(errorOf(range({ open: '24:00', close: '02:00' }))).toMatch(/hours\[0\]\.open: must be a time/);
      expect(errorOf(range({ close: '5pm' }))).toBe(
        'widgets[0].businessHours.hours[0].close: must be a time like "17:00" (24-hour clock; "24:00" is the end ' +
          'of the day)',
      );
      expect(errorOf(range({ close: '24:30' }))).toMatch(/hours\[0\]\.close: must be a time/);
      expect(errorOf(range({ note: 'lunch' }))).toBe(
        'widgets[0].businessHours.hours[0].note: is not a known field',
      );
      expect(errorOf(withHours({ timeZone: 'Europe/Berlin' }))).toBe(
        'widgets[0].businessHours.hours: is required',
      );
    });
  });

  describe('knowledge and knowledgeUrls (DESIGN "Store knowledge")', () => {
    const withKnowledge = (fields: Record<string, unknown>) => {
      const c = base();
      Object.assign(c.widgets[0], fields);
      return c;
    };
    const sections = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ title: `Topic ${i}`, text: `About ${i}.` }));

    it('takes up to 500 sections of up to 20,000 characters, and a title used twice', () => {
      const full = sections(500);
      full[1] = { title: 'Topic 0', text: 'x'.repeat(20_000) };
      const r = parseConfig(withKnowledge({ knowledge: full }));
      if (!r.ok) throw new Error(r.error);
      expect(r.value.widgets[0].knowledge).toHaveLength(500);
      expect(r.value.widgets[0].knowledgeUrls).toEqual([]);
    });

    it('names the section whose text is too long, with the limit', () => {
      const four = sections(4);
      four[3] = { title: 'Shipping', text: 'x'.repeat(20_001) };
      expect(errorOf(withKnowledge({ knowledge: four }))).toBe(
        'widgets[0].knowledge[3].text: must be at most 20000 characters',
      );
    });

    it('refuses a 501st section, an empty text, a missing title and an unknown field of a section', () => {
      expect(errorOf(withKnowledge({ knowledge: sections(501) }))).toBe(
        'widgets[0].knowledge: must have at most 500 sections',
      );
      expect(errorOf(withKnowledge({ knowledge: [{ title: 'Shipping', text: '  \n ' }] }))).toBe(
        'widgets[0].knowledge[0].text: must not be empty',
      );
      expect(errorOf(withKnowledge({ knowledge: [{ text: 'Within 2 days.' }] }))).toBe(
        'widgets[0].knowledge[0].title: is required',
      );
      expect(errorOf(withKnowledge({ knowledge: [{ title: 'a', text: 'b', url: 'x' }] }))).toBe(
        'widgets[0].knowledge[0].url: is not a known field',
      );
    });

    it('refuses a knowledge URL that is not http(s), and the same URL twice', () => {
      expect(errorOf(withKnowledge({ knowledgeUrls: ['file:///etc/passwd'] }))).toBe(
        'widgets[0].knowledgeUrls[0]: must be an http(s) URL',
      );
      expect(
        errorOf(
          withKnowledge({ knowledgeUrls: ['https://shop.example/help.md', 'https://shop.example/help.md'] }),
        ),
      ).toBe('widgets[0].knowledgeUrls: must not list the same URL twice');
    });

    it('refuses knowledgeUrls when the configured sections already fill the 500', () => {
      expect(
        errorOf(withKnowledge({ knowledge: sections(500), knowledgeUrls: ['https://shop.example/help.md'] })),
      ).toBe(
        "widgets[0].knowledgeUrls: cannot be used: the widget's knowledge already has 500 sections, the most a widget has",
      );
      expect(
        parseConfig(
          withKnowledge({ knowledge: sections(499), knowledgeUrls: ['https://shop.example/help.md'] }),
        ).ok,
      ).toBe(true);
    });
  });

  it('refuses things that are not configs at all', () => {
    for (const raw of [null, 42, 'x', [], { widgets: 'x' }]) expect(typeof errorOf(raw)).toBe('string');
  });
});

describe('parseWidget(): the one validator of the config file and the settings API', () => {
  const widget = (fields: Record<string, unknown>) => ({ id: 'demo', allowedOrigins: ['*'], ...fields });
  const issuesOf = (raw: unknown) => {
    const r = parseWidget(raw);
    if (r.ok) throw new Error('expected the widget to be refused');
    return r.error;
  };
  const orderStatus = (url: string, parameters: unknown[] = [{ name: 'order_id', type: 'string' }]) => ({
    name: 'Order status',
    url,
    parameters,
  });

  it('returns every issue, each at its path within the widget', () => {
    const issues = issuesOf(
      widget({
        themeColor: 'blue',
        limits: { openStreamsPerIp: -1 },
        starters: ['a', 'b', '  '],
        colour: '#fff',
        actions: [orderStatus('https://shop.example/orders/{order_id}'), orderStatus('not a url')],
      }),
    );
    expect([...new Set(issues.map((i) => i.path))].sort()).toEqual(
      ['actions[1].url', 'colour', 'limits.openStreamsPerIp', 'starters[2]', 'themeColor'].sort(),
    );
    expect(issues.find((i) => i.path === 'colour')?.message).toBe('is not a known field');
    expect(issues.find((i) => i.path === 'limits.openStreamsPerIp')?.message).toBe('must be at least 1');
  });

  it('refuses a URL placeholder that names no parameter, at actions[i].url', () => {
    expect(issuesOf(widget({ actions: [orderStatus('https://shop.example/orders/{orderId}')] }))).toEqual([
      {
        path: 'actions[0].url',
        message: '{orderId} is not a parameter of the action (parameters: order_id)',
      },
    ]);
    expect(issuesOf(widget({ actions: [orderStatus('https://shop.example/{a}/{b}', [])] }))).toEqual([
      { path: 'actions[0].url', message: '{a}, {b} are not parameters of the action (parameters: none)' },
    ]);
    const fine = parseWidget(widget({ actions: [orderStatus('https://shop.example/orders/{order_id}')] }));
    expect(fine.ok).toBe(true);
  });

  it('refuses the same placeholder at start, with the config file path', () => {
    const c = { ...base(), widgets: [widget({ actions: [orderStatus('https://shop.example/o/{nope}')] })] };
    expect(errorOf(c)).toBe(
      'widgets[0].actions[0].url: {nope} is not a parameter of the action (parameters: order_id)',
    );
  });

  it('gives the defaults the config file gives', () => {
    const r = parseWidget(widget({}));
    expect(r.ok && r.value).toMatchObject({ title: 'Shopping assistant', limits: { openStreamsPerIp: 20 } });
  });
});
