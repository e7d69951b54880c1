import type { OrderStepStatus } from '../protocol/cards';
import type { ConversationMode } from '../protocol/chat';
import type { InboxConversation } from '../protocol/inbox';
import type { UserDataValue } from '../protocol/settings';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat('en', { timeStyle: 'short' });

/**
 * "12 Jun 2026, 14:05" in the agent's time zone, and today's as "14:05" alone (issue 34: the date of today says
 * nothing); the raw string when it is not a date.
 */
export function formatDateTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString() ? timeOnly.format(date) : dateTime.format(date);
}

/** When the conversation last moved: its last message, else its last context change. */
export const lastActivity = (c: InboxConversation): string => c.lastMessageAt ?? c.updatedAt;

export const messageCountText = (count: number): string => `${count} ${count === 1 ? 'message' : 'messages'}`;

/** A user-data value as an agent reads it: strings as they are, `null` as "null". */
export const userDataValueText = (value: UserDataValue): string =>
  typeof value === 'string' ? value : String(value);

/** A user-data value that can name someone: a non-blank string, on one line, cut for a heading. */
function nameValue(value: UserDataValue | undefined): string | null {
  if (typeof value !== 'string') return null;
  const line = value.replace(/\s+/g, ' ').trim();
  if (!line) return null;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Who the shopper is, as a support agent calls them: the verified customer's name; else the page's `name`,
 * `firstName` (with `lastName`); else an email (verified first); else "Shopper" and the conversation's first six
 * characters, so two anonymous rows still differ. The whole user data stays in the context pane.
 */
export function shopperLabel(c: Pick<InboxConversation, 'id' | 'user' | 'userData'>): string {
  return shopperName(c) ?? `Shopper ${c.id.slice(0, 6)}`;
}

/** The name (or email) `shopperLabel` finds, or null for an anonymous shopper (the transcript then says "Shopper"). */
export function shopperName(c: Pick<InboxConversation, 'user' | 'userData'>): string | null {
  const data = c.userData ?? {};
  const first = nameValue(data.firstName);
  const last = nameValue(data.lastName);
  return (
    nameValue(c.user?.name) ??
    nameValue(data.name) ??
    (first ? (last ? `${first} ${last}` : first) : null) ??
    nameValue(c.user?.email) ??
    nameValue(data.email)
  );
}

export const STEP_STATUS_TEXT: Record<OrderStepStatus, string> = {
  completed: 'Completed',
  in_progress: 'In progress',
  pending: 'Pending',
  failed: 'Failed',
};

/** A message's text on one line, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The queue's preview line: the last message, who wrote it, cut for one line. */
export function previewText(c: InboxConversation, max = 120): string {
  const last = c.lastMessage;
  if (!last) return '';
  const cut = oneLine(last.text, max);
  const who = last.role === 'user' ? 'Shopper' : last.role === 'agent' ? 'Agent' : 'Assistant';
  return `${who}: ${cut}`;
}

/** "waiting 4 min" as an agent reads it: seconds under a minute, minutes under two hours, then hours and days. */
export function waitedText(sinceIso: string, nowMs: number): string {
  const since = new Date(sinceIso).getTime();
  if (Number.isNaN(since)) return '';
  const seconds = Math.max(0, Math.round((nowMs - since) / 1000));
  if (seconds < 60) return 'under a minute';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

export const MODE_TEXT: Record<ConversationMode, string> = {
  assistant: 'Assistant',
  waiting: 'Waiting for a person',
  agent: 'With an agent',
};
