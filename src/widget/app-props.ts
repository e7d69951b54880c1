import type { ReadonlySignal } from '@preact/signals';
import type { ComponentType } from 'preact';
import type { Strings } from './i18n';
import type { NudgeProps } from './nudge';
import type { CardActions } from './parts/part-props';
import type { Store } from './store';

/** The chat's chunk once it has arrived (chat-view.tsx): its view, and the conversation's retry. */
export interface LoadedChat {
  View: ComponentType<ChatViewProps>;
  retry: (messageId: string) => void;
}

export interface AppProps {
  store: Store;
  strings: Strings;
  /** The proactive bubble's chunk, absent until a page first calls `showMessage` (nudge.tsx). */
  nudge: ReadonlySignal<ComponentType<NudgeProps> | undefined>;
  /** The chat's chunk, absent until it has loaded (at idle after ready, or at the first open). */
  chat: ReadonlySignal<LoadedChat | undefined>;
  /** A link in a message or card was followed: `service:link-click` and `onLinkClick`. */
  onLinkClick: (url: string) => void;
  /** Product cards' click report and, with a cart, "Add to cart". */
  cardActions: CardActions;
}

export interface ChatViewProps extends Omit<AppProps, 'chat' | 'nudge'> {
  /** Sends a failed message again (the conversation's `retry`). */
  onRetry: (messageId: string) => void;
  isOpen: boolean;
  panelRef: preact.RefObject<HTMLDivElement>;
  inputRef: preact.RefObject<HTMLTextAreaElement>;
  onClose: () => void;
}
