import { wordMemo } from '../../core/word-memo';
import { orderNumbers } from './order-numbers';
import { has, type ShopperWord, shopperWords } from './shopper-words';

// What the shopper asks for, read from the concepts of their words (lexicon.ts) rather than from phrasings, so that
// greetings, thanks, filler, typos and word order around a request never hide it: "Hi! Where is my order 58213?",
// "hey can u check purchase #58213 status thx", "Hallo, wo bleibt meine Bestellung Nr. 58213? Danke".

export type ShopperRequest =
  /** A person: "I want to talk to a human", "Kann ich mit einem Mitarbeiter sprechen?". */
  | { kind: 'person' }
  /** Calling an order off: "cancel order 1004", "I don't want order #27010", "Bestellung 1004 stornieren". */
  | { kind: 'cancel-order'; orderNumbers: string[] }
  /**
   * Where an order is: "where is my order 58213", "track purchase #58213". `whenOnly`: the shopper asks when orders
   * arrive in general ("how long until my order arrives?") without naming one. `asksWhere`: a word asks where or when;
   * without one ("order 58213", "return an item from order 1003") another action of the store may fit better.
   */
  | { kind: 'order-status'; orderNumbers: string[]; whenOnly: boolean; asksWhere: boolean }
  /** Nothing but a greeting or thanks ("Hi!", "thanks a lot", "Guten Tag"). */
  | { kind: 'greeting'; thanksOnly: boolean }
  /** Anything else: a store question, a product search, an action of the store's own. */
  | { kind: 'other' };

const NOT_WANT =
  /(?:\b(?:don'?t|do not|dont|no longer|not|won'?t|wont|will not)\s+(?:want|need)\b|\bchanged my mind\b|\bforget (?:about )?(?:it|my|the|this|that|order)\b|(?<!\p{L})(?:nicht mehr|doch nicht|nimmer|kann weg|hat sich erledigt)(?!\p{L}))/iu;
/**
 * "Don't ship 40055", "bitte nicht liefern", "schick 26694 bitte nicht los": not sending it is calling it off. Only
 * the imperative: "why didn't you ship it" and "noch nicht verschickt" ask where it is.
 */
const DO_NOT_SEND =
  /(?:\b(?:don'?t|dont|do not|please don'?t|pls don'?t|never)\s+(?:send|ship|deliver|dispatch|mail)\b|(?<!noch\s)\bnicht\s+(?:mehr\s+)?(?:verschicken|versenden|senden|schicken|liefern|losschicken|abschicken|rausschicken|ausliefern)(?!\p{L})|\bschick\w*\s+(?:\S+\s+){0,3}?nicht\s+(?:los|ab|raus)(?!\p{L}))/iu;
const CANNOT_PAY =
  /(?:\b(?:can'?t|cannot|can not|unable to)\s+(?:pay|afford)\b|\bkann\b.*\bnicht\b.*\b(?:be)?zahlen\b|\bnicht leisten\b)/iu;

/** What else a message may be about; a person named beside none of these is asked for. */
const TOPICS = [
  'order',
  'status',
  'arrival',
  'cancel',
  'invoice',
  'subscription',
  'account',
  'feedback',
  'store',
  'product',
] as const;

/** "call off my order": the phrasal verb, whose "call" alone is a way to reach someone. */
const CALL_OFF = /\bcall(?:s|ed|ing)?\s+(?:\S+\s+){0,3}?off\b/iu;

/** A call back is asked of a person: "call me back", "Rückruf bitte", "können Sie mich zurückrufen", "ruf mich zurück". */
const CALL_BACK =
  /(?:\bcall\s+(?:me\s+)?back\b|\bcallback\b|(?<!\p{L})(?:zurückruf|zurueckruf|rückruf|rueckruf)\w*|\bruf\w*\s+(?:\S+\s+){0,4}?(?:zurück|zurueck)(?!\p{L}))/iu;

const CUSTOMER_SERVICE = /\bcustomer\s+(?:service|support|care)\b/iu;

/** Words that carry no request of their own: articles, pronouns, "can you", "help me". */
const EMPTY = new Set(
  (
    'a an the is are am i me my you your u it this that to of for on in and or so just there here all everyone ' +
    'can could would will do does help there good very much lot again once ' +
    'ich du mir mich ihr sie es ist und oder an alle euch ihnen sehr viel vielen lieben liebe'
  ).split(' '),
);

/** A request as `readRequest` hands it out: frozen, order numbers and all (the same reading may be handed out again). */
export type FrozenRequest = ShopperRequest extends infer R
  ? R extends ShopperRequest
    ? { readonly [K in keyof R]: R[K] extends string[] ? readonly string[] : R[K] }
    : never
  : never;

/** What `readRequest` answers: frozen, as the same answer may be handed out again. */
export interface ReadRequest {
  readonly request: FrozenRequest;
  readonly words: readonly ShopperWord[];
}

/**
 * Reads one message. The messages read last are kept (`wordMemo`, bounded as the word memos are: 256 messages of at
 * most 2,000 characters, then it starts over), so that one read twice in a turn (the insights' first question, then
 * the engine: issue 32) is read once.
 */
export const readRequest = wordMemo(
  (message: string): ReadRequest => {
    const answer = readMessage(message);
    if ('orderNumbers' in answer.request) Object.freeze(answer.request.orderNumbers);
    return Object.freeze({ request: Object.freeze(answer.request), words: Object.freeze(answer.words) });
  },
  { capacity: 256, longest: 2000 },
);

function readMessage(message: string): { request: ShopperRequest; words: ShopperWord[] } {
  const words = shopperWords(message);
  const numbers = orderNumbers(message);
  const otherObject = has(words, 'invoice') || has(words, 'subscription') || has(words, 'account');
  const aboutOrder = has(words, 'order');
  const negated = NOT_WANT.test(message);

  const meaningful = words.filter(
    (w) => !w.concepts.includes('greeting') && !w.concepts.includes('thanks') && !EMPTY.has(w.word),
  );
  // A person, asked for in many ways: "talk to a human", "I want an agent", "can someone call me back", "is there a
  // real person?", "get me a human, useless bot", "customer service please", or a person named with nothing else
  // the store could do ("PERSON. PLEASE.", "hallo? jemand da? ich mein ein Mensch"). A complaint or review that names
  // the staff ("your customer service is terrible") is feedback, not a request for them, unless it asks to talk.
  const service = CUSTOMER_SERVICE.test(message);
  const staff = has(words, 'person') || service;
  const anyone = has(words, 'someone');
  const asksToReach = has(words, 'talk') || has(words, 'bot');
  const wishes = (has(words, 'want') || has(words, 'real')) && !has(words, 'feedback');
  const nothingElse = !TOPICS.some((topic) => has(words, topic)) && numbers.length === 0;
  if (
    !negated &&
    (((staff || anyone) && (asksToReach || wishes)) || (staff && nothingElse) || CALL_BACK.test(message))
  )
    return { request: { kind: 'person' }, words };

  const orderish = aboutOrder || (numbers.length > 0 && !otherObject);
  const callsOff =
    has(words, 'cancel') ||
    CALL_OFF.test(message) ||
    (negated && (aboutOrder || numbers.length > 0 || /\bitem/i.test(message))) ||
    DO_NOT_SEND.test(message) ||
    CANNOT_PAY.test(message);
  if (callsOff && orderish && (aboutOrder || !otherObject))
    return { request: { kind: 'cancel-order', orderNumbers: numbers }, words };

  // "Where do I find the invoice of my last purchase?" is about the invoice; with an order number it may be the order.
  if (!otherObject || (aboutOrder && numbers.length > 0)) {
    const asksWhere = has(words, 'status');
    const asksWhen = has(words, 'arrival');
    const status = (orderNumbers: string[], whenOnly = false) => ({
      request: { kind: 'order-status' as const, orderNumbers, whenOnly, asksWhere: asksWhere || asksWhen },
      words,
    });
    if (aboutOrder && (asksWhere || numbers.length > 0)) return status(numbers);
    if (numbers.length > 0 && (asksWhere || asksWhen) && !otherObject) return status(numbers);
    if (aboutOrder && asksWhen) return status([], true);
  }

  if (meaningful.length === 0 && numbers.length === 0 && words.length > 0)
    return {
      request: { kind: 'greeting', thanksOnly: has(words, 'thanks') && !has(words, 'greeting') },
      words,
    };
  return { request: { kind: 'other' }, words };
}
