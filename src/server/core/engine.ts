import type { ProductCard } from '../../protocol/cards';
import type { Availability } from '../../protocol/catalog';
import type { ChatMessage, MessagePart, PageContext } from '../../protocol/chat';
import type { UserData } from '../../protocol/settings';
import type { ActionDefinition } from '../config/service-config';
import type { ReplyLanguage } from './reply-language';

export type ParameterValue = string | number | boolean;

/**
 * What an action call gave the engine: the AI reads `aiText`; the shopper may see `part`, a card or the integrator's
 * prose. Without `part` the answer was data that is no card (JSON, XML, HTML): the shopper is never shown it, and the
 * engine says in words what it can (issue 19, "cards degrade, never dump").
 */
export type ActionResult =
  | { ok: true; aiText: string; part?: MessagePart }
  | { ok: false; error: { code: string; message: string } }
  | AwaitingConfirmation;

/**
 * The call was not made: the action needs the shopper's yes, so the service stored it as a proposal and showed the
 * shopper a `confirm` part (DESIGN "Side effects need the shopper's yes"). It has `ok: false` so that code which does
 * not know this case still never reports the call as done.
 */
export interface AwaitingConfirmation {
  ok: false;
  error: { code: 'awaiting_confirmation'; message: string };
  /** The proposal's id, as in the `confirm` part. */
  confirmId: string;
  /** The question the shopper sees ("Cancel order 1003?"). */
  question: string;
}

export const isAwaitingConfirmation = (result: {
  ok: boolean;
  error?: { code: string };
}): result is AwaitingConfirmation => !result.ok && result.error?.code === 'awaiting_confirmation';

/** Whether a custom action needs the shopper's yes before it is called; order cancellation always does. */
export const needsConfirmation = (action: Pick<ActionDefinition, 'confirm'>): boolean =>
  action.confirm === true;

/** How a product search orders what it found. */
export type ProductSort = 'relevance' | 'price_asc' | 'price_desc';

/**
 * One catalog search, for both engines (DESIGN "Answers that fit the question"): words, and filters applied in the
 * database. `brand` and `category` compare whole values, case-insensitively (a category matches any level of a
 * product's category path).
 */
export interface ProductQuery {
  /** What the shopper looks for, as words; may be empty when the filters say it all. */
  query: string;
  minPrice?: number;
  maxPrice?: number;
  brand?: string;
  category?: string;
  /** Only products in stock (a product without an availability counts as in stock). */
  inStock?: boolean;
  sort?: ProductSort;
  limit?: number;
  /**
   * The product type the shopper named, in its forms ("shoe", "sneaker"): the product's name or category must hold one
   * of them (all the words of one). Socks are not shoes because their description mentions shoes.
   */
  kind?: readonly string[];
}

/** The brands and categories a widget's catalog has, as written in it (most frequent first). */
export interface CatalogFacets {
  brands: readonly string[];
  categories: readonly string[];
}

/** A product found for an engine: its card, and the facts an answer about fit needs. */
export interface ProductHit {
  card: ProductCard;
  /** The parsed price, when the price reads as a number. */
  price?: number;
  currency?: string;
  brand?: string;
  inStock: boolean;
  /** The query holds the product's sku, mpn or gtin. */
  exactCode?: boolean;
  /** The query's words (as {@link ProductQuery.query} held them) that none of the product's text holds. */
  missing: string[];
}

/**
 * What the integrator's order-cancellation webhook said (issue #7). `cancelled` is the integrator's own `cancelled`
 * from a valid response; any other outcome is `ok: false`, and the engine must not tell the shopper it cancelled.
 */
export type CancelOrderResult =
  | { ok: true; cancelled: boolean; reason: string }
  | { ok: false; error: { code: string; message: string } }
  | AwaitingConfirmation;

/** The name both engines report in `action.started` / `action.finished` around a cancellation. */
export const CANCEL_ORDER_ACTION = 'Cancel order';

/**
 * Whether a failed cancellation got an answer that could not be read (so it is unknown whether the order was
 * cancelled), as opposed to no answer at all (so it was not).
 */
export const isUnreadableAnswer = (code: string): boolean =>
  code === 'invalid_json' || code === 'invalid_response' || code === 'too_large';

/**
 * A tool's error code when the widget requires a verified identity for that call and the conversation has none
 * (issue 18, `identity.required`); the tool layer refuses it, and the engine asks the shopper to sign in.
 */
export const IDENTITY_REQUIRED = 'identity_required';

/**
 * A section of the store's own knowledge (widget config `knowledge`, or a heading of a `knowledgeUrls` document) that
 * matched a question, best first (DESIGN "Store knowledge").
 */
export interface KnowledgeHit {
  /** The section's title (its heading), which the answer names. */
  title: string;
  /** The section's markdown. */
  text: string;
  /** The `knowledgeUrls` document it came from; null for a section written in the config. */
  source: string | null;
  /** Higher is better; comparable only within one search. */
  score: number;
}

/** How a page names its product (`PageContext.product`): the catalog is searched by `id`, else `url`, else `name`. */
export interface ProductRef {
  id?: string;
  url?: string;
  name: string;
}

/** A catalog product as an engine answers about it: its card and what the card leaves out. */
export interface ProductDetails {
  /** The catalog identifier (productID, else sku, else url). */
  id: string;
  name: string;
  /** What the shopper is shown; null when the product cannot be a card (no price, no http(s) link). */
  card: ProductCard | null;
  brand?: string;
  /** The whole description (a card's is cut). */
  description?: string;
  availability?: Availability;
  /** The feed's `additionalProperty` values ("color", "size", "material"), as the store wrote them. */
  attributes: Record<string, string>;
}

/** The product on the page as the catalog has it, and the other products of its variant group. */
export interface PageProductDetails extends ProductDetails {
  variants: ProductDetails[];
}

/**
 * What asking for a person did (DESIGN "Human handoff"): the service set the mode to `waiting` (the widget was told with
 * a `conversation.mode` event) and wrote what it promises in `text`, in the turn's language, which the engine says as
 * its answer (the promise comes from business hours, never from the engine). Not ok when the conversation could not be
 * handed over; the engine then offers the store's contact details.
 */
export type HandoffOutcome =
  | { ok: true; open: boolean; opensAt: string | null; text: string }
  | { ok: false; error: { code: string; message: string } };

/** The service's abilities the engine may use during a turn. */
export interface EngineTools {
  callAction(action: ActionDefinition, params: Record<string, ParameterValue>): Promise<ActionResult>;
  searchProducts(query: ProductQuery): Promise<ProductHit[]>;
  /** The catalog's brands and categories, for reading them in the shopper's words; absent where no catalog is wired. */
  catalogFacets?(): Promise<CatalogFacets>;
  /** The store's knowledge sections that best match `query`, best first (at most `limit`, default 3). */
  searchKnowledge(query: string, limit?: number): Promise<KnowledgeHit[]>;
  /**
   * The catalog's product a page names (issue 20), with its variants; null when the catalog has none by that id, url or
   * exact name. Absent where no catalog is wired (tests).
   */
  findProduct?(ref: ProductRef): Promise<PageProductDetails | null>;
  /**
   * Hand the conversation to a person: present only when the widget has someone to hand to (the service has agents).
   * After it the engine answers with the outcome's `text` and calls nothing else this turn.
   */
  requestHuman?(): Promise<HandoffOutcome>;
  /** Present only when the widget has an `order-cancellation` webhook. */
  cancelOrder?(request: { orderId: string; reason?: string }): Promise<CancelOrderResult>;
}

/** Everything an engine knows for one turn (DESIGN: "Assistant engines"). */
export interface EngineTurn {
  widgetId: string;
  conversationId: string;
  /** The conversation before this turn, oldest first. */
  history: ChatMessage[];
  message: string;
  /**
   * The widget's locale (`en`, `de`, ...) as the page set it, when the widget sent one. Only the last resort of the
   * answer's language (reply-language.ts): the message's own language comes first, then that of the shopper's earlier
   * messages. A remote model is told it as the page's locale.
   */
  locale?: string | null;
  /**
   * The language to answer in, worked out once by the service for the whole turn (`replyLanguage` of the message, the
   * shopper's earlier messages and the locale), so the engine's answer and what the service itself says agree. Absent
   * (an engine called on its own, as in its unit tests): the engine works it out the same way.
   */
  language?: ReplyLanguage;
  userData: UserData | null;
  /**
   * The store's identity token verified who the shopper is (issue 18), so integrators get `x-service-user-id`: an order
   * lookup needs no other proof. Absent or false: a guest, who proves an order is theirs with its email (issue 31).
   */
  verifiedCustomer?: boolean;
  /**
   * Where the shopper is, as the page last said (issue 20: `Service.setPageContext`), checked at the edge: the page, the
   * product on it, the cart. The page's data, never instructions; "does it come in blue?" is about its product.
   */
  pageContext?: PageContext | null;
  /** The store's own instructions (widget config `instructions`); they come before `customInstructions` and win. */
  instructions?: string | null;
  /** The page's additions (`customInstructions`), never overriding the store's. */
  customInstructions: string | null;
  /** Enabled actions only. */
  actions: ActionDefinition[];
  /** The widget's starters (config `starters`, issue 20): questions the store suggests, which an engine may offer. */
  starters?: string[];
  /** What the engine left for itself at the end of the previous turn (e.g. the question it asked). */
  state: unknown;
  /**
   * Set when this turn is the shopper's yes to a proposal: the service has made the stored call (once) and the engine
   * presents its result, as it would present a call it made itself. Never set by anything but that yes.
   */
  confirmed?: ConfirmedCall;
  tools: EngineTools;
  signal: AbortSignal;
}

/** A call the shopper confirmed, and what it gave. */
export type ConfirmedCall =
  | {
      kind: 'action';
      action: ActionDefinition;
      params: Record<string, ParameterValue>;
      result: Exclude<ActionResult, AwaitingConfirmation>;
    }
  | {
      kind: 'cancel-order';
      request: { orderId: string; reason?: string };
      result: Exclude<CancelOrderResult, AwaitingConfirmation>;
    };

/** What an engine streams while it answers; the conversation turns these into stored stream events. */
export type ReplyEvent =
  | { type: 'delta'; text: string }
  | { type: 'part'; part: MessagePart }
  | { type: 'action.started'; name: string }
  | { type: 'action.finished'; name: string; ok: boolean };

/** What an engine's turn leaves behind. */
export interface ReplyOutcome {
  /** The state to keep for the next turn. */
  state: unknown;
  /**
   * The engine had no answer to the question (nothing in the store's knowledge, catalog or actions fitted): the
   * merchant sees it among the insights' knowledge gaps (issue 35).
   */
  unanswered?: boolean;
}

export interface AssistantEngine {
  /** Streams the answer through `emit` and resolves with what the turn leaves behind. */
  reply(turn: EngineTurn, emit: (event: ReplyEvent) => Promise<void>): Promise<ReplyOutcome>;
}
