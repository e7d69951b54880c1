import type { Strings } from './english';

/**
 * Hebrew, right to left: a chunk of its own, fetched only for a Hebrew-speaking shopper (i18n.ts). The shopper is
 * addressed in the plural imperative, as Hebrew interfaces do to address everyone alike.
 */
const he: Strings = {
  lang: 'he',
  dir: 'rtl',
  openChat: "פתיחת הצ'אט",
  closeChat: "סגירת הצ'אט",
  title: 'עוזר קניות',
  greeting: 'שלום! איך אפשר לעזור היום?',
  offline: 'אי אפשר להתחבר לעוזר כרגע. הודעות שתכתבו יישלחו כשהוא יחזור.',
  conversation: 'שיחה',
  inputLabel: 'הודעה',
  placeholder: 'שאלו שאלה…',
  send: 'שליחה',
  pending: 'בשליחה…',
  reconnecting: 'מתחבר מחדש…',
  typing: 'העוזר מקליד',
  busy: 'בודק את זה…',
  failed: 'התשובה נקטעה.',
  refused: 'לא נשלחה.',
  limited: 'יותר מדי הודעות ברגע זה. נסו לשלוח שוב בעוד רגע.',
  sendAgain: 'שליחה חוזרת',
  retry: 'ניסיון נוסף',
  unread: 'תשובות חדשות',
  yes: 'כן',
  no: 'לא',
  choices: 'תשובות מוצעות',
  starters: 'שאלות מוצעות',
  dismiss: 'הסתרה',
};

export default he;
