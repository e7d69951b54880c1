import type { ReplyEvent } from '../../core/engine';

/** Emits text in word-sized deltas, as a model would, so the widget's streaming path is the same for both engines. */
export async function streamText(text: string, emit: (event: ReplyEvent) => Promise<void>): Promise<void> {
  for (const piece of text.match(/\s*\S+\s*/g) ?? [text]) await emit({ type: 'delta', text: piece });
}
