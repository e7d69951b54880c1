// The language an answer is written in (DESIGN "The assistant": English and German, the widget's two locales). A
// message plainly in one of them is answered in it, whatever the page's locale: a German shopper on an English store
// page writes German and reads German. A message that says too little to tell ("58213", "ok", "A-1001?") is answered
// in the widget's locale. Counting the common words of each language is enough for this choice between two languages
// on short chat lines, where general detectors (trigram statistics) are unreliable below a sentence. Words that are
// common in both ("was", "will", "in", "an", "hi") count for neither.

export type ReplyLanguage = 'en' | 'de';

const GERMAN = new Set(
  (
    'ich mein meine meinen meiner meinem mir mich du dein deine ihr ihre ihnen sie wir uns ist sind bin war wo wie ' +
    'wann warum wer welche welcher kann können koennen könnt möchte moechte würde wuerde bitte nicht kein ' +
    'keine und oder aber der die das den dem des ein eine einen einem einer mit zu zum zur von vom für fuer auf aus ' +
    'bei nach noch schon mal hallo danke gibt es hat habe haben geht gerne gern bestellung lieferung paket rechnung ' +
    'versand rückgabe rueckgabe zahlung jemand mitarbeiter sprechen stornieren kundenservice wieso weshalb hab ' +
    'ja nein genau klar leider sehr gut'
  ).split(' '),
);
const ENGLISH = new Set(
  (
    'i my me mine you your we our is are am were where how what when why who which can could would do does ' +
    'did please not no and or but the a to of for on with from at it this that there have has want need help ' +
    'hello thanks thank order purchase delivery shipping payment someone agent talk speak cancel track'
  ).split(' '),
);

/** The language of a message, or null when it says too little to tell. */
export function detectLanguage(message: string): ReplyLanguage | null {
  const words = message.toLowerCase().match(/\p{L}+/gu) ?? [];
  let de = /[äöüß]/i.test(message) ? 1 : 0;
  let en = 0;
  for (const w of words) {
    if (GERMAN.has(w)) de++;
    if (ENGLISH.has(w)) en++;
  }
  if (de === en) return null;
  return de > en ? 'de' : 'en';
}

/** The widget's locale as one of the answer languages ("de-AT" → de), or null for any other. */
export function localeLanguage(locale: string | null | undefined): ReplyLanguage | null {
  const base = locale?.toLowerCase().split(/[-_]/)[0];
  return base === 'de' || base === 'en' ? base : null;
}

/**
 * The language to answer `message` in: its own when it is plain; else the language of the shopper's latest earlier
 * message that showed one (`earlier`, oldest first), so a German shopper on an English page who answers "Which
 * order?" with "1001", or "What is your email?" with an address, is still answered in German (issue 31); else the
 * widget's locale; else English.
 */
export function replyLanguage(
  message: string,
  locale?: string | null,
  earlier: readonly string[] = [],
): ReplyLanguage {
  const own = detectLanguage(message);
  if (own) return own;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const before = detectLanguage(earlier[i]!);
    if (before) return before;
  }
  return localeLanguage(locale) ?? 'en';
}

/** The texts of the shopper's messages in a history, oldest first: what `replyLanguage` reads as `earlier`. */
export const shopperTexts = (
  history: readonly { role: string; parts: readonly { type: string; text?: string }[] }[],
): string[] =>
  history
    .filter((m) => m.role === 'user')
    .map((m) => m.parts.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('\n'));
