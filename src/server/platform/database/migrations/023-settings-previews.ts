import type { Migration } from './migration';

// Issue 22 (DESIGN "Test in the chat preview"): an admin's unsaved settings, and the previews that chat with them.
//
// A draft is one per widget and admin (`who`: the agent id that signed in), separate from the live version and from
// other admins' drafts; `base_version` is the live version it was started from. Settings as validated, without
// secrets, like a version (migration 022).
//
// A preview is a token for the console's inline widget: only its SHA-256 is stored (the token goes to the console
// once). Its conversations belong to the widget id `<widget>~<preview id>`, which no config widget can have (ids are
// letters, digits, "-" and "_"): the queue, the lists, the limits and the retention sweep of the real widget never
// see them, and they are deleted with the preview when it expires. `origin` is the console's, the one origin the
// preview's widget API answers.
export const settingsPreviews: Migration = {
  id: 23,
  name: 'settings-previews',
  sql: `
CREATE TABLE widget_settings_drafts (
  widget_id text NOT NULL,
  who text NOT NULL,
  base_version integer NOT NULL,
  settings json NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (widget_id, who)
);
CREATE TABLE widget_previews (
  id text PRIMARY KEY,
  token_digest text NOT NULL UNIQUE,
  widget_id text NOT NULL,
  who text NOT NULL,
  origin text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX widget_previews_expiry ON widget_previews (expires_at);
`,
};
