import type { ComponentType } from 'preact';
import type { WidgetMessage } from './widget-message';

/**
 * What the conversation's chunk (chat/conversation.ts) adds to the chat view when it arrives: the handoff menu, the
 * mode's status line, the agent's name and the thumbs on messages. Messages from the service exist only once that
 * chunk is there, so whatever decorates them comes with it, and the bytes until the chat opens do not grow
 * (scripts/size.mjs). Types only: nothing here is in a bundle.
 */
export interface ChatAddons {
  /** In the panel's header, before the close button: the "More options" menu. */
  Header: ComponentType;
  /** Between the header and the messages: "Waiting for a person…", "You're chatting with Anna". */
  Status: ComponentType;
  /** Inside a message's bubble, before its parts (an agent's name). */
  Before: ComponentType<{ message: WidgetMessage }>;
  /** Inside a message's bubble, after its parts (the thumbs under an answer). */
  After: ComponentType<{ message: WidgetMessage }>;
}
