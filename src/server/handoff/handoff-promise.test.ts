// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { BusinessHours } from '../config/service-config';
import { handoffPromise } from './handoff-promise';

// What a shopper who asks for a person is promised (issue 21), at instants written in UTC so that each test states the
// store's wall clock it means. 2026: Europe/Berlin is UTC+1 in winter and UTC+2 from Sunday 29 March 01:00 UTC to
// Sunday 25 October 01:00 UTC; America/Los_Angeles is UTC-8 until 8 March; Asia/Tokyo is UTC+9 all year.

const WEEKDAYS: BusinessHours['hours'][number]['days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const hours = (timeZone: string, ...ranges: BusinessHours['hours']): BusinessHours => ({
  timeZone,
  hours: ranges,
});
const berlin = hours(
  'Europe/Berlin',
  { days: WEEKDAYS, open: '09:00', close: '17:00' },
  { days: ['sat'], open: '10:00', close: '14:00' },
);
const at = (iso: string) => new Date(iso);
const ms = (iso: string, delta: number) => new Date(new Date(iso).getTime() + delta);

const OPEN_EN = /^I've asked a person from our team to join\. They'll answer here shortly/;

describe('handoffPromise(): in hours', () => {
  it('promises an answer shortly when the widget has no businessHours', () => {
    expect(handoffPromise(undefined, 'en', at('2026-01-18T03:00:00Z'))).toEqual({
      open: true,
      opensAt: null,
      text: expect.stringMatching(OPEN_EN),
    });
    expect(handoffPromise(undefined, 'de').text).toMatch(/^Ich habe jemanden aus unserem Team dazugeholt/);
  });

  it("promises nothing shortly when nobody's console is open, in hours or without hours, and says nobody is free", () => {
    const inHours = handoffPromise(berlin, 'en', at('2026-01-12T10:00:00Z'), false);
    expect(inHours).toEqual({
      open: false,
      opensAt: null,
      text: expect.stringMatching(/No one is free right now/),
    });
    expect(handoffPromise(undefined, 'de', undefined, false).text).toMatch(/Gerade ist niemand frei/);
    // Outside the hours the promise is the hours' own, whoever is online: when the team is back.
    const night = handoffPromise(berlin, 'en', at('2026-01-12T20:00:00Z'), true);
    expect(night).toMatchObject({ open: false, opensAt: '2026-01-13T08:00:00.000Z' });
  });

  it('is open from the opening minute on and closed from the closing minute on', () => {
    // Monday 12 January 09:00 and 17:00 in Berlin (UTC+1).
    expect(handoffPromise(berlin, 'en', at('2026-01-12T08:00:00Z')).open).toBe(true);
    expect(handoffPromise(berlin, 'en', ms('2026-01-12T16:00:00Z', -1)).open).toBe(true);
    const before = handoffPromise(berlin, 'en', ms('2026-01-12T08:00:00Z', -1));
    expect(before).toMatchObject({ open: false, opensAt: '2026-01-12T08:00:00.000Z' });
    expect(before.text).toContain('back today at 09:00 (Berlin time)');
    const closing = handoffPromise(berlin, 'en', at('2026-01-12T16:00:00Z'));
    expect(closing).toMatchObject({ open: false, opensAt: '2026-01-13T08:00:00.000Z' });
    expect(closing.text).toContain('back tomorrow at 09:00 (Berlin time)');
  });

  it('says when the team is back after a break between two ranges of one day', () => {
    const split = hours(
      'Europe/Berlin',
      { days: WEEKDAYS, open: '09:00', close: '12:30' },
      { days: WEEKDAYS, open: '13:30', close: '18:00' },
    );
    // Wednesday 14 January, 12:29, 12:30 and 13:30 in Berlin.
    expect(handoffPromise(split, 'en', at('2026-01-14T11:29:00Z')).open).toBe(true);
    const lunch = handoffPromise(split, 'en', at('2026-01-14T11:30:00Z'));
    expect(lunch).toMatchObject({ open: false, opensAt: '2026-01-14T12:30:00.000Z' });
    expect(lunch.text).toContain('back today at 13:30 (Berlin time)');
    expect(handoffPromise(split, 'en', at('2026-01-14T12:30:00Z')).open).toBe(true);
  });
});

describe('handoffPromise(): out of hours', () => {
  it('names the next day the team works, skipping closed days, and says the conversation stays open', () => {
    // Saturday 17 January 15:00 (after Saturday's 14:00) and Sunday 18 January noon in Berlin.
    const saturday = handoffPromise(berlin, 'en', at('2026-01-17T14:00:00Z'));
    expect(saturday).toEqual({
      open: false,
      opensAt: '2026-01-19T08:00:00.000Z',
      text:
        "I've passed your request on to our team. They're away right now and back on Monday at 09:00 (Berlin " +
        "time). This conversation stays open: leave your message here and they'll answer when they're back.",
    });
    expect(handoffPromise(berlin, 'en', at('2026-01-18T11:00:00Z')).text).toContain(
      'back tomorrow at 09:00 (Berlin time)',
    );
    // Friday evening: Saturday has its own hours.
    expect(handoffPromise(berlin, 'en', at('2026-01-16T18:00:00Z')).text).toContain(
      'back tomorrow at 10:00 (Berlin time)',
    );
  });

  it('tells a German shopper in German, with the store’s zone', () => {
    const saturday = handoffPromise(berlin, 'de', at('2026-01-17T14:00:00Z'));
    expect(saturday.text).toBe(
      'Ich habe Ihre Anfrage an unser Team weitergegeben. Es ist gerade nicht erreichbar und am Montag um 09:00 Uhr ' +
        '(Uhrzeit Berlin) wieder da. Das Gespräch bleibt offen: Schreiben Sie Ihr Anliegen gern schon hier, das Team ' +
        'antwortet, sobald es zurück ist.',
    );
    expect(handoffPromise(berlin, 'de', at('2026-01-18T11:00:00Z')).text).toContain(
      'morgen um 09:00 Uhr (Uhrzeit Berlin) wieder da',
    );
    expect(handoffPromise(berlin, 'de', at('2026-01-12T07:00:00Z')).text).toContain(
      'heute um 09:00 Uhr (Uhrzeit Berlin) wieder da',
    );
    expect(handoffPromise(berlin, 'de', at('2026-01-14T11:00:00Z'))).toMatchObject({
      open: true,
      text: expect.stringMatching(/^Ich habe jemanden aus unserem Team dazugeholt/),
    });
  });

  it('gives the date when the team is back on the same weekday a week on', () => {
    const mondays = hours('Europe/Berlin', { days: ['mon'], open: '09:00', close: '17:00' });
    // Monday 12 January 18:00: back Monday 19 January, which "on Monday" would not tell from today.
    const en = handoffPromise(mondays, 'en', at('2026-01-12T17:00:00Z'));
    expect(en.opensAt).toBe('2026-01-19T08:00:00.000Z');
    expect(en.text).toContain('back on Monday 19 January at 09:00 (Berlin time)');
    expect(handoffPromise(mondays, 'de', at('2026-01-12T17:00:00Z')).text).toContain(
      'am Montag, 19. Januar, um 09:00 Uhr (Uhrzeit Berlin) wieder da',
    );
  });

  it('promises an answer as soon as someone is available when the hours list no range', () => {
    const never = hours('Europe/Berlin');
    for (const now of ['2026-01-14T10:00:00Z', '2026-07-01T00:00:00Z']) {
      expect(handoffPromise(never, 'en', at(now))).toEqual({
        open: false,
        opensAt: null,
        text:
          "I've passed your request on to our team. No one is free right now; you'll get an answer here as soon as " +
          'someone is available. This conversation stays open: leave your message here meanwhile.',
      });
    }
    expect(handoffPromise(never, 'de', at('2026-01-14T10:00:00Z')).text).toContain(
      'sobald jemand verfügbar ist. Das Gespräch bleibt offen',
    );
  });
});

describe('handoffPromise(): summer time in Europe/Berlin', () => {
  it('opens at 09:00 summer time on the Monday after the clocks go forward (07:00 UTC, not 08:00)', () => {
    // Friday 27 March 18:00 CET; the clocks go forward on Sunday 29 March.
    const friday = handoffPromise(berlin, 'en', at('2026-03-27T17:00:00Z'));
    expect(friday.opensAt).toBe('2026-03-28T09:00:00.000Z');
    const saturday = handoffPromise(berlin, 'en', at('2026-03-28T14:00:00Z'));
    expect(saturday.opensAt).toBe('2026-03-30T07:00:00.000Z');
    expect(saturday.text).toContain('back on Monday at 09:00 (Berlin time)');
    // Monday 30 March 08:30 CEST is 06:30 UTC: closed, though 06:30 UTC was 07:30 on the Friday before.
    expect(handoffPromise(berlin, 'en', at('2026-03-30T06:30:00Z')).open).toBe(false);
    expect(handoffPromise(berlin, 'en', at('2026-03-30T07:00:00Z')).open).toBe(true);
  });

  it('opens at 09:00 winter time on the Monday after the clocks go back (08:00 UTC)', () => {
    // Saturday 24 October 15:00 CEST; the clocks go back on Sunday 25 October.
    const saturday = handoffPromise(berlin, 'en', at('2026-10-24T13:00:00Z'));
    expect(saturday.opensAt).toBe('2026-10-26T08:00:00.000Z');
    expect(saturday.text).toContain('back on Monday at 09:00 (Berlin time)');
    expect(handoffPromise(berlin, 'en', at('2026-10-26T07:30:00Z')).open).toBe(false);
  });

  it('keeps a night range open through both 02:30s of the night the clocks go back', () => {
    const nights = hours('Europe/Berlin', { days: ['sat'], open: '22:00', close: '03:00' });
    expect(handoffPromise(nights, 'en', at('2026-10-25T00:30:00Z')).open).toBe(true); // 02:30 CEST
    expect(handoffPromise(nights, 'en', at('2026-10-25T01:30:00Z')).open).toBe(true); // 02:30 CET
    const after = handoffPromise(nights, 'en', at('2026-10-25T02:00:00Z')); // 03:00 CET
    expect(after).toMatchObject({ open: false, opensAt: '2026-10-31T21:00:00.000Z' });
    expect(after.text).toContain('back on Saturday at 22:00 (Berlin time)');
  });

  it('opens a range that starts in the skipped hour when the clock jumps past its start', () => {
    const early = hours('Europe/Berlin', { days: ['sun'], open: '02:30', close: '05:00' });
    // Sunday 29 March 01:30 CET; the clock jumps from 02:00 CET to 03:00 CEST at 01:00 UTC.
    const before = handoffPromise(early, 'en', at('2026-03-29T00:30:00Z'));
    expect(before.opensAt).toBe('2026-03-29T01:00:00.000Z');
    expect(before.text).toContain('back today at 03:00 (Berlin time)');
    expect(handoffPromise(early, 'en', at('2026-03-29T01:00:00Z')).open).toBe(true);
  });
});

describe('handoffPromise(): zones far from UTC', () => {
  it('counts "tomorrow" on the store’s calendar in Los Angeles, where it is still Monday when UTC is on Tuesday', () => {
    const la = hours('America/Los_Angeles', { days: WEEKDAYS, open: '09:00', close: '17:00' });
    // Monday 12 January 12:00 PST.
    expect(handoffPromise(la, 'en', at('2026-01-12T20:00:00Z')).open).toBe(true);
    // Monday 18:00 PST = Tuesday 02:00 UTC.
    const evening = handoffPromise(la, 'en', at('2026-01-13T02:00:00Z'));
    expect(evening).toMatchObject({ open: false, opensAt: '2026-01-13T17:00:00.000Z' });
    expect(evening.text).toContain('back tomorrow at 09:00 (Los Angeles time)');
    // Friday 6 March 18:00 PST; the clocks go forward on Sunday 8 March: Monday 09:00 PDT is 16:00 UTC.
    expect(handoffPromise(la, 'en', at('2026-03-07T02:00:00Z')).opensAt).toBe('2026-03-09T16:00:00.000Z');
  });

  it('counts "today" on the store’s calendar in Tokyo, where it is Monday morning when UTC is on Sunday', () => {
    const tokyo = hours('Asia/Tokyo', { days: WEEKDAYS, open: '09:00', close: '18:00' });
    // Sunday 18 January 23:59 UTC = Monday 08:59 JST.
    const early = handoffPromise(tokyo, 'en', at('2026-01-18T23:59:00Z'));
    expect(early).toMatchObject({ open: false, opensAt: '2026-01-19T00:00:00.000Z' });
    expect(early.text).toContain('back today at 09:00 (Tokyo time)');
    // Friday 16 January 18:30 JST.
    expect(handoffPromise(tokyo, 'de', at('2026-01-16T09:30:00Z')).text).toContain(
      'am Montag um 09:00 Uhr (Uhrzeit Tokyo) wieder da',
    );
  });

  it('names the zone as a reader of the language knows it, or by its offset when it has no city', () => {
    const in_ = (timeZone: string) => hours(timeZone, { days: ['mon'], open: '09:00', close: '17:00' });
    const saturday = at('2026-01-17T12:00:00Z');
    expect(handoffPromise(in_('Europe/Vienna'), 'en', saturday).text).toContain('(Vienna time)');
    expect(handoffPromise(in_('Europe/Vienna'), 'de', saturday).text).toContain('(Uhrzeit Wien)');
    expect(handoffPromise(in_('europe/zurich'), 'de', saturday).text).toContain('(Uhrzeit Zürich)');
    expect(handoffPromise(in_('America/Argentina/Buenos_Aires'), 'en', saturday).text).toContain(
      '(Buenos Aires time)',
    );
    expect(handoffPromise(in_('UTC'), 'en', saturday).text).toContain('back on Monday at 09:00 (UTC time)');
    expect(handoffPromise(in_('Etc/GMT-2'), 'de', saturday).text).toContain('(Uhrzeit UTC+2)');
  });

  it('does not depend on the zone the service runs in', () => {
    const saved = process.env.TZ;
    const now = at('2026-01-17T14:00:00Z');
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      // The precondition that makes this test able to fail: the process's own clock moved 14 hours.
      expect(now.getTimezoneOffset()).toBe(-14 * 60);
      const far = handoffPromise(berlin, 'en', now);
      process.env.TZ = 'UTC';
      expect(handoffPromise(berlin, 'en', now)).toEqual(far);
      expect(far.text).toContain('back on Monday at 09:00 (Berlin time)');
    } finally {
      process.env.TZ = saved;
      if (saved === undefined) delete process.env.TZ;
    }
  });
});
