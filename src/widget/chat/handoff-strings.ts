/**
 * The words of the conversation's chunk (the panel's menu, the mode's status line, the thumbs, the address field, the
 * list of a customer's conversations). English here, with that chunk: the launcher's and the chat's chunks, counted
 * until the chat opens (scripts/size.mjs), carry none of them. Every other language keeps its table in its own locale
 * chunk (`chat` in locales/<tag>.ts), which a shopper in that language fetches as the widget boots: a shopper loads
 * the words of one language, and everything the widget can load stays within its 40 KB as the chat gains words
 * (four languages' tables here cost 1.2 KB brotli of it).
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
  /** Issue 33: a signed-in customer's conversations on any device (the panel's menu, and the list's title). */
  earlier: string;
  backToChat: string;
  noEarlier: string;
  startNew: string;
  /** Before the shopper's own last message in the list. */
  you: string;
  /** Issue 34: the rating a person's help is asked for after a hand-back or a close (rating-card.tsx). */
  rateQuestion: string;
  rateComment: string;
  rateThanks: string;
  /** Issue 34: `{name}`: the agent who is typing. */
  typing: string;
}

export const HANDOFF_ENGLISH: HandoffStrings = {
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
  earlier: 'Your conversations',
  backToChat: 'Back to the chat',
  noEarlier: 'No earlier conversations yet.',
  startNew: 'Start a new conversation',
  you: 'You',
  rateQuestion: 'How did we do?',
  rateComment: 'Anything to add? (optional)',
  rateThanks: 'Thank you for your rating.',
  typing: '{name} is typing…',
};

/** The words in the shopper's language: its locale's `chat` table (`Strings.chat`), English for a locale without one. */
export const handoffStrings = (chat: HandoffStrings | undefined): HandoffStrings => chat ?? HANDOFF_ENGLISH;
