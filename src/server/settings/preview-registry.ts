import type { WidgetSettings } from '../config/service-config';
import type { Logger } from '../platform/logger';
import { readSigningSecrets } from '../platform/signing-secrets';
import { type DraftStore, previewWidgetId } from './draft-store';
import { validateSettings } from './editable-settings';
import type { WidgetRegistry } from './widget-registry';

// Issue 22, the chat preview: the widget a preview token stands for, as the service runs it. Each request through
// `/preview/{token}/…` opens the token (one indexed read), which loads the admin's draft as it is now; the turn it
// starts reads the same settings synchronously here (`get`), like the live widgets from the registry. A preview widget
// is the draft under its own id `<widget>~<preview id>`, answering only the console's origin. Its shopper is anonymous:
// no identity token is verified for a preview id, so an action that requires one is refused as for any guest.

export interface PreviewEntry {
  /** The draft (or the live settings when there is none), under the preview's widget id. */
  widget: WidgetSettings;
  /** The config file's widget the preview stands for: its catalog, fetched documents and signing are the live ones. */
  baseId: string;
  expiresAt: number;
  signingSecret?: string;
  /** What the entry was built from: the draft's save time or the live version. */
  source: string;
}

export interface Previews {
  /** The preview the token names, with the draft as it is now; undefined for an unknown or expired token. */
  open(token: string): Promise<PreviewEntry | undefined>;
  /** A preview widget opened on this instance, by its widget id (`<widget>~<preview id>`). */
  get(id: string): WidgetSettings | undefined;
  /** The config file's widget a preview widget id stands for; undefined for any other id. */
  baseOf(id: string): string | undefined;
  signingSecretOf(id: string): string | undefined;
  /** Forgets expired previews here, and deletes them and their conversations from the database. */
  sweep(): Promise<number>;
}

export interface PreviewsOptions {
  store: DraftStore;
  registry: WidgetRegistry;
  fileWidgets: readonly WidgetSettings[];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

export function createPreviews({
  store,
  registry,
  fileWidgets,
  logger,
  env = process.env,
}: PreviewsOptions): Previews {
  const fileById = new Map(fileWidgets.map((w) => [w.id, w]));
  const entries = new Map<string, PreviewEntry>();

  return {
    async open(token) {
      // Tokens are base64url: anything else is not one, and is not looked up.
      if (!/^pv_[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
      const stored = await store.preview(token);
      if (!stored) return undefined;
      const file = fileById.get(stored.widgetId);
      const live = registry.get(stored.widgetId);
      if (!file || !live) return undefined;
      const id = previewWidgetId(stored.widgetId, stored.id);
      const source = stored.draft
        ? `draft ${stored.draft.savedAt}`
        : `live ${registry.versionOf(stored.widgetId)}`;
      const expiresAt = Date.parse(stored.expiresAt);
      const cached = entries.get(id);
      if (cached?.source === source) {
        cached.expiresAt = expiresAt;
        return cached;
      }
      let settings = live;
      if (stored.draft) {
        // Validated when saved; checked again, as the environment may have changed since (a variable it names).
        const checked = validateSettings(stored.draft.settings, file, env);
        if (checked.ok) settings = checked.value;
        else
          logger.warn('a draft cannot run here: its preview shows the live version', {
            widgetId: stored.widgetId,
            problem: checked.error.map((i) => `${i.path}: ${i.message}`).join('; '),
          });
      }
      const widget: WidgetSettings = {
        ...settings,
        id,
        allowedOrigins: [stored.origin],
      };
      const signing = readSigningSecrets([settings], env);
      const entry: PreviewEntry = {
        widget,
        baseId: stored.widgetId,
        expiresAt,
        signingSecret: signing.ok ? signing.value.get(settings.id) : undefined,
        source,
      };
      entries.set(id, entry);
      return entry;
    },
    get: (id) => entries.get(id)?.widget,
    baseOf: (id) => entries.get(id)?.baseId,
    signingSecretOf: (id) => entries.get(id)?.signingSecret,
    async sweep() {
      const now = Date.now();
      for (const [id, entry] of entries) if (entry.expiresAt <= now) entries.delete(id);
      return store.sweepExpired();
    },
  };
}
