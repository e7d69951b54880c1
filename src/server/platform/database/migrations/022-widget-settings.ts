import type { Migration } from './migration';

// Issue 22 (DESIGN "The merchant console"): each widget's settings as versions. The config file seeds version 1 of a
// widget that has none (`who` = 'config'); every save or rollback adds the next version, and the newest is live.
// `settings` is the widget as validated (src/server/config/service-config.ts `parseWidget`) without its id and without secrets:
// `productDataApiKeys` and a feed's `token` stay in the config file, and `…Env` settings only name environment
// variables, so nothing here is a secret. `json`, not `jsonb`: kept as written, in the schema's field order, which is
// the order GET answers and a version's summary lists changes in.
//
// `(widget_id, version)` is unique: two saves from the same base both try version n+1 and one of them finds the row
// taken (ON CONFLICT DO NOTHING), which is how a stale save becomes a 409 without a lock; several instances seeding at
// once likewise insert version 1 once. `id` rises with every insert on any widget: its maximum is the one number an
// instance polls to learn that some widget has a new version (issue 23 replaces the poll with LISTEN/NOTIFY).
export const widgetSettings: Migration = {
  id: 22,
  name: 'widget-settings',
  sql: `
CREATE TABLE widget_settings_versions (
  id bigserial PRIMARY KEY,
  widget_id text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  settings json NOT NULL,
  who text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  summary text NOT NULL,
  rollback_of integer CHECK (rollback_of IS NULL OR (rollback_of >= 1 AND rollback_of < version)),
  UNIQUE (widget_id, version)
);
`,
};
