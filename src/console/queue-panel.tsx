import { useState } from 'preact/hooks';
import type { InboxConversation } from '../protocol/inbox';
import {
  formatDateTime,
  lastActivity,
  MODE_TEXT,
  oneLine,
  previewText,
  shopperLabel,
  waitedText,
} from './format';
import type { QueueStore, QueueView } from './queue-store';

const VIEWS: { id: QueueView; label: string }[] = [
  { id: 'waiting', label: 'Waiting' },
  { id: 'mine', label: 'Mine' },
  { id: 'all', label: 'All' },
];

const EMPTY_TEXT: Record<QueueView, string> = {
  waiting: 'Nobody is waiting for a person.',
  mine: 'You hold no conversation.',
  all: 'No conversations yet.',
};

export interface QueuePanelProps {
  queue: QueueStore;
  selectedId: string | null;
  onOpen(id: string): void;
  /** The signed-in agent's id: "Assigned to you". */
  me?: string | null;
}

/** Issue 34: the row says what the shopper last said (what they wait about); else the last message of anyone. */
function rowPreview(c: InboxConversation): string {
  const said = oneLine(c.lastShopperMessage?.text ?? '');
  return said || previewText(c);
}

/**
 * The queue: three views (the waiting count as a badge), each a list of buttons. "Waiting" is oldest first with how
 * long each has waited; the others say when the conversation last moved. Each row previews the last message.
 */
export function QueuePanel({ queue, selectedId, onOpen, me = null }: QueuePanelProps) {
  const [words, setWords] = useState(queue.search.value);
  const view = queue.view.value;
  const searched = view === 'all' ? queue.search.value.trim() : '';
  const unread = queue.unread.value;
  const items = queue.listed();
  const status = queue.status.value;
  const waitingCount = queue.waitingCount();
  const nowMs = queue.clock.value;
  return (
    <section class="queue-pane" aria-labelledby="queue-title">
      <div class="pane-head">
        <h2 id="queue-title">Queue</h2>
        <button
          type="button"
          class="secondary small"
          disabled={status === 'loading'}
          onClick={() => void queue.refresh()}
        >
          Refresh
        </button>
      </div>
      <search class="queue-search">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void queue.find(words);
          }}
        >
          <label for="queue-search">Search conversations</label>
          <div class="search-row">
            <input
              id="queue-search"
              type="search"
              maxLength={200}
              value={words}
              placeholder="Words, name, email, order number"
              onInput={(event) => setWords(event.currentTarget.value)}
            />
            <button type="submit" class="secondary small">
              Search
            </button>
          </div>
        </form>
      </search>
      <fieldset class="views">
        <legend class="visually-hidden">Views</legend>
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            class="view"
            aria-pressed={v.id === view ? 'true' : 'false'}
            onClick={() => {
              // Another view shows everything again; the search is for "All".
              if (v.id !== 'all' && queue.search.value) {
                queue.search.value = '';
                setWords('');
              }
              void queue.showView(v.id);
            }}
          >
            {v.label}
            {v.id === 'waiting' && (
              <span class={`count-badge${waitingCount > 0 ? ' is-waiting' : ''}`}>
                <span class="visually-hidden">: </span>
                {waitingCount}
              </span>
            )}
          </button>
        ))}
      </fieldset>
      {searched && (
        <p class="search-note">
          Conversations with “{searched}”.{' '}
          <button
            type="button"
            class="link-button"
            onClick={() => {
              setWords('');
              void queue.find('');
            }}
          >
            Show all
          </button>
        </p>
      )}
      <ul class="conversation-list" aria-label={`${VIEWS.find((v) => v.id === view)?.label} conversations`}>
        {items.map((c) => {
          const mode = c.mode ?? 'assistant';
          const at = lastActivity(c);
          const preview = rowPreview(c);
          const newMessages = unread.get(c.id) ?? 0;
          return (
            <li key={c.id}>
              <button
                type="button"
                class="conversation-row"
                aria-current={c.id === selectedId ? 'true' : undefined}
                data-conversation-id={c.id}
                data-mode={mode}
                onClick={() => onOpen(c.id)}
              >
                <span class="row-top">
                  <span class="who">{shopperLabel(c)}</span>
                  {view === 'waiting' && c.waitingSince ? (
                    <span class="waited">
                      waiting <time dateTime={c.waitingSince}>{waitedText(c.waitingSince, nowMs)}</time>
                    </span>
                  ) : (
                    <time dateTime={at}>{formatDateTime(at)}</time>
                  )}
                </span>
                {preview && <span class="preview">{preview}</span>}
                {mode === 'waiting' && c.assignee && (
                  <span class="assignee-badge">
                    {c.assignee.id === me ? 'Assigned to you' : `Assigned to ${c.assignee.name}`}
                  </span>
                )}
                {newMessages > 0 && (
                  <span class="unread-badge">
                    {newMessages} new {newMessages === 1 ? 'message' : 'messages'}
                  </span>
                )}
                {view !== 'waiting' && (
                  <span class={`mode-badge mode-${mode}`}>
                    {mode === 'agent' && c.agent ? `With ${c.agent.name}` : MODE_TEXT[mode]}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {status !== 'loading' && status !== 'idle' && items.length === 0 && (
        <p class="empty">{searched ? 'No conversation has these words.' : EMPTY_TEXT[view]}</p>
      )}
      {status === 'loading' && items.length === 0 && <p class="status">Loading conversations…</p>}
      {status === 'error' && (
        <p class="error" role="alert">
          {queue.error.value}
        </p>
      )}
      {view === 'all' && queue.allCursor.value !== null && status !== 'loading' && (
        <button type="button" class="load-more" onClick={() => void queue.loadMore()}>
          Load more
        </button>
      )}
    </section>
  );
}
