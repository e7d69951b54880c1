const en = {
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

export type Strings = typeof en;

const de: Strings = {
  lang: 'de',
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  title: 'Einkaufsassistent',
  greeting: 'Hallo! Wie kann ich Ihnen heute helfen?',
  offline:
    'Der Assistent ist gerade nicht erreichbar. Ihre Nachrichten werden gesendet, sobald er wieder da ist.',
  conversation: 'Unterhaltung',
  inputLabel: 'Nachricht',
  placeholder: 'Stellen Sie eine Frage…',
  send: 'Senden',
  pending: 'Wird gesendet…',
  reconnecting: 'Verbinde neu…',
  typing: 'Der Assistent schreibt',
  busy: 'Ich sehe nach…',
  failed: 'Die Antwort brach ab.',
  refused: 'Nicht gesendet.',
  limited: 'Gerade zu viele Nachrichten. Bitte gleich erneut senden.',
  sendAgain: 'Erneut senden',
  retry: 'Erneut versuchen',
  unread: 'neue Antworten',
  yes: 'Ja',
  no: 'Nein',
  choices: 'Antwortvorschläge',
  starters: 'Vorgeschlagene Fragen',
  dismiss: 'Ausblenden',
};

const STRINGS = new Map<string, Strings>([
  ['en', en],
  ['de', de],
]);

/** UI strings for `locale` (settings), else the browser's language, else English. */
export function pickStrings(locale?: string): Strings {
  const tag = locale ?? (typeof navigator === 'undefined' ? '' : navigator.language);
  const language = (tag || '').toLowerCase().split(/[-_]/)[0] ?? '';
  return STRINGS.get(language) ?? en;
}
