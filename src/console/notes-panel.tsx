import { useState } from 'preact/hooks';
import { MESSAGE_TEXT_MAX } from '../protocol/chat';
import type { ConversationNote } from '../protocol/inbox';
import { formatDateTime } from './format';

export interface NotesPanelProps {
  notes: readonly ConversationNote[];
  isBusy: boolean;
  /** Resolves true when the service stored it (the box is then emptied). */
  onAdd(text: string): Promise<boolean>;
}

/**
 * Issue 34: the team's internal notes beside the conversation, oldest first, and a box to add one. Said plainly on the
 * panel: the shopper never sees them (the service keeps them apart from the messages).
 */
export function NotesPanel({ notes, isBusy, onAdd }: NotesPanelProps) {
  const [text, setText] = useState('');
  return (
    <section class="notes" aria-labelledby="notes-title">
      <h3 id="notes-title" class="notes-title">
        Internal notes
      </h3>
      <p class="hint">Only the team sees these; the shopper and the assistant never do.</p>
      {notes.length === 0 ? (
        <p class="empty">No notes yet.</p>
      ) : (
        <ol class="note-list">
          {notes.map((note) => (
            <li key={note.id} class="note">
              <p class="message-meta">
                <span class="author">{note.author.name}</span>{' '}
                <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
              </p>
              <p class="text">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        class="note-form"
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = text.trim();
          if (!trimmed || isBusy) return;
          void onAdd(trimmed).then((isAdded) => {
            if (isAdded) setText('');
          });
        }}
      >
        <label for="note-text">Add a note</label>
        <textarea
          id="note-text"
          rows={2}
          maxLength={MESSAGE_TEXT_MAX}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit" class="secondary" disabled={isBusy || text.trim() === ''}>
          Add note
        </button>
      </form>
    </section>
  );
}
