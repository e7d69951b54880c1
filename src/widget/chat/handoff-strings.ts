/**
 * The words of the handoff menu, the mode's status line and the thumbs, in every language of the widget (i18n.ts
 * `LOCALES`), keyed by `Strings.lang`. They come with the conversation's chunk, as the parts' own tables come with
 * theirs: the launcher's and the chat's chunks, counted until the chat opens (scripts/size.mjs), carry none of them.
 */
export interface HandoffStrings {
  moreOptions: string;
  talkToPerson: string;
  waiting: string;
  /** `{name}`: the agent's name. */
  chattingWith: string;
  /** Handed back: the assistant answers again (until the shopper writes). */
  backWithAssistant: string;
  helpful: string;
  notHelpful: string;
}

export const HANDOFF_STRINGS: Readonly<Record<string, HandoffStrings>> = {
  en: {
    moreOptions: 'More options',
    talkToPerson: 'Talk to a person',
    waiting: 'Waiting for a person…',
    chattingWith: 'You’re chatting with {name}',
    backWithAssistant: 'You’re back with the assistant',
    helpful: 'Helpful',
    notHelpful: 'Not helpful',
  },
  de: {
    moreOptions: 'Weitere Optionen',
    talkToPerson: 'Mit einem Menschen sprechen',
    waiting: 'Warten auf einen Menschen…',
    chattingWith: 'Sie schreiben mit {name}',
    backWithAssistant: 'Sie schreiben wieder mit dem Assistenten',
    helpful: 'Hilfreich',
    notHelpful: 'Nicht hilfreich',
  },
  ar: {
    moreOptions: 'خيارات أخرى',
    talkToPerson: 'التحدث إلى شخص',
    waiting: 'في انتظار شخص…',
    chattingWith: 'المحادثة مع {name}',
    backWithAssistant: 'عدت إلى المساعد',
    helpful: 'مفيد',
    notHelpful: 'غير مفيد',
  },
  he: {
    moreOptions: 'אפשרויות נוספות',
    talkToPerson: 'לדבר עם נציג',
    waiting: 'ממתינים לנציג…',
    chattingWith: 'בשיחה עם {name}',
    backWithAssistant: 'חזרת לעוזר',
    helpful: 'מועיל',
    notHelpful: 'לא מועיל',
  },
};

/** The table for `lang`, English for a language it lacks. */
export const handoffStrings = (lang: string): HandoffStrings =>
  (Object.hasOwn(HANDOFF_STRINGS, lang) && HANDOFF_STRINGS[lang]) || (HANDOFF_STRINGS.en as HandoffStrings);
