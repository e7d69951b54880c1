import type { AgentName, ConversationMode, FeedbackRating } from './chat';

/** Window events the widget dispatches (`CustomEvent`); `detail.widgetId` is always set. */
export const EVENT_READY = 'service:ready';
export const EVENT_CHAT_OPEN = 'service:chat-open';
export const EVENT_CHAT_CLOSE = 'service:chat-close';
export const EVENT_MESSAGE_SENT = 'service:message-sent';
export const EVENT_LINK_CLICK = 'service:link-click';
/** "Add to cart" on a product card (widget config `cart: true`). */
export const EVENT_ADD_TO_CART = 'service:add-to-cart';
/** The shopper followed a product card's link. */
export const EVENT_PRODUCT_CLICK = 'service:product-click';

/** The conversation's mode changed (a person was asked for, an agent joined or handed back). */
export const EVENT_HANDOFF = 'service:handoff';
/** The shopper rated an answer (thumbs under each assistant answer). */
export const EVENT_FEEDBACK = 'service:feedback';

/** A product as `service:add-to-cart` and `service:product-click` hand it to the page. */
export interface CartProduct {
  /** The store's id, when the card came with one (catalog products do). */
  id?: string;
  url?: string;
  name: string;
  /** As shown on the card ("19,90 €"); `""` when it showed none. */
  price: string;
}

export interface EventDetail {
  widgetId: string;
}

/** Event name → `detail` type, so listeners can be typed (cal.com's `EventDataMap`). */
export interface ServiceEventMap {
  [EVENT_READY]: EventDetail;
  [EVENT_CHAT_OPEN]: EventDetail;
  [EVENT_CHAT_CLOSE]: EventDetail;
  [EVENT_MESSAGE_SENT]: EventDetail & { text: string };
  [EVENT_LINK_CLICK]: EventDetail & { url: string };
  [EVENT_ADD_TO_CART]: EventDetail & { product: CartProduct };
  [EVENT_PRODUCT_CLICK]: EventDetail & { product: CartProduct };
  [EVENT_HANDOFF]: HandoffDetail;
  [EVENT_FEEDBACK]: FeedbackDetail;
}

/** `service:handoff` / `onHandoff`: the new mode, and the agent's name once one has the conversation. */
export interface HandoffDetail extends EventDetail {
  mode: ConversationMode;
  agent?: AgentName;
}

/** `service:feedback`: which answer (the stored message id) and how it was rated. */
export interface FeedbackDetail extends EventDetail {
  messageId: string;
  rating: FeedbackRating;
}

export type ServiceEventName = keyof ServiceEventMap;
