import { action, effect, signal } from '@preact/signals';
import type { AgentIdentity, InboxWidgetsResponse, PresenceStatus } from '../protocol/inbox';
import { type ApiError, type ConsoleApi, isSendableKey } from './api';
import { createCatalogApi } from './catalog/catalog-api';
import { createCatalogStore } from './catalog/catalog-store';
import { type ConversationStoreOptions, createConversationStore } from './conversation-store';
import { createEventsApi } from './events/events-api';
import { createEventsStore } from './events/events-store';
import { createInsightsApi } from './insights/insights-api';
import { createInsightsStore } from './insights/insights-store';
import { createNotifier, type NotifyEnvironment } from './notifier';
import { createQueueStore, POLL_MS } from './queue-store';

/** How often an open console says so (issues 33, 34): the service counts it open for 90 s after each beat. */
export const PRESENCE_BEAT_MS = 30_000;
/** A hidden tab reads the lists this often (issue 34: it still tells of news), a visible one every `POLL_MS`. */
export const HIDDEN_POLL_MS = 15_000;
/** localStorage: the agent's chosen status outlives the tab (an agent who set "Away" comes back away). */
export const STATUS_STORAGE_KEY = '_service_console_status';

import { createPreviewStore } from './settings/preview-store';
import { createSettingsApi } from './settings/settings-api';
import { createSettingsStore, SETTINGS_MESSAGES } from './settings/settings-store';

/** sessionStorage only: the key lives as long as the tab, and "Sign out" removes it at once. */
export const KEY_STORAGE_KEY = '_service_console_key';

export type ConsoleWidget = InboxWidgetsResponse['widgets'][number];

export const MESSAGES = {
  wrongKey: 'That key was not accepted. Check it and try again.',
  expiredKey: 'Your key is no longer accepted. Sign in again with your current key.',
  badKey: 'A key is one word of printable characters, without spaces.',
  emptyKey: 'Enter your key.',
} as const;

/**
 * The console's sections, in navigation order. Issue 22 adds the merchant's (settings, chat preview) here, with
 * `roles: ['admin']` where an agent may not enter.
 */
export const SECTIONS = [
  { id: 'conversations', label: 'Conversations', roles: ['agent', 'admin'] },
  { id: 'insights', label: 'Insights', roles: ['admin'] },
  { id: 'settings', label: 'Settings', roles: ['admin'] },
  { id: 'catalog', label: 'Catalog', roles: ['admin'] },
  { id: 'events', label: 'Events', roles: ['admin'] },
] as const satisfies readonly { id: string; label: string; roles: readonly AgentIdentity['role'][] }[];

export type SectionId = (typeof SECTIONS)[number]['id'];

/** The part of `Storage` the store uses; `sessionStorage` in the page. */
export type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the page gives the store beyond the API: where the key is kept, and whether the tab is seen. */
export interface ConsoleEnvironment {
  storage: KeyStorage | null;
  /** Where the agent's status and notification choices are kept (`localStorage` in the page). */
  preferences?: KeyStorage | null;
  /** Issue 34: the browser's sound and notifications (notifier.ts `browserNotifyEnvironment`); absent: none. */
  notify?: Omit<NotifyEnvironment, 'preferences'>;
  /** True while the tab is visible; polling slows to `hiddenPollMs` otherwise. */
  isVisible?: () => boolean;
  pollMs?: number;
  hiddenPollMs?: number;
  /** How often the console says it is open (issue 33, presence); `PRESENCE_BEAT_MS` unless a test shortens it. */
  presenceMs?: number;
  conversation?: ConversationStoreOptions;
  /** Asks before unsaved settings are left behind (`window.confirm` in the page); absent: leaves. */
  confirm?: (message: string) => boolean;
  /** Hands a file to the browser to save (Insights' CSV; save-file.ts in the page); absent: nothing is saved. */
  saveFile?: (file: Blob, name: string) => void;
  /** The merchant's today (where Insights' default range ends); `new Date()` unless a test sets it. */
  now?: () => Date;
}

/**
 * All of the console's state, in signals: who is signed in (the key, kept in sessionStorage, and `GET /v0/admin/me`),
 * the widget and section shown, the queue and the open conversation. Components read `.value`; every write is a
 * named action. A 401 anywhere means the key stopped working: back to the key form with a message.
 */
export function createConsoleStore(api: ConsoleApi, env: ConsoleEnvironment) {
  const { storage } = env;
  const key = signal<string | null>(null);
  const me = signal<AgentIdentity | null>(null);
  const signInError = signal<string | null>(null);
  const isSigningIn = signal(false);
  const widgets = signal<readonly ConsoleWidget[]>([]);
  const widgetId = signal<string | null>(null);
  const section = signal<SectionId>('conversations');
  /** Issue 34: online (takes new conversations) or away; said with every beat. */
  const presenceStatus = signal<PresenceStatus>(readStatus(env.preferences));

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

  const context = {
    key: () => key.value,
    widgetId: () => widgetId.value,
    agentId: () => me.value?.id ?? null,
    failed: (error: ApiError): string | null => {
      if (error.status === 401) {
        signOut(MESSAGES.expiredKey);
        return null;
      }
      return error.message;
    },
  };

  // Issue 34: sound, the browser's notifications and the title's count, for new waiting shoppers and my shoppers' words.
  const notifier = createNotifier({ ...env.notify, preferences: env.preferences }, (id) => {
    section.value = 'conversations';
    void conversation.open(id);
  });
  const queue = createQueueStore(api, context, Date.now, {
    tell: notifier.tell,
    openId: () => conversation.selectedId.value,
  });
  const conversation = createConversationStore(api, context, {
    ...env.conversation,
    onChanged: (next, previous) => void queue.changed(next, previous),
  });
  // A conversation opened is read: its unread count goes (issue 34).
  effect(() => {
    const id = conversation.selectedId.value;
    if (id !== null) queue.markRead(id);
  });
  const catalog = createCatalogStore(createCatalogApi(api), context);
  const events = createEventsStore(createEventsApi(api), context);
  const insights = createInsightsStore(createInsightsApi(api), context, { now: env.now, save: env.saveFile });
  const settingsApi = createSettingsApi(api.fetch);
  const settings = createSettingsStore(settingsApi, context);
  const preview = createPreviewStore(settingsApi, settings, context);
  /**
   * Unsaved settings are only left behind when the merchant says so; changes stored as the admin's draft are not lost
   * (the next visit puts them back), so leaving then asks nothing.
   */
  const mayLeaveSettings = () =>
    !settings.isDirty.value ||
    preview.sync.value === 'stored' ||
    (env.confirm?.(SETTINGS_MESSAGES.leave) ?? true);
  const resetSettings = () => {
    preview.stop();
    settings.reset();
  };

  // Presence (issue 33): the console is open from sign-in to sign-out or the tab's end, visible or not (an agent in
  // another tab still hears of new shoppers), said every `PRESENCE_BEAT_MS`, well inside the service's two minutes.
  let beatTimer: ReturnType<typeof setInterval> | undefined;
  const beat = () => {
    if (key.value !== null) void api.presence(key.value, presenceStatus.value);
  };
  const startBeating = () => {
    clearInterval(beatTimer);
    beat();
    beatTimer = setInterval(beat, env.presenceMs ?? PRESENCE_BEAT_MS);
  };
  /** The console closes (sign-out, the tab going away): nobody is here any more. */
  const leave = () => {
    clearInterval(beatTimer);
    beatTimer = undefined;
    if (key.value !== null) void api.presence(key.value, false);
  };
  /** The agent's choice: said at once (round robin acts within seconds) and kept for the next visit. */
  const setPresence = action((status: PresenceStatus, isFromOtherTab = false) => {
    if (status === presenceStatus.value) return;
    presenceStatus.value = status;
    // Another tab of the console already said it and stored it: this one only follows, or the two would flap.
    if (isFromOtherTab) return;
    try {
      env.preferences?.setItem(STATUS_STORAGE_KEY, status);
    } catch {
      // Storage disabled: the choice lasts for this visit.
    }
    if (beatTimer !== undefined) startBeating();
  });

  let pollTimer: ReturnType<typeof setInterval> | undefined;
  const stopPolling = () => {
    clearInterval(pollTimer);
    pollTimer = undefined;
  };
  /** When the lists were last read while the tab was hidden. */
  let hiddenReadAt = 0;
  const poll = () => {
    if (key.value === null) return;
    if (env.isVisible && !env.isVisible()) {
      // Issue 34: a hidden tab still hears of new shoppers and messages (the sound, the browser's notification, the
      // title), reading the lists every `HIDDEN_POLL_MS` instead of every tick; the open conversation waits.
      const at = Date.now();
      if (at - hiddenReadAt < (env.hiddenPollMs ?? HIDDEN_POLL_MS)) return;
      hiddenReadAt = at;
      void queue.refresh({ isPoll: true });
      return;
    }
    void queue.refresh({ isPoll: true });
    if (conversation.status.value === 'ready') void conversation.refresh();
  };
  const startPolling = () => {
    stopPolling();
    pollTimer = setInterval(poll, env.pollMs ?? POLL_MS);
  };

  const signOut = action((message: string | null = null) => {
    stopPolling();
    // Said with the key still known; a key the service no longer accepts has no presence to take back anyway.
    if (message === null) leave();
    else clearInterval(beatTimer);
    storeKey(null);
    key.value = null;
    me.value = null;
    signInError.value = message;
    isSigningIn.value = false;
    widgets.value = [];
    widgetId.value = null;
    section.value = 'conversations';
    queue.reset();
    conversation.close();
    catalog.reset();
    insights.reset(true);
    resetSettings();
  });

  /** False when the widget stays (unknown, or unsaved settings the merchant keeps). */
  const selectWidget = action((id: string): boolean => {
    if (!widgets.value.some((w) => w.id === id)) return false;
    if (id !== widgetId.value && !mayLeaveSettings()) return false;
    widgetId.value = id;
    queue.reset();
    conversation.close();
    resetSettings();
    void queue.refresh();
    if (section.value === 'settings') void settings.load();
    return true;
  });

  const signedIn = action((candidate: string, agent: AgentIdentity, list: readonly ConsoleWidget[]) => {
    storeKey(candidate);
    key.value = candidate;
    me.value = agent;
    signInError.value = null;
    isSigningIn.value = false;
    widgets.value = list;
    if (list.length > 0) selectWidget(list[0].id);
    startPolling();
    startBeating();
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

  /** Shows a section the signed-in role may enter; any other stays where it is. */
  const showSection = action((id: SectionId) => {
    const role = me.value?.role;
    const isAllowed = SECTIONS.some(
      (s) => s.id === id && role !== undefined && (s.roles as readonly string[]).includes(role),
    );
    if (!isAllowed || id === section.value) return;
    if (section.value === 'settings' && !mayLeaveSettings()) return;
    // Settings left: the next visit starts from the live version again.
    if (section.value === 'settings') resetSettings();
    section.value = id;
    if (id === 'settings') void settings.ensureLoaded();
  });

  const enter = async (candidate: string, isResume: boolean) => {
    isSigningIn.value = true;
    signInError.value = null;
    const who = await api.me(candidate);
    if (!who.ok) return refused(who.error, isResume);
    const list = await api.widgets(candidate);
    if (!list.ok) return refused(list.error, isResume);
    signedIn(candidate, who.value.agent, list.value.widgets);
  };

  return {
    key,
    me,
    signInError,
    isSigningIn,
    widgets,
    widgetId,
    section,
    presenceStatus,
    setPresence,
    notifier,
    queue,
    conversation,
    catalog,
    events,
    insights,
    settings,
    preview,

    /** Checks the key with the service (`GET /v0/admin/me`); only an accepted key is kept (in sessionStorage). */
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
    signOut: () => {
      if (mayLeaveSettings()) signOut(null);
    },
    selectWidget,
    showSection,
    /**
     * Issue 35, "Add to knowledge" on Insights: Settings → Knowledge for the same widget, with a new section titled
     * with the question and the focus in its text.
     */
    addToKnowledge: action((question: string) => {
      const id = widgetId.value;
      if (id === null || me.value?.role !== 'admin') return;
      settings.queueKnowledge(id, question);
      showSection('settings');
    }),
    /** Reads the lists at once (the tab became visible again). */
    poll,
    /** The tab goes away (`pagehide`): nobody is at this console any more. */
    leave,
    /** The tab is back from the browser's back-forward cache (`pageshow`): here again, if still signed in. */
    returned: () => {
      if (key.value !== null) startBeating();
    },
    /**
     * Issue 34: another console tab of this browser changed the status (a `storage` event) or closed (it said
     * "nobody is here" to the service as it went): this tab follows the status, and says it is still open.
     */
    otherTab(change: { status?: string | null; closed?: boolean }) {
      if (change.status === 'online' || change.status === 'away') setPresence(change.status, true);
      if (change.closed && key.value !== null && beatTimer !== undefined) beat();
    },
    /** The sections the signed-in role may enter. */
    sections: () =>
      SECTIONS.filter((s) => me.value !== null && (s.roles as readonly string[]).includes(me.value.role)),
    /**
     * Keeps `document.title` on the waiting count and my shoppers' unread messages: "(3) Console · service-widget"
     * (issue 34: unless the agent switched the count off). Returns the stop function.
     */
    syncTitle(doc: Pick<Document, 'title'>): () => void {
      return effect(() => {
        const count =
          key.value === null || !notifier.preferences.value.title
            ? 0
            : queue.waitingCount() + queue.unreadCount();
        doc.title = `${count > 0 ? `(${count}) ` : ''}Console · service-widget`;
      });
    },
  };
}

export type ConsoleStore = ReturnType<typeof createConsoleStore>;

function readStatus(preferences: KeyStorage | null | undefined): PresenceStatus {
  try {
    return preferences?.getItem(STATUS_STORAGE_KEY) === 'away' ? 'away' : 'online';
  } catch {
    return 'online';
  }
}
