import type { OrderStepStatus } from '../protocol/cards';
import type { ConversationMode } from '../protocol/chat';
import type { InboxConversation } from '../protocol/inbox';
import type { UserData, UserDataValue } from '../protocol/settings';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** "12 Jun 2026, 14:05" in the agent's time zone; the raw string when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** When the conversation last moved: its last message, else its last context change. */
export const lastActivity = (c: InboxConversation): string => c.lastMessageAt ?? c.updatedAt;

export const messageCountText = (count: number): string => `${count} ${count === 1 ? 'message' : 'messages'}`;

/** A user-data value as an agent reads it: strings as they are, `null` as "null". */
export const userDataValueText = (value: UserDataValue): string =>
  typeof value === 'string' ? value : String(value);

/** One line for the list: `name: Ada · tier: gold · …`, cut at `max` characters. */
export function userDataSummary(userData: UserData | null, max = 120): string {
  if (!userData) return 'No user data';
  const entries = Object.entries(userData);
  if (entries.length === 0) return 'No user data';
  const line = entries.map(([k, v]) => `${k}: ${userDataValueText(v)}`.replace(/\s+/g, ' ')).join(' · ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const STEP_STATUS_TEXT: Record<OrderStepStatus, string> = {
  completed: 'Completed',
  in_progress: 'In progress',
  pending: 'Pending',
  failed: 'Failed',
};

/** The queue's preview line: the last message, who wrote it, cut for one line. */
export function previewText(c: InboxConversation, max = 120): string {
  const last = c.lastMessage;
  if (!last) return '';
  const text = last.text.replace(/\s+/g, ' ').trim();
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
