import type { EditableWidgetSettings, SettingsVersion } from '../../protocol/widget-settings';
import type { Db } from '../platform/database/db';

// Issue 22: the widget_settings_versions table (migration 022). Every write is one INSERT guarded by the unique
// (widget_id, version): no lock, no read-then-write window.

export interface StoredVersion {
  /** The row's id: rises with every version of any widget. */
  id: number;
  widgetId: string;
  version: number;
  settings: EditableWidgetSettings;
}

export interface NewVersion {
  settings: EditableWidgetSettings;
  who: string;
  summary: string;
  rollbackOf?: number;
}

interface Row {
  id: string | number;
  widget_id: string;
  version: number;
  settings: string;
}

const storedOf = (row: Row): StoredVersion => ({
  id: Number(row.id),
  widgetId: row.widget_id,
  version: row.version,
  // Read as text and parsed here, so both backends hand back the same plain object.
  settings: JSON.parse(row.settings) as EditableWidgetSettings,
});

export interface SettingsStore {
  /** Version 1 from the config file, unless the widget has a version already (several instances: one insert). */
  seed(widgetId: string, settings: EditableWidgetSettings): Promise<boolean>;
  /** The newest version of each of these widgets. */
  latest(widgetIds: readonly string[]): Promise<StoredVersion[]>;
  /** The highest row id of all versions (0: none): what changes whenever any widget gets a version. */
  maxId(): Promise<number>;
  /**
   * Adds version `baseVersion + 1`, only if `baseVersion` is the newest: null when another save came first (or the
   * base does not exist). Two saves from one base: exactly one gets the row.
   */
  append(widgetId: string, baseVersion: number, next: NewVersion): Promise<number | null>;
  /** The newest version the config file gave (`who` = 'config'). */
  latestFromConfig(widgetId: string): Promise<StoredVersion | undefined>;
  versions(widgetId: string): Promise<SettingsVersion[]>;
  version(widgetId: string, version: number): Promise<StoredVersion | undefined>;
}

export function createSettingsStore(db: Db): SettingsStore {
  return {
    async seed(widgetId, settings) {
      const rows = await db.query(
        `INSERT INTO widget_settings_versions (widget_id, version, settings, who, summary)
         VALUES ($1, 1, $2::json, 'config', 'from the config file')
         ON CONFLICT (widget_id, version) DO NOTHING RETURNING id`,
        [widgetId, JSON.stringify(settings)],
      );
      return rows.length === 1;
    },
    async latest(widgetIds) {
      if (widgetIds.length === 0) return [];
      const rows = await db.query<Row>(
        `SELECT DISTINCT ON (widget_id) id, widget_id, version, settings::text AS settings
           FROM widget_settings_versions WHERE widget_id = ANY($1::text[])
          ORDER BY widget_id, version DESC`,
        [widgetIds],
      );
      return rows.map(storedOf);
    },
    async maxId() {
      const [row] = await db.query<{ id: string | number | null }>(
        'SELECT max(id) AS id FROM widget_settings_versions',
      );
      return Number(row?.id ?? 0);
    },
    async append(widgetId, baseVersion, next) {
      // The base must exist and version base+1 must not: together, the base is the newest (versions have no gaps).
      const rows = await db.query<{ version: number }>(
        `INSERT INTO widget_settings_versions (widget_id, version, settings, who, summary, rollback_of)
         SELECT $1, $2::integer + 1, $3::json, $4, $5, $6
          WHERE EXISTS (SELECT 1 FROM widget_settings_versions WHERE widget_id = $1 AND version = $2)
         ON CONFLICT (widget_id, version) DO NOTHING RETURNING version`,
        [
          widgetId,
          baseVersion,
          JSON.stringify(next.settings),
          next.who,
          next.summary,
          next.rollbackOf ?? null,
        ],
      );
      return rows[0]?.version ?? null;
    },
    async latestFromConfig(widgetId) {
      const [row] = await db.query<Row>(
        `SELECT id, widget_id, version, settings::text AS settings FROM widget_settings_versions
          WHERE widget_id = $1 AND who = 'config' ORDER BY version DESC LIMIT 1`,
        [widgetId],
      );
      return row ? storedOf(row) : undefined;
    },
    async versions(widgetId) {
      const rows = await db.query<{
        version: number;
        who: string;
        created_at: Date | string;
        summary: string;
        rollback_of: number | null;
      }>(
        `SELECT version, who, created_at, summary, rollback_of FROM widget_settings_versions
          WHERE widget_id = $1 ORDER BY version DESC`,
        [widgetId],
      );
      return rows.map((r) => ({
        version: r.version,
        who: r.who,
        when: new Date(r.created_at).toISOString(),
        summary: r.summary,
        ...(r.rollback_of === null ? {} : { rollbackOf: r.rollback_of }),
      }));
    },
    async version(widgetId, version) {
      const [row] = await db.query<Row>(
        `SELECT id, widget_id, version, settings::text AS settings FROM widget_settings_versions
          WHERE widget_id = $1 AND version = $2`,
        [widgetId, version],
      );
      return row ? storedOf(row) : undefined;
    },
  };
}
