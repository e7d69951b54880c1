import { batch, effect, signal } from '@preact/signals';
import {
  type EditableWidgetSettings,
  INVALID_SETTINGS,
  type PreviewResponse,
  type TestActionResponse,
} from '../../protocol/widget-settings';
import type { SettingsApi } from './settings-api';
import type { SettingsContext, SettingsStore } from './settings-store';

/**
 * Where the editors stand against the preview: `live` (no changes: the preview shows the live version), `pending` (an
 * edit waits for the debounce), `saving`, `stored` (the preview shows the editors), `invalid` (the editors have
 * errors: the preview shows the last valid draft), `error` (the draft could not be stored).
 */
export type DraftSync = 'live' | 'pending' | 'saving' | 'stored' | 'invalid' | 'error';

/** Why the preview's conversation started again, for the line under the frame. */
export type RestartReason = 'presentation' | 'asked' | 'renewed';

/**
 * The fields the widget reads once, at start (its config): a change restarts the preview. Everything else
 * (instructions, actions, knowledge) is read by the service on each message, so the conversation goes on.
 */
export const PRESENTATION_FIELDS = [
  'title',
  'greeting',
  'themeColor',
  'themeMode',
  'launcherPosition',
  'linkTarget',
  'starters',
  'cart',
] as const satisfies readonly (keyof EditableWidgetSettings)[];

export interface PreviewOptions {
  /** After the last edit, this long before the draft is stored. */
  debounceMs?: number;
  /** A new preview token is asked for this long before the current one expires. */
  renewBeforeMs?: number;
  /** Never sooner than this after the last one (a clock far off must not loop). */
  minRenewWaitMs?: number;
  now?: () => number;
}

export type ActionTestResult =
  | { ok: true; value: TestActionResponse; usedLastValidDraft: boolean }
  | { ok: false; message: string };

const clone = <T>(value: T): T => structuredClone(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const presentationOf = (s: EditableWidgetSettings | null) =>
  s === null ? '' : JSON.stringify(PRESENTATION_FIELDS.map((k) => s[k] ?? null));

/**
 * The chat preview beside the editors: the editors' unsaved changes kept as the admin's draft on the service
 * (`PUT …/settings/draft`, debounced; dropped once the editors equal the live version again, so after a save, a
 * rollback or a discard), the draft found on opening put back into the editors, the preview token renewed before it
 * expires, the preview's conversation restarted when a field the widget reads at start changed, and the action test
 * against the stored draft.
 */
export function createPreviewStore(
  api: SettingsApi,
  settings: SettingsStore,
  ctx: SettingsContext,
  options: PreviewOptions = {},
) {
  const debounceMs = options.debounceMs ?? 600;
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  const minRenewWaitMs = options.minRenewWaitMs ?? 10_000;
  const now = options.now ?? Date.now;

  const sync = signal<DraftSync>('live');
  const syncError = signal<string | null>(null);
  /** When the service last stored the draft (ISO 8601). */
  const savedAt = signal<string | null>(null);
  /** A draft found on opening and put into the editors: when it was saved, and the live version it started from. */
  const restored = signal<{ savedAt: string; baseVersion: number | null; liveVersion: number | null } | null>(
    null,
  );
  const session = signal<PreviewResponse | null>(null);
  const sessionError = signal<string | null>(null);
  /** Moves each time the preview's conversation starts again: the frame is mounted anew. */
  const run = signal(0);
  const restartReason = signal<RestartReason | null>(null);

  /** The widget the preview runs for; null when stopped. */
  let widget: string | null = null;
  /** What the service holds as this admin's draft; null: none (the preview answers with the live version). */
  let stored: EditableWidgetSettings | null = null;
  /** The presentation the preview's widget started with. */
  let shown = '';
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let renewal: ReturnType<typeof setTimeout> | undefined;
  let queue: Promise<void> = Promise.resolve();
  let stopWatching: (() => void) | null = null;

  const effective = () => stored ?? settings.saved.peek();
  const failure = (error: { status: number; code: string; message: string }) => ctx.failed(error);

  const restart = (reason: RestartReason) => {
    shown = presentationOf(effective());
    batch(() => {
      restartReason.value = reason;
      run.value++;
    });
  };

  /** After the draft changed on the service: a restart when the widget would show something else at start. */
  const afterStored = () => {
    if (session.peek() !== null && presentationOf(effective()) !== shown) restart('presentation');
  };

  /** Brings the service's draft in line with the editors: stores them, or drops the draft when they equal live. */
  async function push(): Promise<void> {
    const key = ctx.key();
    const id = widget;
    const base = settings.version.peek();
    const current = settings.draft.peek();
    if (key === null || id === null || base === null || current === null) return;
    if (!settings.isDirty.peek()) {
      if (stored === null) {
        sync.value = 'live';
        return;
      }
      const res = await api.deleteDraft(key, id);
      if (widget !== id) return;
      if (!res.ok && res.error.status !== 404) {
        batch(() => {
          sync.value = 'error';
          syncError.value = failure(res.error);
        });
        return;
      }
      stored = null;
      batch(() => {
        sync.value = settings.isDirty.peek() ? 'pending' : 'live';
        savedAt.value = null;
        syncError.value = null;
      });
      afterStored();
      return;
    }
    // The service would refuse the same (one validator): the editors already show why.
    if (settings.errorCount.peek() > 0) {
      sync.value = 'invalid';
      return;
    }
    if (stored !== null && same(current, stored)) {
      sync.value = 'stored';
      return;
    }
    sync.value = 'saving';
    const sent = clone(current);
    const res = await api.saveDraft(key, id, { settings: sent, baseVersion: base });
    if (widget !== id) return;
    if (res.ok) {
      stored = sent;
      batch(() => {
        savedAt.value = res.value.savedAt;
        syncError.value = null;
        sync.value = same(settings.draft.peek(), sent) ? 'stored' : 'pending';
      });
      afterStored();
      return;
    }
    if (res.error.code === INVALID_SETTINGS) {
      sync.value = 'invalid';
      return;
    }
    batch(() => {
      sync.value = 'error';
      syncError.value = failure(res.error);
    });
  }

  /** Runs `push` after the ones already under way, never two at once. */
  const enqueue = () => {
    queue = queue.then(push, push);
    return queue;
  };

  /** Stores the draft now (the debounce cut short) and waits for it: before an action test. */
  function flush(): Promise<void> {
    clearTimeout(debounce);
    debounce = undefined;
    return enqueue();
  }

  async function renew(): Promise<void> {
    const key = ctx.key();
    const id = widget;
    if (key === null || id === null) return;
    clearTimeout(renewal);
    const res = await api.preview(key, id);
    if (widget !== id) return;
    if (!res.ok) {
      sessionError.value = failure(res.error);
      // Tried again in a minute: a passing failure should not leave the preview dead.
      renewal = setTimeout(() => void renew(), 60_000);
      return;
    }
    const first = session.peek() === null;
    batch(() => {
      session.value = res.value;
      sessionError.value = null;
    });
    // A new token is a new base URL: the widget starts again on it.
    restart(first ? 'asked' : 'renewed');
    if (first) restartReason.value = null;
    const wait = Math.max(minRenewWaitMs, Date.parse(res.value.expiresAt) - now() - renewBeforeMs);
    renewal = setTimeout(() => void renew(), wait);
  }

  /** Stops everything of the widget the preview ran for (signed out, another widget). */
  function stop(): void {
    widget = null;
    stored = null;
    clearTimeout(debounce);
    clearTimeout(renewal);
    stopWatching?.();
    stopWatching = null;
    batch(() => {
      sync.value = 'live';
      syncError.value = null;
      savedAt.value = null;
      restored.value = null;
      session.value = null;
      sessionError.value = null;
      restartReason.value = null;
    });
  }

  return {
    sync,
    syncError,
    savedAt,
    restored,
    session,
    sessionError,
    run,
    restartReason,

    /**
     * Starts the preview for the loaded widget (once per widget): reads the admin's draft and, when the editors have
     * no changes of their own, puts it into them; then keeps the draft in line with the editors and asks for a token.
     */
    async start(): Promise<void> {
      const key = ctx.key();
      const id = settings.widgetId.peek();
      if (key === null || id === null || settings.status.peek() !== 'ready' || widget === id) return;
      stop();
      widget = id;
      const found = await api.draft(key, id);
      if (widget !== id) return;
      if (found.ok && found.value.isDraft) {
        stored = clone(found.value.settings);
        savedAt.value = found.value.savedAt ?? null;
        if (!settings.isDirty.peek() && !same(found.value.settings, settings.saved.peek())) {
          settings.restore(found.value.settings);
          restored.value = {
            savedAt: found.value.savedAt ?? new Date(now()).toISOString(),
            baseVersion: found.value.baseVersion ?? null,
            liveVersion: settings.version.peek(),
          };
        }
      } else if (!found.ok) {
        syncError.value = failure(found.error);
      }
      // Issue 35: a knowledge section asked for from Insights goes onto what the editors continue from, the draft
      // just put back included, and is then stored with it as any edit is.
      settings.applyPendingKnowledge();
      let first = true;
      stopWatching = effect(() => {
        // Read to subscribe: any edit, save, rollback or discard.
        settings.draft.value;
        settings.saved.value;
        const dirty = settings.isDirty.peek();
        clearTimeout(debounce);
        if (first || !dirty) {
          // On opening, and once the editors equal the live version (saved, rolled back, discarded): at once.
          first = false;
          void enqueue();
          return;
        }
        sync.value = 'pending';
        debounce = setTimeout(() => void enqueue(), debounceMs);
      });
      await queue;
      await renew();
    },
    stop,
    flush,

    /** "Restart conversation": the preview's widget starts again, with a new conversation. */
    restart: () => {
      const current = session.peek();
      if (current && Date.parse(current.expiresAt) - now() < renewBeforeMs) void renew();
      else restart('asked');
    },

    /** Drops the restored draft: the editors show the live version again, and the draft is deleted. */
    discardRestored: () => {
      restored.value = null;
      settings.discard();
    },
    dismissRestored: () => {
      restored.value = null;
    },

    /**
     * `POST …/actions/{name}/test` with the draft stored first, so an action not saved yet (or disabled) is the one
     * called. Says when the editors have errors, so the action called is the last valid draft's.
     */
    async testAction(
      name: string,
      params: Record<string, string | number | boolean>,
    ): Promise<ActionTestResult> {
      const key = ctx.key();
      const id = settings.widgetId.peek();
      if (key === null || id === null) return { ok: false, message: 'Sign in again to test the action.' };
      if (widget === id) await flush();
      // With a draft stored, the draft's action (saved or not, enabled or not); without one, the editors equal the
      // live version, whose action is the same (the service answers `404 no_draft` to `draft: true` then).
      const res = await api.testAction(key, id, name, { params, draft: widget === id && stored !== null });
      if (!res.ok) return { ok: false, message: failure(res.error) ?? 'Signed out.' };
      return { ok: true, value: res.value, usedLastValidDraft: sync.peek() === 'invalid' };
    },
  };
}

export type PreviewStore = ReturnType<typeof createPreviewStore>;
