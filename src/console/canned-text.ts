import type { CannedReply, InboxConversation } from '../protocol/inbox';
import { shopperName } from './format';

// Issue 34: canned replies' placeholders, filled from the open conversation as the agent picks one. `{customer.name}`,
// `{customer.firstName}`, `{customer.email}`, `{agent.name}`, `{store.name}`; a fallback after a bar is used when the
// value is unknown (`Hi {customer.firstName|there}`), else the placeholder goes with the space before it. Anything else
// in braces stays as written: the agent sees it in the box and can fix it before sending.

export interface CannedContext {
  conversation: Pick<InboxConversation, 'user' | 'userData'> | null;
  agentName: string;
  storeName: string;
}

const PLACEHOLDER =
  /(\s?)\{(customer\.name|customer\.firstName|customer\.email|agent\.name|store\.name)(?:\|([^{}]*))?\}/g;

/**
 * @example
 * fillCanned('Hi {customer.firstName|there}, {agent.name} here.', { conversation, agentName: 'Anna', storeName: 'Shop' });
 * // → 'Hi Ada, Anna here.'
 */
export function fillCanned(text: string, context: CannedContext): string {
  const c = context.conversation;
  const name = c ? shopperName(c) : null;
  const data = c?.userData ?? {};
  const email = c?.user?.email ?? (typeof data.email === 'string' ? data.email : null);
  const firstName =
    (typeof data.firstName === 'string' && data.firstName.trim()) ||
    (name && !name.includes('@') ? name.split(/\s+/)[0] : null);
  const values: Record<string, string | null> = {
    'customer.name': name && !name.includes('@') ? name : null,
    'customer.firstName': firstName || null,
    'customer.email': email,
    'agent.name': context.agentName,
    'store.name': context.storeName,
  };
  return text.replace(PLACEHOLDER, (_all, space: string, key: string, fallback: string | undefined) => {
    const value = values[key] ?? fallback?.trim() ?? '';
    return value ? `${space}${value}` : '';
  });
}

/** The canned replies a `/word` in the box offers: shortcuts that start with the word first, then those holding it. */
export function matchCanned(replies: readonly CannedReply[], word: string): CannedReply[] {
  const w = word.toLowerCase();
  const starts = replies.filter((r) => r.shortcut.toLowerCase().startsWith(w));
  const holds = replies.filter(
    (r) => !r.shortcut.toLowerCase().startsWith(w) && `${r.shortcut} ${r.text}`.toLowerCase().includes(w),
  );
  return [...starts, ...holds].slice(0, 8);
}

/** The `/word` the caret is at the end of (at the start of the box or after a space), or null. */
export function slashWord(text: string, caret: number): { start: number; word: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([\p{L}\p{N}_-]{0,32})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2].length - 1, word: match[2] };
}
