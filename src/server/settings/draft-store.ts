import { createHash, randomBytes } from 'node:crypto';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import type { Db } from '../platform/database/db';

// Issue 22: drafts and previews (migration 023). A draft is an admin's unsaved settings for a widget; a preview is a
// short-lived token for the console's inline widget, which chats with its admin's draft as it is at each request.

/** How long a preview token lasts; the console asks for a new one before then. */
export const PREVIEW_TTL_MS = 60 * 60_000;

export interface StoredDraft {
  settings: EditableWidgetSettings;
  baseVersion: number;
  savedAt: string;
}

export interface StoredPreview {
  /** Not secret (the token is): names the preview's conversations' widget id, `<widget>~<id>`. */
  id: string;
  widgetId: string;
  who: string;
  origin: string;
  expiresAt: string;
  /** The admin's draft now; undefined when there is none (the preview then shows the live version). */
  draft?: StoredDraft;
}

export interface NewPreview {
  token: string;
  id: string;
  expiresAt: string;
}

export interface DraftStore {
  saveDraft(
    widgetId: string,
    who: string,
    baseVersion: number,
    settings: EditableWidgetSettings,
  ): Promise<string>;
  draft(widgetId: string, who: string): Promise<StoredDraft | undefined>;
  deleteDraft(widgetId: string, who: string): Promise<void>;
  createPreview(widgetId: string, who: string, origin: string, ttlMs?: number): Promise<NewPreview>;
  /** The live preview the token names, with its admin's draft; undefined for an unknown or expired token. */
  preview(token: string): Promise<StoredPreview | undefined>;
  /** Deletes expired previews with their conversations; answers how many previews went. */
  sweepExpired(): Promise<number>;
}

/** The widget id of a preview's conversations: `~` is outside the config file's widget ids, so it never collides. */
export const previewWidgetId = (widgetId: string, previewId: string) => `${widgetId}~${previewId}`;

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (value: Date | string) => new Date(value).toISOString();

export function createDraftStore(db: Db): DraftStore {
  return {
    async saveDraft(widgetId, who, baseVersion, settings) {
      const [row] = await db.query<{ saved_at: Date | string }>(
        `INSERT INTO widget_settings_drafts (widget_id, who, base_version, settings)
         VALUES ($1, $2, $3, $4::json)
         ON CONFLICT (widget_id, who)
         DO UPDATE SET base_version = excluded.base_version, settings = excluded.settings, saved_at = now()
         RETURNING saved_at`,
        [widgetId, who, baseVersion, JSON.stringify(settings)],
      );
      return iso(row.saved_at);
    },
    async draft(widgetId, who) {
      const [row] = await db.query<{ settings: string; base_version: number; saved_at: Date | string }>(
        `SELECT settings::text AS settings, base_version, saved_at FROM widget_settings_drafts
          WHERE widget_id = $1 AND who = $2`,
        [widgetId, who],
      );
      return row
        ? { settings: JSON.parse(row.settings), baseVersion: row.base_version, savedAt: iso(row.saved_at) }
        : undefined;
    },
    async deleteDraft(widgetId, who) {
      await db.query('DELETE FROM widget_settings_drafts WHERE widget_id = $1 AND who = $2', [widgetId, who]);
    },
    async createPreview(widgetId, who, origin, ttlMs = PREVIEW_TTL_MS) {
      // 256 random bits, base64url: the token is the only credential of the preview's widget API.
      const token = `pv_${randomBytes(32).toString('base64url')}`;
      const id = randomBytes(9)
        .toString('base64url')
        .replace(/[^A-Za-z0-9]/g, 'x');
      const [row] = await db.query<{ expires_at: Date | string }>(
        `INSERT INTO widget_previews (id, token_digest, widget_id, who, origin, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + $6::int * interval '1 millisecond') RETURNING expires_at`,
        [id, digestOf(token), widgetId, who, origin, ttlMs],
      );
      return { token, id, expiresAt: iso(row.expires_at) };
    },
    async preview(token) {
      // A lookup by digest: the stored value reveals nothing, and an equality on a hash leaks nothing by its timing.
      const [row] = await db.query<{
        id: string;
        widget_id: string;
        who: string;
        origin: string;
        expires_at: Date | string;
        settings: string | null;
        base_version: number | null;
        saved_at: Date | string | null;
      }>(
        `SELECT p.id, p.widget_id, p.who, p.origin, p.expires_at,
                d.settings::text AS settings, d.base_version, d.saved_at
           FROM widget_previews p
           LEFT JOIN widget_settings_drafts d ON d.widget_id = p.widget_id AND d.who = p.who
          WHERE p.token_digest = $1 AND p.expires_at > now()`,
        [digestOf(token)],
      );
      if (!row) return undefined;
      return {
        id: row.id,
        widgetId: row.widget_id,
        who: row.who,
        origin: row.origin,
        expiresAt: iso(row.expires_at),
        ...(row.settings !== null && {
          draft: {
            settings: JSON.parse(row.settings),
            baseVersion: row.base_version as number,
            savedAt: iso(row.saved_at as Date),
          },
        }),
      };
    },
    async sweepExpired() {
      return db.transaction(async (tx) => {
        const gone = await tx.query<{ id: string; widget_id: string }>(
          'DELETE FROM widget_previews WHERE expires_at <= now() RETURNING id, widget_id',
        );
        if (gone.length > 0)
          // Everything a conversation holds goes with it (see conversation-retention.ts).
          await tx.query('DELETE FROM conversations WHERE widget_id = ANY($1::text[])', [
            gone.map((p) => previewWidgetId(p.widget_id, p.id)),
          ]);
        return gone.length;
      });
    },
  };
}
