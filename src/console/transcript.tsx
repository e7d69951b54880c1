import type { InboxMessage, InboxWebhookCall } from '../protocol/inbox';
import { formatDateTime } from './format';
import { modeLineText, type TranscriptItem } from './live-transcript';
import { MessagePart } from './message-part';
import { WebhookCalls } from './webhook-calls';

const STATUS_NOTE: Record<InboxMessage['status'], string | null> = {
  done: null,
  streaming: 'Being written',
  failed: 'Reply failed',
};

/** Who wrote it: the shopper by name when the conversation knows it (issue 34), agents by theirs. */
const authorText = (message: InboxMessage, shopper: string | null): string =>
  message.role === 'user'
    ? (shopper ?? 'Shopper')
    : message.role === 'agent'
      ? (message.author ?? 'Agent')
      : 'Assistant';

/** The shopper's thumbs on an assistant answer, with words beside the emoji for everyone. */
function Feedback({ feedback }: { feedback: NonNullable<InboxMessage['feedback']> }) {
  const isUp = feedback.rating === 'up';
  return (
    <p class={`feedback feedback-${feedback.rating}`} data-rating={feedback.rating}>
      <span aria-hidden="true">{isUp ? '👍' : '👎'}</span>{' '}
      <span class="feedback-label">
        {isUp ? 'Shopper found this helpful' : 'Shopper found this unhelpful'}
      </span>
      {feedback.comment && (
        <>
          : <q class="text feedback-comment">{feedback.comment}</q>
        </>
      )}
    </p>
  );
}

const ACTION_TEXT = (ok: boolean | null) => (ok === null ? 'running' : ok ? 'succeeded' : 'failed');

/** The custom actions this turn called, in order, with their outcome. */
function TurnActions({ actions }: { actions: NonNullable<InboxMessage['actions']> }) {
  return (
    <ul class="turn-actions" aria-label="Custom actions called">
      {actions.map((a, i) => (
        <li key={i} class={`turn-action action-${ACTION_TEXT(a.ok)}`}>
          <span class="mono">{a.name}</span> <span class="action-outcome">{ACTION_TEXT(a.ok)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Which assistant message each webhook call belongs to: the turn that was running when it ended (the last assistant
 * message written before the call's end). Calls from before any reply are listed apart.
 */
export function callsByTurn(
  items: readonly TranscriptItem[],
  calls: readonly InboxWebhookCall[],
): { byMessage: Map<string, InboxWebhookCall[]>; unplaced: InboxWebhookCall[] } {
  const replies = items
    .filter((i): i is Extract<TranscriptItem, { kind: 'message' }> => i.kind === 'message')
    .map((i) => i.message)
    .filter((m) => m.role === 'assistant' && m.createdAt);
  const byMessage = new Map<string, InboxWebhookCall[]>();
  const unplaced: InboxWebhookCall[] = [];
  for (const call of calls) {
    const at = Date.parse(call.at);
    let owner: InboxMessage | undefined;
    for (const m of replies) if (Date.parse(m.createdAt) <= at) owner = m;
    if (!owner) unplaced.push(call);
    else byMessage.set(owner.id, [...(byMessage.get(owner.id) ?? []), call]);
  }
  return { byMessage, unplaced };
}

/**
 * The conversation as it happened and as it happens: who said what (agents by name), the mode changes as system lines,
 * cards as the shopper saw them, and under each assistant answer the actions it called, the webhook calls of its
 * turn and the shopper's feedback.
 */
export function Transcript({
  items,
  calls = [],
  shopper = null,
}: {
  items: readonly TranscriptItem[];
  calls?: readonly InboxWebhookCall[];
  /** The shopper's name, when the conversation knows it (`shopperName`). */
  shopper?: string | null;
}) {
  if (items.length === 0) return <p class="empty">No messages yet.</p>;
  const { byMessage, unplaced } = callsByTurn(items, calls);
  return (
    <>
      <ol class="transcript">
        {items.map((item) => {
          if (item.kind === 'mode')
            return (
              <li key={item.key} class="system-line" data-mode={item.mode}>
                {modeLineText(item.mode, item.agent, item.closed)}
              </li>
            );
          const { message } = item;
          const note = STATUS_NOTE[message.status];
          const turnCalls = byMessage.get(message.id) ?? [];
          return (
            <li key={message.id} class={`message ${message.role}`} data-status={message.status}>
              <p class="message-meta">
                <span class="author">{authorText(message, shopper)}</span>
                {message.role === 'agent' && <span class="role-note">Agent</span>}{' '}
                {message.createdAt && (
                  <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                )}
                {note && <span class={`badge badge-${message.status}`}>{note}</span>}
              </p>
              {message.parts.map((part, i) => (
                <MessagePart key={i} part={part} isPlain={message.role === 'user'} />
              ))}
              {message.parts.length === 0 && message.status !== 'done' && (
                <p class="empty">(no content yet)</p>
              )}
              {message.actions && message.actions.length > 0 && <TurnActions actions={message.actions} />}
              {turnCalls.length > 0 && (
                <div class="turn-webhooks">
                  <h4>Webhook calls</h4>
                  <WebhookCalls calls={turnCalls} />
                </div>
              )}
              {message.feedback && <Feedback feedback={message.feedback} />}
            </li>
          );
        })}
      </ol>
      {unplaced.length > 0 && (
        <div class="turn-webhooks">
          <h4>Webhook calls</h4>
          <WebhookCalls calls={unplaced} />
        </div>
      )}
    </>
  );
}
