// The eval's wrapped variant of a shopper's message (issue 19 item 1): the same request with a greeting or filler
// before it, thanks after it, or both, in the message's language, as shoppers write them. The choice is made per
// line from a hash of the seed and the line's text, so a line is wrapped the same way on every run, whatever else is
// run with it (--lang, --limit, --sample), and the baseline stays comparable.

/** Before the request: greetings and filler. None holds a digit or a word of an intent (order, cancel, person). */
export const BEFORE = {
  en: [
    'Hi!',
    'Hello there,',
    'hey',
    'Good morning,',
    'Hi there!',
    'Hello,',
    'hiya',
    'Good evening.',
    'Quick question:',
    'Sorry to bother you,',
    'Hey, hope you are well.',
    'Hi, I have a question.',
  ],
  de: [
    'Hallo,',
    'Guten Tag!',
    'Hi',
    'Moin!',
    'Servus,',
    'Grüezi,',
    'Hallo zusammen,',
    'Guten Morgen,',
    'Hey,',
    'Kurze Frage:',
    'Entschuldigung,',
    'Hallo, ich hätte da eine Frage.',
  ],
};

/** After the request: thanks, sign-offs and filler. */
export const AFTER = {
  en: [
    'thanks',
    'thx!',
    'Thank you!',
    'thanks in advance',
    'cheers',
    'please',
    'ty',
    'thank you so much :)',
    'Thanks for your time.',
    'much appreciated',
  ],
  de: [
    'Danke!',
    'danke',
    'bitte',
    'Vielen Dank!',
    'Danke im Voraus.',
    'dankeschön :)',
    'lg',
    'Gruß',
    'MfG',
    'merci',
  ],
};

export const WRAPS = ['before', 'after', 'both'];

/** FNV-1a, 32 bits: a stable number from a string (its UTF-8 bytes). */
export function hash(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mulberry32: a small seeded generator of numbers in [0, 1), the same on every Node. */
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The wrapped form of `text` in `lang` (`en` or `de`): `wrap` says where the additions went.
 * @example
 * wrapUtterance('where is my order 58213', 'en', 'seed-1');
 * // → { text: 'Hi! where is my order 58213, thx!', wrap: 'both' } (the additions depend on seed and text)
 */
export function wrapUtterance(text, lang, seed) {
  const before = BEFORE[lang];
  const after = AFTER[lang];
  if (!before || !after) throw new Error(`no wrappers for language ${JSON.stringify(lang)}`);
  const random = generator(hash(`${seed}\u0000${text}`));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const wrap = pick(WRAPS);
  let out = text.trim();
  if (wrap === 'before' || wrap === 'both') out = `${pick(before)} ${out}`;
  if (wrap === 'after' || wrap === 'both') {
    // After a sentence's end a space; otherwise what shoppers type: a space, a comma or a full stop.
    const joint = /[.!?]$/.test(out) ? ' ' : pick([' ', ', ', '. ']);
    out = `${out}${joint}${pick(after)}`;
  }
  return { text: out, wrap };
}
