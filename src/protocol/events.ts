/** Window events the widget dispatches (`CustomEvent`); `detail.widgetId` is always set. */
export const EVENT_READY = 'service:ready';
export const EVENT_CHAT_OPEN = 'service:chat-open';
export const EVENT_CHAT_CLOSE = 'service:chat-close';
export const EVENT_MESSAGE_SENT = 'service:message-sent';
export const EVENT_LINK_CLICK = 'service:link-click';

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
}

export type ServiceEventName = keyof ServiceEventMap;
