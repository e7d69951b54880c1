import { useEffect, useRef, useState } from 'preact/hooks';
import type { AgentRole, CannedReply } from '../protocol/inbox';
import { ConversationContext } from './conversation-context';
import type { ConversationStore } from './conversation-store';
import { FollowScroll } from './follow-scroll';
import { formatDateTime, messageCountText, shopperLabel, shopperName } from './format';
import { NotesPanel } from './notes-panel';
import { ReplyBox } from './reply-box';
import { Transcript } from './transcript';

const STREAM_TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Not live',
} as const;

export interface ConversationViewProps {
  store: ConversationStore;
  role: AgentRole;
  /** Narrow windows show one pane at a time: this goes back to the queue. */
  onBack(): void;
  /** Issue 34: the widget's canned replies, and their placeholders filled for this conversation. */
  canned?: readonly CannedReply[];
  fill?(text: string): string;
}

/**
 * The open conversation: who answers now and the actions for it (take over, hand back), the live transcript, the reply
 * box while I hold it, and the shopper's context beside it.
 */
export function ConversationView({ store, role, onBack, canned, fill }: ConversationViewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const article = useRef<HTMLElement>(null);
  const [sentCount, setSentCount] = useState(0);
  const id = store.selectedId.value;
  // A conversation just opened: its heading takes the focus, so a screen reader starts reading there.
  useEffect(() => {
    if (store.status.value === 'ready') heading.current?.focus();
  }, [id, store.status.value === 'ready']);

  const status = store.status.value;
  if (status === 'loading')
    return (
      <p class="status" role="status">
        Loading the conversation…
      </p>
    );
  if (status === 'error')
    return (
      <div>
        <button type="button" class="secondary back" onClick={onBack}>
          Back to the queue
        </button>
        <p class="error" role="alert">
          {store.error.value}
        </p>
      </div>
    );
  const conversation = store.conversation.value;
  if (conversation === null) return <p class="empty">Pick a conversation to read it.</p>;

  const mode = store.mode();
  const isMine = store.isMine();
  const holder = conversation.agent?.name ?? null;
  const isBusy = store.isBusy.value;
  const rating = store.rating.value;
  // The service lets the holder, an admin, or anyone while nobody holds it hand back (DESIGN "Human handoff"), and
  // close it (issue 34), from any mode.
  const canRelease = isMine || mode === 'waiting' || (mode === 'agent' && role === 'admin');
  // Closed and nothing said since: nothing to close again (another close would ask the shopper for a rating twice).
  const isClosed =
    mode === 'assistant' &&
    conversation.closedAt != null &&
    (conversation.lastMessageAt ?? '') <= conversation.closedAt;
  const canClose = !isClosed && (mode !== 'agent' || isMine || role === 'admin');
  const assignee = conversation.assignee ?? null;
  const stream = store.streamStatus.value;
  const items = store.items();
  const last = items.at(-1);
  const lastKey = last ? (last.kind === 'message' ? last.message.id : last.key) : null;
  const modeText =
    mode === 'agent'
      ? isMine
        ? 'You have it'
        : `${holder ?? 'An agent'} has it`
      : mode === 'waiting'
        ? 'Waiting for a person'
        : 'The assistant answers';

  // The button pressed goes away with the change (Take over, Hand back): the focus goes where the agent goes next,
  // not to the page's start.
  const focusAfter = (selector: string) => (isDone: boolean) => {
    if (isDone) requestAnimationFrame(() => article.current?.querySelector<HTMLElement>(selector)?.focus());
  };

  return (
    <article class="conversation" aria-labelledby="conversation-title" ref={article}>
      <button type="button" class="secondary back" onClick={onBack}>
        Back to the queue
      </button>
      <header class="conversation-head">
        <h2 id="conversation-title" tabIndex={-1} ref={heading}>
          Conversation with {shopperLabel(conversation)}
        </h2>
        <p class="conversation-meta">
          <span class="mono">{conversation.id}</span> · started{' '}
          <time dateTime={conversation.createdAt}>{formatDateTime(conversation.createdAt)}</time> ·{' '}
          {messageCountText(conversation.messageCount)}
        </p>
        {conversation.contactEmail && (
          <p class="conversation-meta contact-line">
            Replies also go by email to{' '}
            <a href={`mailto:${conversation.contactEmail}`}>{conversation.contactEmail}</a> while the shopper
            is away.
          </p>
        )}
        {rating && (
          <p class="conversation-meta rating-line">
            <span class="rating-stars" role="img" aria-label={`Rated ${rating.score} of 5`}>
              {'★'.repeat(rating.score)}
              {'☆'.repeat(5 - rating.score)}
            </span>{' '}
            Rated {rating.score}/5 for {rating.agent.name} on{' '}
            <time dateTime={rating.ratedAt}>{formatDateTime(rating.ratedAt)}</time>
            {rating.comment && (
              <>
                : <q class="rating-comment">{rating.comment}</q>
              </>
            )}
          </p>
        )}
        <p class="mode-line">
          <span class={`mode-badge mode-${mode}`} data-mode={mode}>
            {modeText}
          </span>{' '}
          {mode === 'waiting' && assignee && <span class="assignee-badge">Assigned to {assignee.name}</span>}{' '}
          <span class={`stream-status stream-${stream}`}>{STREAM_TEXT[stream]}</span>
          {conversation.closedAt && mode === 'assistant' && (
            <span class="closed-note">
              {' '}
              · closed <time dateTime={conversation.closedAt}>{formatDateTime(conversation.closedAt)}</time>
            </span>
          )}
        </p>
        <div class="conversation-actions">
          {!isMine && (
            <button
              type="button"
              class="take"
              disabled={isBusy}
              onClick={() => void store.take().then(focusAfter('#reply-text'))}
            >
              Take over
            </button>
          )}
          {canRelease && (
            <button
              type="button"
              class="secondary"
              disabled={isBusy}
              onClick={() => void store.release().then(focusAfter('.take'))}
            >
              Hand back to the assistant
            </button>
          )}
          {canClose && (
            <button
              type="button"
              class="secondary close-conversation"
              disabled={isBusy}
              onClick={() => void store.closeConversation().then(focusAfter('.take'))}
            >
              Close
            </button>
          )}
        </div>
        {store.actionError.value && (
          <p class="error" role="alert">
            {store.actionError.value}
          </p>
        )}
      </header>

      <div class="conversation-body">
        <section class="transcript-pane">
          <h3 id="transcript-title">Transcript</h3>
          <FollowScroll
            openKey={conversation.id}
            lastKey={lastKey}
            sentCount={sentCount}
            labelledBy="transcript-title"
          >
            <Transcript items={items} calls={store.webhookCalls.value} shopper={shopperName(conversation)} />
          </FollowScroll>
          <p class="typing-line" aria-live="polite">
            {store.shopperTyping.value ? `${shopperName(conversation) ?? 'The shopper'} is typing…` : ''}
          </p>
          {isMine ? (
            <ReplyBox
              isBusy={isBusy}
              canned={canned}
              fill={fill}
              onTyping={store.typing}
              onSend={async (text) => {
                const isSent = await store.send(text);
                if (isSent) setSentCount((n) => n + 1);
                return isSent;
              }}
            />
          ) : (
            <p class="hint reply-note">
              {mode === 'agent' ? `${holder ?? 'Another agent'} is answering.` : 'Take over to reply.'}
            </p>
          )}
        </section>
        {/* It scrolls by itself on wide windows: reachable by keyboard (axe scrollable-region-focusable). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
        <aside class="context-pane" aria-label="Context" tabIndex={0}>
          <ConversationContext conversation={conversation} />
          <NotesPanel notes={store.notes.value} isBusy={isBusy} onAdd={store.addNote} />
        </aside>
      </div>
    </article>
  );
}
