import type { BusinessHours } from '../config';
import type { ReplyLanguage } from '../engine/reply-language';

// What the service promises a shopper who asked for a person (DESIGN "Human handoff"): one text for every way of
// asking (in words through an engine, the panel menu, `Service.requestHuman()`), so the engines never invent hours.
// Issue 21 (assistant side) reads the widget config `businessHours` here; until it lands every widget is "open".

export interface HandoffPromise {
  /** Someone is at work now (inside `businessHours`, or the widget has none). */
  open: boolean;
  /** ISO 8601: when the team is back, when not `open`; null when `open`. */
  opensAt: string | null;
  /** What the shopper reads, in `language`. */
  text: string;
}

const OPEN_TEXT: Record<ReplyLanguage, string> = {
  en: "I've asked a person from our team to join. They'll answer here shortly; you can keep writing meanwhile.",
  de: 'Ich habe jemanden aus unserem Team dazugeholt. Sie bekommen hier gleich eine Antwort; schreiben Sie gern weiter.',
};

/** The promise for a request made `now`. */
export function handoffPromise(
  _hours: BusinessHours | undefined,
  language: ReplyLanguage,
  _now: Date = new Date(),
): HandoffPromise {
  return { open: true, opensAt: null, text: OPEN_TEXT[language] };
}
