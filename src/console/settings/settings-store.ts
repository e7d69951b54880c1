import { action, batch, computed, signal } from '@preact/signals';
import {
  type EditableWidgetSettings,
  INVALID_SETTINGS,
  type SettingsIssue,
  type SettingsVersion,
  VERSION_CONFLICT,
} from '../../protocol/widget-settings';
import { SETTINGS_TEXT_MAX } from '../../protocol/widget-settings-fields';
import { oneLine } from '../format';
import type { LoadStatus, QueueContext } from '../queue-store';
import type { SettingsApi } from './settings-api';
import { type Check, checkSettings } from './settings-checks';
import { diffSettings, type SettingsChange } from './settings-diff';

/** What the settings section needs from the signed-in session (the queue's context: key, widget, 401 handling). */
export type SettingsContext = Pick<QueueContext, 'key' | 'widgetId' | 'failed'>;

/** One message beside a field: the console's own check, or the service's verdict on the last save. */
export interface FieldIssue {
  path: string;
  message: string;
  level: Check['level'];
  source: 'console' | 'service';
}

export type SaveNotice =
  | { kind: 'saved'; version: number }
  | { kind: 'rolled-back'; version: number; to: number }
  | { kind: 'invalid'; count: number }
  | { kind: 'conflict' }
  | { kind: 'error'; message: string };

export interface VersionDiff {
  version: number;
  status: LoadStatus;
  error: string | null;
  changes: SettingsChange[];
  /** False for version 1, the config file's seed: compared with nothing. */
  hasPrevious: boolean;
}

/** A field the section should show and focus: its editor switched to, then the control at `path` (issue 35). */
export interface RevealRequest {
  editor: 'knowledge';
  path: string;
}

export const SETTINGS_MESSAGES = {
  conflict:
    'Another save came first: the settings changed since you started editing. Reload to edit the latest version; your changes here are then discarded.',
  leave: 'Your settings changes are not saved. Leave and discard them?',
} as const;

const clone = <T>(value: T): T => structuredClone(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The widget's settings as the merchant edits them, in signals: the live version (`saved`) and a working copy
 * (`draft`) the editors change through `edit`; the console's checks as they type and the service's issues after a
 * refused save, by the config file's path; the save with `baseVersion` (a `409` is shown, never resolved silently);
 * the versions, a version's diff against the one before, and rollback.
 */
export function createSettingsStore(api: SettingsApi, ctx: SettingsContext) {
  const widgetId = signal<string | null>(null);
  const status = signal<LoadStatus>('idle');
  const loadError = signal<string | null>(null);
  const version = signal<number | null>(null);
  const saved = signal<EditableWidgetSettings | null>(null);
  const draft = signal<EditableWidgetSettings | null>(null);
  const serviceIssues = signal<readonly SettingsIssue[]>([]);
  const isSaving = signal(false);
  const notice = signal<SaveNotice | null>(null);
  /** Moves after a refused save: the section then puts the focus on the first field with an error. */
  const focusRequest = signal(0);
  const versions = signal<readonly SettingsVersion[]>([]);
  const versionsStatus = signal<LoadStatus>('idle');
  const versionsError = signal<string | null>(null);
  const diff = signal<VersionDiff | null>(null);
  /**
   * Issue 35: a knowledge section to add for a question the assistant could not answer ("Add to knowledge" on the
   * Insights page), waiting until the editors hold what the merchant would continue from (the live version, or the
   * admin's stored draft once the preview put it back), so nothing of that draft is written over.
   */
  const pendingKnowledge = signal<{ widgetId: string; title: string } | null>(null);
  /** Moves when a field must be shown and focused (a knowledge section just added). */
  const reveal = signal<RevealRequest | null>(null);
  const versionCache = new Map<string, EditableWidgetSettings>();

  const checks = computed(() => (draft.value ? checkSettings(draft.value) : []));
  const issues = computed((): FieldIssue[] => [
    ...serviceIssues.value.map((i) => ({ ...i, level: 'error' as const, source: 'service' as const })),
    ...checks.value.map((c) => ({ ...c, source: 'console' as const })),
  ]);
  const errorCount = computed(() => issues.value.filter((i) => i.level === 'error').length);
  /**
   * Fields just added and still to be written (a new knowledge section's title and text): the console's own checks
   * of them ("write the section's text") are held back until the merchant edits them or tries to save, so a section
   * does not open in red before anything was typed. They still count in `errorCount`: nothing incomplete is saved,
   * and the preview keeps the last valid draft meanwhile.
   */
  const held = signal<ReadonlySet<string>>(new Set());
  /** The issues shown beside the fields and counted on the editors' tabs: all but the held checks. */
  const shownIssues = computed(() =>
    held.value.size === 0
      ? issues.value
      : issues.value.filter((i) => i.source !== 'console' || !held.value.has(i.path)),
  );
  const isDirty = computed(() => draft.value !== null && !same(draft.value, saved.value));

  /** A failure to show: null when the session took it (a 401 signs out). */
  const failure = (error: { status: number; code: string; message: string }) => ctx.failed(error);

  const loaded = action((id: string, v: number, settings: EditableWidgetSettings) => {
    widgetId.value = id;
    version.value = v;
    saved.value = clone(settings);
    draft.value = clone(settings);
    serviceIssues.value = [];
    status.value = 'ready';
    loadError.value = null;
  });

  async function load(): Promise<void> {
    const key = ctx.key();
    const id = ctx.widgetId();
    if (key === null || id === null) return;
    batch(() => {
      if (widgetId.value !== id) {
        draft.value = null;
        saved.value = null;
        version.value = null;
        versions.value = [];
        versionsStatus.value = 'idle';
        diff.value = null;
        versionCache.clear();
      }
      widgetId.value = id;
      status.value = 'loading';
      notice.value = null;
    });
    const res = await api.get(key, id);
    if (ctx.widgetId() !== id) return;
    if (!res.ok) {
      const message = failure(res.error);
      batch(() => {
        status.value = 'error';
        loadError.value = message;
      });
      return;
    }
    loaded(id, res.value.version, res.value.settings);
  }

  async function loadVersions(): Promise<void> {
    const key = ctx.key();
    const id = widgetId.value;
    if (key === null || id === null) return;
    versionsStatus.value = 'loading';
    const res = await api.versions(key, id);
    if (widgetId.value !== id) return;
    if (!res.ok) {
      batch(() => {
        versionsStatus.value = 'error';
        versionsError.value = failure(res.error);
      });
      return;
    }
    batch(() => {
      versions.value = res.value.versions;
      versionsStatus.value = 'ready';
      versionsError.value = null;
    });
  }

  async function fetchVersion(key: string, id: string, v: number) {
    const cacheKey = `${id}\n${v}`;
    const cached = versionCache.get(cacheKey);
    if (cached) return { ok: true as const, value: cached };
    const res = await api.version(key, id, v);
    if (!res.ok) return res;
    versionCache.set(cacheKey, res.value.settings);
    return { ok: true as const, value: res.value.settings };
  }

  /** After a save or a rollback: the notice, and the versions list again if it was read. */
  const afterSave = async (next: SaveNotice) => {
    notice.value = next;
    if (versionsStatus.value !== 'idle') await loadVersions();
  };

  return {
    widgetId,
    status,
    loadError,
    version,
    saved,
    draft,
    serviceIssues,
    isSaving,
    notice,
    focusRequest,
    versions,
    versionsStatus,
    versionsError,
    diff,
    checks,
    issues,
    errorCount,
    shownIssues,
    isDirty,
    pendingKnowledge,
    reveal,

    /** Reads the selected widget's live version; a working copy starts from it (what was edited is dropped). */
    load,
    /** Loads the widget's settings when the section opens, unless this widget's are loaded already. */
    ensureLoaded(): Promise<void> {
      if (widgetId.value === ctx.widgetId() && status.value !== 'idle' && status.value !== 'error')
        return Promise.resolve();
      return load();
    },

    /**
     * Changes the working copy. `paths` are the config file's paths the change touches (`title`, `actions[2]`,
     * `actions`): the service's issues at or under them are cleared, since they were about the values just replaced.
     */
    edit: action((paths: string | readonly string[], change: (settings: EditableWidgetSettings) => void) => {
      if (draft.value === null) return;
      const next = clone(draft.value);
      change(next);
      draft.value = next;
      const touched = typeof paths === 'string' ? [paths] : paths;
      const isTouched = (issue: string) =>
        touched.some((p) => issue === p || issue.startsWith(`${p}.`) || issue.startsWith(`${p}[`));
      serviceIssues.value = serviceIssues.value.filter((i) => !isTouched(i.path));
      if ([...held.value].some(isTouched)) held.value = new Set([...held.value].filter((p) => !isTouched(p)));
      if (notice.value?.kind === 'saved' || notice.value?.kind === 'rolled-back') notice.value = null;
    }),

    /** Holds back the console's checks of fields just added until they are edited or a save is tried (`held`). */
    hold: action((paths: readonly string[]) => {
      held.value = new Set([...held.value, ...paths]);
    }),

    /** Issues shown at exactly this path. */
    issuesAt: (path: string): FieldIssue[] => shownIssues.value.filter((i) => i.path === path),

    /**
     * `PUT …/settings` with the version the edit started from. Refused before sending while the console's own checks
     * find an error; a `400` puts the service's issues beside their fields; a `409` says another save came first.
     */
    async save(): Promise<void> {
      const key = ctx.key();
      const id = widgetId.value;
      const base = version.value;
      const settings = draft.value;
      if (key === null || id === null || base === null || settings === null || isSaving.value) return;
      // Tried: every check is shown now, those of fields just added too.
      held.value = new Set();
      if (errorCount.value > 0) {
        batch(() => {
          notice.value = { kind: 'invalid', count: errorCount.value };
          focusRequest.value++;
        });
        return;
      }
      isSaving.value = true;
      notice.value = null;
      const sent = clone(settings);
      const res = await api.save(key, id, { settings: sent, baseVersion: base });
      isSaving.value = false;
      if (widgetId.value !== id) return;
      if (res.ok) {
        batch(() => {
          version.value = res.value.version;
          saved.value = sent;
          serviceIssues.value = [];
        });
        await afterSave({ kind: 'saved', version: res.value.version });
        return;
      }
      const error = res.error;
      if (error.code === VERSION_CONFLICT || error.status === 409) {
        notice.value = { kind: 'conflict' };
        return;
      }
      if (error.code === INVALID_SETTINGS) {
        const found = error.issues ?? [];
        batch(() => {
          serviceIssues.value = found;
          notice.value = { kind: 'invalid', count: found.length };
          focusRequest.value++;
        });
        return;
      }
      const message = failure(error);
      if (message !== null) notice.value = { kind: 'error', message };
    },

    /** Puts settings into the editors as the working copy (the admin's stored draft, continued after a reload). */
    restore: action((settings: EditableWidgetSettings) => {
      if (saved.value === null) return;
      draft.value = clone(settings);
      serviceIssues.value = [];
    }),

    /** Drops the working copy for the live version (after a conflict, or "Discard changes"). */
    discard: action(() => {
      if (saved.value === null) return;
      draft.value = clone(saved.value);
      serviceIssues.value = [];
      notice.value = null;
    }),

    loadVersions,

    /** A version against the one before it, field by field (both read whole from the service). */
    async showDiff(v: number): Promise<void> {
      const key = ctx.key();
      const id = widgetId.value;
      if (key === null || id === null) return;
      const hasPrevious = v > 1;
      diff.value = { version: v, status: 'loading', error: null, changes: [], hasPrevious };
      const [after, before] = await Promise.all([
        fetchVersion(key, id, v),
        hasPrevious ? fetchVersion(key, id, v - 1) : Promise.resolve({ ok: true as const, value: null }),
      ]);
      if (diff.value?.version !== v || widgetId.value !== id) return;
      if (!after.ok || !before.ok) {
        const error = !after.ok ? after.error : !before.ok ? before.error : null;
        diff.value = {
          version: v,
          status: 'error',
          error: error ? failure(error) : null,
          changes: [],
          hasPrevious,
        };
        return;
      }
      diff.value = {
        version: v,
        status: 'ready',
        error: null,
        changes: diffSettings(before.value, after.value),
        hasPrevious,
      };
    },
    closeDiff: action(() => {
      diff.value = null;
    }),

    /** `POST …/settings/rollback`: a new version equal to `to`, live at once; the editors then show it. */
    async rollback(to: number): Promise<boolean> {
      const key = ctx.key();
      const id = widgetId.value;
      if (key === null || id === null || isSaving.value) return false;
      isSaving.value = true;
      const res = await api.rollback(key, id, to);
      isSaving.value = false;
      if (widgetId.value !== id) return false;
      if (!res.ok) {
        const message = failure(res.error);
        if (message !== null) notice.value = { kind: 'error', message };
        return false;
      }
      await load();
      await afterSave({ kind: 'rolled-back', version: res.value.version, to });
      return true;
    },

    /**
     * Issue 35: "Add to knowledge" for a question: a section titled with it (on one line, cut to the title's limit) is
     * added to this widget's knowledge once its settings are in the editors (`applyPendingKnowledge`).
     */
    queueKnowledge: action((forWidget: string, question: string) => {
      pendingKnowledge.value = {
        widgetId: forWidget,
        title: oneLine(question, SETTINGS_TEXT_MAX.knowledgeTitle),
      };
    }),

    /**
     * Adds the queued knowledge section to the working copy, or finds a section with that title already (added and
     * saved before, while older conversations still count the question as unanswered: no twin), and asks the section
     * to focus its text. Called once the editors hold what the merchant continues from: by the preview after it put
     * back the admin's draft, or by the section when there is no preview.
     */
    applyPendingKnowledge: action(() => {
      const pending = pendingKnowledge.value;
      const current = draft.value;
      if (pending === null || current === null || widgetId.value !== pending.widgetId) return;
      pendingKnowledge.value = null;
      const sections = current.knowledge ?? [];
      const title = pending.title.toLowerCase();
      let index = sections.findIndex((s) => s.title.trim().toLowerCase() === title);
      if (index < 0) {
        index = sections.length;
        const next = clone(current);
        next.knowledge = [...sections, { title: pending.title, text: '' }];
        draft.value = next;
        held.value = new Set([...held.value, `knowledge[${index}].text`]);
        if (notice.value?.kind === 'saved' || notice.value?.kind === 'rolled-back') notice.value = null;
      }
      reveal.value = { editor: 'knowledge', path: `knowledge[${index}].text` };
    }),

    /** Signed out or another widget: nothing of this one is kept. */
    reset: action(() => {
      widgetId.value = null;
      status.value = 'idle';
      loadError.value = null;
      version.value = null;
      saved.value = null;
      draft.value = null;
      serviceIssues.value = [];
      notice.value = null;
      versions.value = [];
      versionsStatus.value = 'idle';
      diff.value = null;
      versionCache.clear();
      reveal.value = null;
      pendingKnowledge.value = null;
    }),
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
