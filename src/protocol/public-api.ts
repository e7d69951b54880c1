import type { PageContext } from './chat';
import type { UserData } from './user-data';

export interface OpenChatOptions {
  /** Text put in the composer. */
  message?: string;
  /** Send `message` at once instead of leaving it in the composer. */
  autoSend?: boolean;
}

/**
 * `window.Service`, and what `load()` resolves to. Every method is safe to call with anything:
 * bad arguments log one `[service]` console.error and change nothing; nothing throws.
 */
export interface ShowMessageOptions {
  /** Wait this long before showing the bubble (default 0). */
  delayMs?: number;
}

export interface ServiceApi {
  showLauncher(): void;
  hideLauncher(): void;
  openChat(options?: OpenChatOptions): void;
  closeChat(): void;
  setHidden(hidden: boolean): void;
  setUserData(userData: UserData): void;
  setCustomInstructions(instructions: string): void;
  /**
   * The signed-in customer's identity token (see `ServiceSettings.identityToken`), or `null` at sign-out. Another
   * customer, or `null`, after a customer's conversation starts a new conversation.
   */
  setIdentityToken(token: string | null): void;
  /** Where the shopper is (a product page, their cart); reaches the assistant with the next message. `null` clears. */
  setPageContext(context: PageContext | null): void;
  /**
   * A proactive message: a bubble by the closed launcher, which the shopper can dismiss. It joins the conversation
   * only when the shopper answers (opens the chat from it and sends a message).
   */
  showMessage(text: string, options?: ShowMessageOptions): void;
  /** Inline mode from now on: the chat moves into `element`, without a launcher. */
  mount(element: HTMLElement): void;
  /**
   * The shopper's storage consent: `false` removes what the widget stored and keeps nothing from then on (`storage:
   * "none"`); `true` stores again (`storage: "local"`) from the current conversation on.
   */
  setConsent(granted: boolean): void;
  /**
   * Ask for a person, as the panel menu's "Talk to a person" does: the chat opens, the mode becomes `waiting`, and the
   * assistant says when someone will answer. Logs one `[service]` error when the widget has no handoff.
   */
  requestHuman(): void;
  /** Start a new conversation and clear the widget's `_service_` storage. */
  reset(): void;
  /** Remove every node, listener and global the widget added. A later `load()` mounts afresh. */
  destroy(): void;
  readonly hidden: boolean;
  readonly isOpen: boolean;
  readonly widgetId: string;
  readonly version: string;
}
