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
  /** Issue 33: the offer to leave an address when nobody is at work. */
  contactLabel: string;
  contactSend: string;
  contactLater: string;
  /** The store's privacy line under the field. */
  contactNote: string;
  privacyPolicy: string;
  /** `{email}`: the address left. */
  contactSent: string;
  contactInvalid: string;
  contactFailed: string;
  /** Issue 33: "Email me this conversation" (the panel's menu), its field and what it says once sent. */
  emailTranscript: string;
  transcriptLabel: string;
  transcriptNote: string;
  /** `{email}`: where it went. */
  transcriptSent: string;
  cancel: string;
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
    contactLabel: 'Get the reply by email',
    contactSend: 'Send',
    contactLater: 'No thanks',
    contactNote: 'Optional. We use your address only to send you the reply to this conversation.',
    privacyPolicy: 'Privacy policy',
    contactSent: 'We’ll email the reply to {email}.',
    contactInvalid: 'Please enter an email address like name@example.com.',
    contactFailed: 'That didn’t work. Please try again in a moment.',
    emailTranscript: 'Email me this conversation',
    transcriptLabel: 'Email this conversation to',
    transcriptNote: 'We use your address only to send you this conversation.',
    transcriptSent: 'We’ve emailed this conversation to {email}.',
    cancel: 'Cancel',
  },
  de: {
    moreOptions: 'Weitere Optionen',
    talkToPerson: 'Mit einem Menschen sprechen',
    waiting: 'Warten auf einen Menschen…',
    chattingWith: 'Sie schreiben mit {name}',
    backWithAssistant: 'Sie schreiben wieder mit dem Assistenten',
    helpful: 'Hilfreich',
    notHelpful: 'Nicht hilfreich',
    contactLabel: 'Antwort per E-Mail erhalten',
    contactSend: 'Senden',
    contactLater: 'Nein danke',
    contactNote:
      'Freiwillig. Wir nutzen Ihre Adresse nur, um Ihnen die Antwort auf dieses Gespräch zu senden.',
    privacyPolicy: 'Datenschutzerklärung',
    contactSent: 'Wir senden die Antwort an {email}.',
    contactInvalid: 'Bitte geben Sie eine E-Mail-Adresse wie name@example.com ein.',
    contactFailed: 'Das hat nicht geklappt. Bitte versuchen Sie es gleich noch einmal.',
    emailTranscript: 'Gespräch per E-Mail senden',
    transcriptLabel: 'Dieses Gespräch senden an',
    transcriptNote: 'Wir nutzen Ihre Adresse nur, um Ihnen dieses Gespräch zu senden.',
    transcriptSent: 'Wir haben das Gespräch an {email} gesendet.',
    cancel: 'Abbrechen',
  },
  ar: {
    moreOptions: 'خيارات أخرى',
    talkToPerson: 'التحدث إلى شخص',
    waiting: 'في انتظار شخص…',
    chattingWith: 'المحادثة مع {name}',
    backWithAssistant: 'عدت إلى المساعد',
    helpful: 'مفيد',
    notHelpful: 'غير مفيد',
    contactLabel: 'احصل على الرد بالبريد الإلكتروني',
    contactSend: 'إرسال',
    contactLater: 'لا، شكرًا',
    contactNote: 'اختياري. نستخدم عنوانك فقط لإرسال الرد على هذه المحادثة.',
    privacyPolicy: 'سياسة الخصوصية',
    contactSent: 'سنرسل الرد إلى {email}.',
    contactInvalid: 'يرجى إدخال عنوان بريد إلكتروني مثل name@example.com.',
    contactFailed: 'لم ينجح ذلك. يرجى المحاولة مرة أخرى بعد قليل.',
    emailTranscript: 'أرسل لي هذه المحادثة بالبريد',
    transcriptLabel: 'أرسل هذه المحادثة إلى',
    transcriptNote: 'نستخدم عنوانك فقط لإرسال هذه المحادثة إليك.',
    transcriptSent: 'أرسلنا هذه المحادثة إلى {email}.',
    cancel: 'إلغاء',
  },
  he: {
    moreOptions: 'אפשרויות נוספות',
    talkToPerson: 'לדבר עם נציג',
    waiting: 'ממתינים לנציג…',
    chattingWith: 'בשיחה עם {name}',
    backWithAssistant: 'חזרת לעוזר',
    helpful: 'מועיל',
    notHelpful: 'לא מועיל',
    contactLabel: 'לקבל את התשובה במייל',
    contactSend: 'שליחה',
    contactLater: 'לא תודה',
    contactNote: 'לא חובה. נשתמש בכתובת רק כדי לשלוח לך את התשובה לשיחה הזו.',
    privacyPolicy: 'מדיניות פרטיות',
    contactSent: 'נשלח את התשובה אל {email}.',
    contactInvalid: 'יש להזין כתובת מייל כמו name@example.com.',
    contactFailed: 'זה לא הצליח. אפשר לנסות שוב בעוד רגע.',
    emailTranscript: 'לשלוח לי את השיחה במייל',
    transcriptLabel: 'לשלוח את השיחה אל',
    transcriptNote: 'נשתמש בכתובת רק כדי לשלוח לך את השיחה הזו.',
    transcriptSent: 'שלחנו את השיחה אל {email}.',
    cancel: 'ביטול',
  },
};

/** The table for `lang`, English for a language it lacks. */
export const handoffStrings = (lang: string): HandoffStrings =>
  (Object.hasOwn(HANDOFF_STRINGS, lang) && HANDOFF_STRINGS[lang]) || (HANDOFF_STRINGS.en as HandoffStrings);
