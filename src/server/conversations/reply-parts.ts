import type { MessagePart, StreamEvent } from '../../protocol/chat';

/**
 * The parts a reply has so far, rebuilt from its stream events: consecutive `message.delta` texts join into one text
 * part, `message.part` appends a part, the other events carry no content. Used for a reply that is still streaming;
 * a finished reply's parts are the ones `finishAssistantMessage` stored.
 * @example
 * foldReplyParts([{ type: 'message.delta', text: 'Hel' }, { type: 'message.delta', text: 'lo' }]);
 * // → [{ type: 'text', text: 'Hello' }]
 */
export function foldReplyParts(events: Iterable<StreamEvent>): MessagePart[] {
  const parts: MessagePart[] = [];
  let text: string[] | undefined;
  const flush = () => {
    if (text) parts.push({ type: 'text', text: text.join('') });
    text = undefined;
  };
  for (const event of events) {
    if (event.type === 'message.delta') {
      text ??= [];
      text.push(event.text);
    } else if (event.type === 'message.part') {
      flush();
      parts.push(event.part);
    }
  }
  flush();
  return parts;
}
