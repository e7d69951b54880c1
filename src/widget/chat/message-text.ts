import type { ChatMessage } from '../../protocol';

/** A message's words: its text, and a confirm part's question (read out to screen readers with the answer). */
export const textOf = (message: ChatMessage): string =>
  message.parts.map((part) => ('text' in part ? part.text : '')).join(' ');
