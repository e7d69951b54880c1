import { logError } from './log';

/**
 * The widget's own words in English: always in the first chunk, the fallback for every other language. Each other
 * language is a chunk of its own (`locales/<lang>.ts`), fetched while the config request is out ({@link loadStrings}),
 * so a shopper downloads one language, not all of them.
 */
const english = {
  lang: 'en',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  title: 'Shopping assistant',
  greeting: 'Hi! How can I help you today?',
  offline: 'The assistant cannot be reached right now. Messages you write are sent when it is back.',
  conversation: 'Conversation',
  inputLabel: 'Message',
  placeholder: 'Ask a question…',
  send: 'Send',
  pending: 'Sending…',
  reconnecting: 'Reconnecting…',
  typing: 'Assistant is typing',
  busy: 'Looking that up…',
  failed: 'The answer broke off.',
  refused: 'Not sent.',
  limited: 'Too many messages just now. Send it again in a moment.',
  sendAgain: 'Send again',
  retry: 'Retry',
  unread: 'new answers',
  // A `confirm` part's buttons, and the shopper's answer as their message: needed before its chunk loads.
  yes: 'Yes',
  no: 'No',
  choices: 'Suggested answers',
  starters: 'Suggested questions',
  dismiss: 'Dismiss',
};

export type Strings = typeof english & {
  /** Right-to-left languages say so: the chat mirrors (App's root `dir`); absent, it is left to right. */
  dir?: 'rtl';
};

export const en: Strings = english;

/**
 * Every language besides English, each a chunk of its own. A language added here is added to the parts' own tables
 * too (`LIST_NAME` and `CART_TEXT` in parts/product-cards.tsx, `STRINGS` in parts/order-card.tsx, `HANDOFF_STRINGS`
 * in chat/handoff-strings.ts).
 */
export const LOCALES: Record<string, () => Promise<{ default: Strings }>> = {
  ar: () => import('./locales/ar'),
  de: () => import('./locales/de'),
  he: () => import('./locales/he'),
};

/** The language subtag of `locale`, else of the browser's language, lower case: `de-AT` → `de`. */
export function languageOf(locale?: string): string {
  const tag = locale ?? (typeof navigator === 'undefined' ? '' : navigator.language);
  return (tag || '').toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * UI strings for `locale` (settings), else the browser's language, else English. English resolves at once; another
 * language fetches its chunk. Never rejects: a chunk that fails to load (the network) gives English, and one
 * `[service]` error.
 *
 * @example
 * const strings = await loadStrings('ar-EG'); // strings.lang === 'ar', strings.dir === 'rtl'
 */
export async function loadStrings(locale?: string, locales = LOCALES): Promise<Strings> {
  const language = languageOf(locale);
  // An own key only: `constructor` or `__proto__` as a locale is English, not Object's prototype.
  const load = Object.hasOwn(locales, language) ? locales[language] : undefined;
  if (!load) return en;
  try {
    return (await load()).default;
  } catch (error) {
    logError(`could not load the ${language} strings: English shown`, error);
    return en;
  }
}
