import type { ReplyLanguage } from '../engine/reply-language';

// What the service promises a shopper who asked for a person (DESIGN "Human handoff"): one text for every way of
// asking (in words through an engine, the panel menu, `Service.requestHuman()`), so the engines never invent hours.
// Issue 21 (engine side) adds the widget config `businessHours` with a time zone; until then every widget is "open".

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
export function handoffPromise(language: ReplyLanguage, _now: Date = new Date()): HandoffPromise {
  return { open: true, opensAt: null, text: OPEN_TEXT[language] };
}
