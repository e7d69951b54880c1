import { isDeepStrictEqual } from 'node:util';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import type { WidgetSettings } from '../config/service-config';
import { identitySecrets, type VerifyIdentity } from '../platform/identity-token';
import type { Logger } from '../platform/logger';
import { readSigningSecrets } from '../platform/signing-secrets';
import { editableOf, validateSettings } from './editable-settings';
import type { SettingsStore, StoredVersion } from './settings-store';
import { settingsSummary } from './settings-summary';

// Issue 22 (REFERENCES §11, Unleash): the service reads every widget's settings from here, never from the config
// file. It holds the newest version of each widget of the config file, with the file's secrets joined in, and reads
// them again whenever the highest version id moves: at once on the instance that saved (`settingsChanged()` after
// the insert), on the others when they hear its NOTIFY (issue 23, runtime.ts), and within `pollMs` in any case (a
// poll of one indexed max(), the safety net). A widget removed from the config file is out of service (its versions stay, and come back with it).

export interface WidgetRegistry {
  /** The widget's live settings, secrets joined in; undefined for a widget that is not in the config file. */
  get(id: string): WidgetSettings | undefined;
  /** Every widget's live settings, in the config file's order; iterating it always sees the newest. */
  readonly widgets: Iterable<WidgetSettings>;
  /** The live version number of the widget. */
  versionOf(id: string): number | undefined;
  signingSecretOf(id: string): string | undefined;
  identityOf(id: string): VerifyIdentity | undefined;
  /** Called with a widget whose settings changed (after the registry holds them). */
  onChange(listener: (widget: WidgetSettings, previous: WidgetSettings) => void): void;
  /**
   * The one notification point: some widget may have a new version. Reads the newest versions again when the highest
   * version id moved; resolves when this instance serves them. The poll calls it; so does a save; issue 23's NOTIFY.
   */
  settingsChanged(): Promise<void>;
  close(): void;
}

export interface RegistryOptions {
  store: SettingsStore;
  /** The config file's widgets: which widgets exist, their seed, and their secrets. */
  fileWidgets: readonly WidgetSettings[];
  logger: Logger;
  /** How often to look for versions saved on other instances; undefined: never (the only instance). */
  pollMs?: number;
  env?: NodeJS.ProcessEnv;
}

interface Entry {
  widget: WidgetSettings;
  version: number;
  signingSecret?: string;
  identity?: VerifyIdentity;
}

/**
 * Version 1 from the config file for a widget with none. Afterwards the console's versions stand across restarts,
 * unless the widget in the config file itself changed since the file last gave a version: then the file's new content
 * is a new version (`config`) on top of the newest, so an edited file is never silently ignored. Instances starting at
 * once with the same file add it once (the unique version; the loser finds the file's content already there).
 */
async function followConfigFile(store: SettingsStore, widget: WidgetSettings, logger: Logger): Promise<void> {
  // As stored: a JSON round trip drops what JSON has no room for (undefined fields).
  const fromFile = JSON.parse(JSON.stringify(editableOf(widget))) as EditableWidgetSettings;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await store.seed(widget.id, fromFile)) return;
    // The newest first, then the file's last: a version another instance adds after the first read makes this
    // append fail (its base is no longer the newest), and one added before it is seen by the second. The other order
    // let an instance that read the file's last before another's append, and the newest after it, add it again.
    const [latest] = await store.latest([widget.id]);
    const lastFromFile = await store.latestFromConfig(widget.id);
    if (lastFromFile && isDeepStrictEqual(lastFromFile.settings, fromFile)) return;
    const version = await store.append(widget.id, latest.version, {
      settings: fromFile,
      who: 'config',
      summary: `the config file changed: ${settingsSummary(fromFile, lastFromFile?.settings ?? latest.settings)}`,
    });
    if (version !== null) {
      logger.info('the config file changed a widget: a new settings version', {
        widgetId: widget.id,
        version,
      });
      return;
    }
  }
}

/**
 * Seeds each widget of the config file that has no version yet with version 1 from the file, loads the newest of
 * each, and starts following new ones. Throws, like a bad config file, when a stored version cannot run here (an
 * environment variable it names is not set).
 */
export async function openWidgetRegistry({
  store,
  fileWidgets,
  logger,
  pollMs,
  env = process.env,
}: RegistryOptions): Promise<WidgetRegistry> {
  const fileById = new Map(fileWidgets.map((w) => [w.id, w]));
  for (const widget of fileWidgets) await followConfigFile(store, widget, logger);

  const entries = new Map<string, Entry>();
  const listeners: ((widget: WidgetSettings, previous: WidgetSettings) => void)[] = [];
  let seenId = -1;

  /** The stored settings as this instance would run them; a string says why it cannot. */
  const entryOf = (stored: StoredVersion): Entry | string => {
    const file = fileById.get(stored.widgetId) as WidgetSettings;
    const checked = validateSettings(stored.settings, file, env);
    if (!checked.ok)
      return `version ${stored.version}: ${checked.error.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
    const widget = checked.value;
    const signing = readSigningSecrets([widget], env);
    const identity = identitySecrets([widget], env);
    return {
      widget,
      version: stored.version,
      signingSecret: signing.ok ? signing.value.get(widget.id) : undefined,
      identity: identity.ok ? identity.value.get(widget.id) : undefined,
    };
  };

  const load = async (isStart: boolean) => {
    const maxId = await store.maxId();
    if (maxId === seenId) return;
    for (const stored of await store.latest([...fileById.keys()])) {
      const current = entries.get(stored.widgetId);
      if (current && current.version === stored.version) continue;
      const next = entryOf(stored);
      if (typeof next === 'string') {
        if (isStart)
          throw new Error(`widget ${stored.widgetId}: the stored settings cannot run here: ${next}`);
        // Another instance saved what this one cannot run (its environment lacks a variable): keep serving the last.
        logger.error('a new settings version cannot run on this instance; the previous stays live', {
          widgetId: stored.widgetId,
          problem: next,
        });
        continue;
      }
      entries.set(stored.widgetId, next);
      if (current) {
        logger.info('settings version live', { widgetId: stored.widgetId, version: stored.version });
        for (const listener of listeners) listener(next.widget, current.widget);
      }
    }
    seenId = maxId;
  };
  await load(true);

  // One load at a time. A call while one runs gets the next load, after it (a version may have landed meanwhile);
  // calls while that one waits share it, so a slow database never piles loads up.
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const start = () => {
    running = load(false).finally(() => {
      running = undefined;
    });
    return running;
  };
  const settingsChanged = (): Promise<void> => {
    if (!running) return start();
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return start();
      });
    return queued;
  };

  const timer =
    pollMs === undefined
      ? undefined
      : setInterval(
          () =>
            void settingsChanged().catch((error: unknown) =>
              logger.error('settings poll failed', { error: String(error) }),
            ),
          pollMs,
        );
  timer?.unref();

  const widgets: Iterable<WidgetSettings> = {
    *[Symbol.iterator]() {
      for (const id of fileById.keys()) {
        const entry = entries.get(id);
        if (entry) yield entry.widget;
      }
    },
  };

  return {
    get: (id) => entries.get(id)?.widget,
    widgets,
    versionOf: (id) => entries.get(id)?.version,
    signingSecretOf: (id) => entries.get(id)?.signingSecret,
    identityOf: (id) => entries.get(id)?.identity,
    onChange: (listener) => {
      listeners.push(listener);
    },
    settingsChanged,
    close: () => clearInterval(timer),
  };
}
