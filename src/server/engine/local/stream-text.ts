import type { ReplyEvent } from '../../core/engine';

/**
 * Emits the local engine's text. One delta: the engine has its whole answer at once, and the reply writer stores a
 * flush's deltas as one event anyway (chat/reply-writer.ts), so the shopper gets the same event. Word by word, as it
 * was, each word went through the turn's emit, the resume check and the writer, awaited, for nothing (issue 32).
 */
export async function streamText(text: string, emit: (event: ReplyEvent) => Promise<void>): Promise<void> {
  if (text !== '') await emit({ type: 'delta', text });
}
