import type { Strings } from './english';

/** German: a chunk of its own, fetched only for a German shopper (i18n.ts). */
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

export default de;
