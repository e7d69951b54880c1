import type { HandoffStrings } from '../chat/handoff-strings';
import type { OrderCardStrings } from '../parts/order-card-strings';
import type { ProductCardStrings } from '../parts/product-card-strings';

/**
 * The widget's own words in English: always in the first chunk, the fallback for every other language. Each other
 * language is a chunk of its own (`locales/<lang>.ts`), fetched while the config request is out (i18n.ts `loadStrings`),
 * so a shopper downloads one language, not all of them.
 */
export const english = {
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
  /**
   * The conversation chunk's words in this language (chat/handoff-strings.ts); English keeps its own with that chunk,
   * so the first chunk carries none of them.
   */
  chat?: HandoffStrings;
  /** The cards' words in this language (parts/product-card-strings.ts, parts/order-card-strings.ts), likewise. */
  productCards?: ProductCardStrings;
  orderCard?: OrderCardStrings;
};
