import type { InboxConversation } from '../protocol/inbox';
import { formatDateTime, lastActivity, messageCountText, userDataSummary } from './format';

export interface ConversationListProps {
  conversations: readonly InboxConversation[];
  selectedId: string | null;
  onSelect(id: string): void;
}

/** Most recently active first; each row says when, how much, and who (the user data in one line). */
export function ConversationList({ conversations, selectedId, onSelect }: ConversationListProps) {
  return (
    <ul class="conversation-list">
      {conversations.map((c) => {
        const at = lastActivity(c);
        return (
          <li key={c.id}>
            <button
              type="button"
              class="conversation-row"
              aria-current={c.id === selectedId ? 'true' : undefined}
              data-conversation-id={c.id}
              onClick={() => onSelect(c.id)}
            >
              <span class="row-top">
                <time dateTime={at}>{formatDateTime(at)}</time>
                <span class="count">{messageCountText(c.messageCount)}</span>
              </span>
              <span class="summary">{userDataSummary(c.userData)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
