import type { ChatMessage, PageContext } from '../protocol';

/**
 * Where a message stands. User messages: `pending` (queued or on the way; its `id` is its `clientMessageId`) →
 * `sent`, or `failed` when the service refused it. Assistant replies: `streaming` → `done` | `failed`.
 */
export type MessageStatus = 'pending' | 'sent' | 'streaming' | 'done' | 'failed';

/** A message as the widget holds it: the protocol's `ChatMessage` plus where it stands. Never mutated: replaced. */
export interface WidgetMessage extends ChatMessage {
  status: MessageStatus;
  /** A failed message: what went wrong, in the shopper's words. */
  error?: string;
  /** A streaming reply waiting for a custom action (the "looking that up" line). */
  isBusy?: boolean;
  /**
   * The service's word on the handoff ("A person from our team will answer you here"), not an answer to rate: the
   * reply whose turn asked for a person, or the promise the service wrote when the shopper asked from the menu.
   */
  isNotice?: boolean;
  /** A user message that answers a `confirm` part with its buttons (its clientMessageId is `confirm-<id>`). */
  answer?: 'yes' | 'no';
  /** A message refused over a limit, until the service's Retry-After is up ("Send again" is disabled meanwhile). */
  isLimited?: boolean;
  /** A user message that answers a proactive message (`Service.showMessage`): posted with it as `proactiveMessage`. */
  proactive?: string;
  /**
   * A user message written in another tab of the store (chat/tab-sync.ts): that tab's id, and what its page said
   * when the shopper sent it (page context, identity token), which go out with it instead of this page's.
   */
  tab?: string;
  pageContext?: PageContext | null;
  identityToken?: string | null;
}
