import { action, signal } from '@preact/signals';
import type { InboxConversation, InboxConversationResponse, InboxWidgetsResponse } from '../protocol/inbox';
import { type ApiError, type InboxApi, isSendableKey } from './api';

/** sessionStorage only: the key lives as long as the tab, and "Sign out" removes it at once. */
export const KEY_STORAGE_KEY = '_service_inbox_admin_key';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export type InboxWidget = InboxWidgetsResponse['widgets'][number];

export const MESSAGES = {
  wrongKey: 'That admin key was not accepted. Check it and try again.',
  expiredKey: 'Your admin key is no longer accepted. Sign in again with the current key.',
  badKey: 'An admin key is one word of printable characters, without spaces.',
  emptyKey: 'Enter the admin key.',
} as const;

/** The part of `Storage` the store uses; `sessionStorage` in the page. */
export type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * All of the inbox page's state, in signals. Components read `.value`; every write is a named action (batched).
 * Requests that were overtaken (another widget picked, another conversation opened) are dropped when they answer.
 */
export function createInboxStore(api: InboxApi, storage: KeyStorage | null) {
  const key = signal<string | null>(null);
  const signInError = signal<string | null>(null);
  const isSigningIn = signal(false);

  const widgets = signal<readonly InboxWidget[]>([]);
  const widgetId = signal<string | null>(null);

  const conversations = signal<readonly InboxConversation[]>([]);
  const nextCursor = signal<string | null>(null);
  const listStatus = signal<LoadStatus>('idle');
  const listError = signal<string | null>(null);

  const selectedId = signal<string | null>(null);
  const detail = signal<InboxConversationResponse | null>(null);
  const detailStatus = signal<LoadStatus>('idle');
  const detailError = signal<string | null>(null);

  let listToken = 0;
  let detailToken = 0;

  const readStoredKey = (): string | null => {
    try {
      return storage?.getItem(KEY_STORAGE_KEY) ?? null;
    } catch {
      return null;
    }
  };
  const storeKey = (value: string | null) => {
    try {
      if (value === null) storage?.removeItem(KEY_STORAGE_KEY);
      else storage?.setItem(KEY_STORAGE_KEY, value);
    } catch {
      // Storage disabled: the key then lasts until the page is left.
    }
  };

  const clearData = action(() => {
    listToken++;
    detailToken++;
    widgets.value = [];
    widgetId.value = null;
    conversations.value = [];
    nextCursor.value = null;
    listStatus.value = 'idle';
    listError.value = null;
    selectedId.value = null;
    detail.value = null;
    detailStatus.value = 'idle';
    detailError.value = null;
  });

  const signOut = action((message: string | null = null) => {
    storeKey(null);
    key.value = null;
    signInError.value = message;
    isSigningIn.value = false;
    clearData();
  });

  /** Every 401 after sign-in means the key was changed in the config: back to the form. */
  const failed = (error: ApiError): string | null => {
    if (error.status === 401) {
      signOut(MESSAGES.expiredKey);
      return null;
    }
    return error.message;
  };

  const showDetail = action((value: InboxConversationResponse) => {
    detail.value = value;
    detailStatus.value = 'ready';
  });

  const detailFailed = action((message: string) => {
    detailStatus.value = 'error';
    detailError.value = message;
    detail.value = null;
  });

  const listFailed = action((message: string) => {
    listStatus.value = 'error';
    listError.value = message;
  });

  const loadConversations = async (more: boolean) => {
    const current = key.value;
    const widget = widgetId.value;
    if (current === null || widget === null) return;
    const token = ++listToken;
    listStatus.value = 'loading';
    listError.value = null;
    const page = await api.conversations(current, widget, more ? nextCursor.value : null);
    if (token !== listToken) return;
    if (!page.ok) {
      const message = failed(page.error);
      if (message !== null) listFailed(message);
      return;
    }
    applyPage(page.value.conversations, page.value.nextCursor, more);
  };

  const applyPage = action(
    (items: readonly InboxConversation[], cursor: string | null, isAppend: boolean) => {
      if (isAppend) {
        // A conversation that became active between two pages can show up on both: keep its first place.
        const seen = new Set(conversations.value.map((c) => c.id));
        conversations.value = [...conversations.value, ...items.filter((c) => !seen.has(c.id))];
      } else {
        conversations.value = items;
      }
      nextCursor.value = cursor;
      listStatus.value = 'ready';
    },
  );

  const selectWidget = action((id: string) => {
    if (!widgets.value.some((w) => w.id === id)) return;
    detailToken++;
    widgetId.value = id;
    conversations.value = [];
    nextCursor.value = null;
    selectedId.value = null;
    detail.value = null;
    detailStatus.value = 'idle';
    detailError.value = null;
    void loadConversations(false);
  });

  const signedIn = action((candidate: string, list: readonly InboxWidget[]) => {
    storeKey(candidate);
    key.value = candidate;
    signInError.value = null;
    isSigningIn.value = false;
    widgets.value = list;
    if (list.length > 0) selectWidget(list[0].id);
  });

  const refused = action((error: ApiError, isResume: boolean) => {
    isSigningIn.value = false;
    if (error.status === 401) {
      signOut(isResume ? MESSAGES.expiredKey : MESSAGES.wrongKey);
      return;
    }
    // Not a verdict on the key (network, server error): a stored key stays, so a reload tries it again.
    signInError.value = error.message;
  });

  const enter = async (candidate: string, isResume: boolean) => {
    isSigningIn.value = true;
    signInError.value = null;
    const answer = await api.widgets(candidate);
    if (answer.ok) signedIn(candidate, answer.value.widgets);
    else refused(answer.error, isResume);
  };

  return {
    key,
    signInError,
    isSigningIn,
    widgets,
    widgetId,
    conversations,
    nextCursor,
    listStatus,
    listError,
    selectedId,
    detail,
    detailStatus,
    detailError,

    /** Checks the key against the service; only an accepted key is kept (in sessionStorage). */
    signIn(candidate: string): Promise<void> {
      const trimmed = candidate.trim();
      if (!trimmed) {
        signInError.value = MESSAGES.emptyKey;
        return Promise.resolve();
      }
      if (!isSendableKey(trimmed)) {
        signInError.value = MESSAGES.badKey;
        return Promise.resolve();
      }
      return enter(trimmed, false);
    },
    /** At page load: signs in again with the key this tab kept, if any. */
    resume(): Promise<void> {
      const stored = readStoredKey();
      if (stored === null || !isSendableKey(stored)) return Promise.resolve();
      return enter(stored, true);
    },
    signOut: () => signOut(null),
    selectWidget,
    refresh: () => loadConversations(false),
    loadMore: () => loadConversations(true),
    async openConversation(id: string): Promise<void> {
      const current = key.value;
      const widget = widgetId.value;
      if (current === null || widget === null) return;
      const token = ++detailToken;
      selectedId.value = id;
      detailStatus.value = 'loading';
      detailError.value = null;
      const answer = await api.conversation(current, widget, id);
      if (token !== detailToken) return;
      if (answer.ok) {
        showDetail(answer.value);
        return;
      }
      const message = failed(answer.error);
      if (message !== null) detailFailed(message);
    },
  };
}

export type InboxStore = ReturnType<typeof createInboxStore>;
