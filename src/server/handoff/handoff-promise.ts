import type { BusinessHours, WidgetSettings } from '../config/service-config';
import type { ReplyLanguage } from '../core/reply-language';
import { daysBetween, isOpenAt, nextOpening } from './business-hours';

// What the service promises a shopper who asked for a person (DESIGN "Human handoff"): one text for every way of
// asking (in words through an engine, the panel menu, `Service.requestHuman()`), so the engines never invent hours.
// The widget config `businessHours` decides it (business-hours.ts): inside them someone answers shortly; outside them
// the text says when the team is back, on the store's clock and naming its zone, since the shopper may be elsewhere;
// with no ranges at all, whenever someone is available. Inside them (or without hours) with nobody's console open
// (agent-presence.ts), nobody answers shortly either: the text says so, as it does without ranges. The conversation
// waits either way, and says so.

export interface HandoffPromise {
  /** Someone is at work now: inside `businessHours` (or the widget has none), with someone's console open. */
  open: boolean;
  /**
   * ISO 8601 (UTC): when the team is back, when not `open`; null when `open`, and when `businessHours` has no ranges
   * (there is no time to promise).
   */
  opensAt: string | null;
  /** What the shopper reads, in `language`. */
  text: string;
}

const OPEN_TEXT: Record<ReplyLanguage, string> = {
  en: "I've asked a person from our team to join. They'll answer here shortly; you can keep writing meanwhile.",
  de: 'Ich habe jemanden aus unserem Team dazugeholt. Sie bekommen hier gleich eine Antwort; schreiben Sie gern weiter.',
};

const BACK_TEXT: Record<ReplyLanguage, (when: string, zone: string) => string> = {
  en: (when, zone) =>
    `I've passed your request on to our team. They're away right now and back ${when} (${zone} time). ` +
    "This conversation stays open: leave your message here and they'll answer when they're back.",
  de: (when, zone) =>
    `Ich habe Ihre Anfrage an unser Team weitergegeben. Es ist gerade nicht erreichbar und ${when} (Uhrzeit ${zone}) ` +
    'wieder da. Das Gespräch bleibt offen: Schreiben Sie Ihr Anliegen gern schon hier, das Team antwortet, sobald es ' +
    'zurück ist.',
};

const UNAVAILABLE_TEXT: Record<ReplyLanguage, string> = {
  en:
    "I've passed your request on to our team. No one is free right now; you'll get an answer here as soon as " +
    'someone is available. This conversation stays open: leave your message here meanwhile.',
  de:
    'Ich habe Ihre Anfrage an unser Team weitergegeben. Gerade ist niemand frei; Sie bekommen hier eine Antwort, ' +
    'sobald jemand verfügbar ist. Das Gespräch bleibt offen: Schreiben Sie Ihr Anliegen gern schon hier.',
};

/**
 * The promise for a request made `now`.
 *
 * @example
 * handoffPromise({ timeZone: 'Europe/Berlin', hours: [{ days: ['mon', 'tue'], open: '09:00', close: '17:00' }] },
 *   'en', new Date('2026-03-27T19:00:00Z'));
 * // → { open: false, opensAt: '2026-03-30T07:00:00.000Z', text: "… back on Monday at 09:00 (Berlin time). …" }
 */
export function handoffPromise(
  hours: BusinessHours | undefined,
  language: ReplyLanguage,
  now: Date = new Date(),
  isAnyoneOnline = true,
): HandoffPromise {
  const instant = now.getTime();
  if (!hours || isOpenAt(hours, instant))
    return isAnyoneOnline
      ? { open: true, opensAt: null, text: OPEN_TEXT[language] }
      : { open: false, opensAt: null, text: UNAVAILABLE_TEXT[language] };
  const opens = nextOpening(hours, instant);
  if (opens === null) return { open: false, opensAt: null, text: UNAVAILABLE_TEXT[language] };
  return {
    open: false,
    opensAt: new Date(opens).toISOString(),
    text: BACK_TEXT[language](
      whenBack(instant, opens, hours.timeZone, language),
      zoneName(hours.timeZone, opens, language),
    ),
  };
}

/**
 * What the promise is now for a widget's shopper: `handoffPromise` with the widget's hours and whether anyone's console
 * is open (agent-presence.ts). One composition for every way of asking (the route, the engine's tool).
 */
export type HandoffPromiseNow = (
  widget: Pick<WidgetSettings, 'businessHours'> | undefined,
  language: ReplyLanguage,
) => Promise<HandoffPromise>;

export const handoffPromiseNow =
  (isAnyoneOnline: () => Promise<boolean>): HandoffPromiseNow =>
  async (widget, language) =>
    handoffPromise(widget?.businessHours, language, new Date(), await isAnyoneOnline());

/** "tomorrow at 09:00", "on Monday at 09:00", "am Montag, 6. April, um 09:00 Uhr": as a person says it. */
function whenBack(now: number, opens: number, timeZone: string, language: ReplyLanguage): string {
  const locale = language === 'en' ? 'en-GB' : 'de-DE';
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(opens);
  const time = format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const days = daysBetween(now, opens, timeZone);
  // A week on is the same weekday as today: its date tells it from today.
  const day =
    days >= 7 ? format({ weekday: 'long', day: 'numeric', month: 'long' }) : format({ weekday: 'long' });
  if (language === 'de') {
    const at = `um ${time} Uhr`;
    if (days === 0) return `heute ${at}`;
    if (days === 1) return `morgen ${at}`;
    return days >= 7 ? `am ${day}, ${at}` : `am ${day} ${at}`;
  }
  if (days === 0) return `today at ${time}`;
  if (days === 1) return `tomorrow at ${time}`;
  return `on ${day} at ${time}`;
}

/** German names of European zone cities whose IANA (English) names a German reader would not write. */
const GERMAN_CITIES: Record<string, string> = {
  Athens: 'Athen',
  Belgrade: 'Belgrad',
  Brussels: 'Brüssel',
  Bucharest: 'Bukarest',
  Busingen: 'Büsingen',
  Copenhagen: 'Kopenhagen',
  Lisbon: 'Lissabon',
  Luxembourg: 'Luxemburg',
  Moscow: 'Moskau',
  Prague: 'Prag',
  Rome: 'Rom',
  Vienna: 'Wien',
  Warsaw: 'Warschau',
  Zurich: 'Zürich',
};

/**
 * The zone as a shopper elsewhere understands it: its city ("Berlin", "Los Angeles"), or for a zone without one
 * ("UTC", "Etc/GMT-2") its offset from UTC at the opening ("UTC", "UTC+2").
 */
function zoneName(timeZone: string, at: number, language: ReplyLanguage): string {
  // The config's spelling, unless Intl knows it in other letter case ("europe/berlin").
  const resolved = new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
  const zone = resolved.toLowerCase() === timeZone.toLowerCase() ? resolved : timeZone;
  const city = zone.includes('/') && !zone.startsWith('Etc/') ? zone.slice(zone.lastIndexOf('/') + 1) : null;
  if (city) return (language === 'de' && GERMAN_CITIES[city]) || city.replaceAll('_', ' ');
  const offset =
    new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return offset.replace('GMT', 'UTC').replace(/^UTC[+-]0(?::00)?$/, 'UTC');
}
