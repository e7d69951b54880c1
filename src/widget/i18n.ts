const en = {
  lang: 'en',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  title: 'Shopping assistant',
  greeting: 'Hi! How can I help you today?',
  offline: 'The assistant is offline right now. Please try again later.',
  conversation: 'Conversation',
  inputLabel: 'Message',
  placeholder: 'Ask a question…',
  send: 'Send',
  pending: 'Sending…',
};

export type Strings = typeof en;

const de: Strings = {
  lang: 'de',
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  title: 'Einkaufsassistent',
  greeting: 'Hallo! Wie kann ich Ihnen heute helfen?',
  offline: 'Der Assistent ist gerade nicht erreichbar. Bitte versuchen Sie es später noch einmal.',
  conversation: 'Unterhaltung',
  inputLabel: 'Nachricht',
  placeholder: 'Stellen Sie eine Frage…',
  send: 'Senden',
  pending: 'Wird gesendet…',
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
