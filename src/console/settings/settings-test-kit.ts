import type { EditableWidgetSettings, SettingsIssue, SettingsVersion } from '../../protocol/widget-settings';
import { INVALID_SETTINGS, VERSION_CONFLICT } from '../../protocol/widget-settings';

// A stand-in for the service's settings routes (branch settings-server), for the console's tests: the protocol's
// shapes and status codes (`widget-settings.ts`) over `fetch`, kept in memory. It judges only what the tests need
// (an unknown URL placeholder at `actions[i].url`, an empty title); the real validator is the service's.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface StandInOptions {
  /** Key → role. */
  keys: Record<string, { id: string; name: string; role: 'agent' | 'admin' }>;
  widgets: Record<string, EditableWidgetSettings>;
  /** The clock of new versions. */
  now?: () => string;
  /** Drafts the admin stored before (the chat preview's `…/settings/draft`), by widget. */
  drafts?: Record<string, EditableWidgetSettings>;
}

export function createSettingsStandIn(options: StandInOptions) {
  const now = options.now ?? (() => new Date().toISOString());
  const history = new Map<string, { meta: SettingsVersion; settings: EditableWidgetSettings }[]>();
  for (const [id, settings] of Object.entries(options.widgets))
    history.set(id, [
      { meta: { version: 1, who: 'config', when: now(), summary: '' }, settings: structuredClone(settings) },
    ]);
  const requests: { method: string; url: string; body: unknown }[] = [];
  const drafts = new Map<string, { settings: EditableWidgetSettings; savedAt: string; baseVersion: number }>(
    Object.entries(options.drafts ?? {}).map(([id, settings]) => [
      id,
      { settings: structuredClone(settings), savedAt: now(), baseVersion: 1 },
    ]),
  );

  const judge = (s: EditableWidgetSettings): SettingsIssue[] => {
    const issues: SettingsIssue[] = [];
    if (s.title !== undefined && !s.title.trim())
      issues.push({ path: 'title', message: 'must not be empty' });
    (s.actions ?? []).forEach((a, i) => {
      const names = new Set((a.parameters ?? []).map((p) => p.name));
      for (const m of a.url.matchAll(/\{([^{}]+)\}/g))
        if (!names.has(m[1]))
          issues.push({
            path: `actions[${i}].url`,
            message: `the URL placeholder {${m[1]}} is not a parameter`,
          });
    });
    return issues;
  };

  const save = (id: string, settings: EditableWidgetSettings, who: string, rollbackOf?: number) => {
    const list = history.get(id) ?? [];
    const previous = list[list.length - 1];
    const version = previous.meta.version + 1;
    const changed = Object.keys({ ...previous.settings, ...settings }).filter(
      (k) =>
        JSON.stringify(previous.settings[k as keyof EditableWidgetSettings]) !==
        JSON.stringify(settings[k as keyof EditableWidgetSettings]),
    );
    list.push({
      meta: { version, who, when: now(), summary: changed.join('; '), ...(rollbackOf ? { rollbackOf } : {}) },
      settings: structuredClone(settings),
    });
    return version;
  };

  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://console.test');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, url: url.pathname, body });
    const auth = new Headers(init?.headers).get('authorization') ?? '';
    const who = options.keys[auth.replace(/^Bearer /, '')];
    if (!who) return json(401, { error: { code: 'unauthorized', message: 'Unknown key.' } });
    if (url.pathname === '/v0/admin/me') return json(200, { agent: who });
    if (url.pathname === '/v0/admin/widgets')
      return json(200, { widgets: Object.keys(options.widgets).map((id) => ({ id, title: id })) });
    const m = /^\/v0\/admin\/widgets\/([^/]+)\/settings(?:\/(versions|rollback|draft)(?:\/(\d+))?)?$/.exec(
      url.pathname,
    );
    if (!m) {
      if (/\/conversations/.test(url.pathname))
        return json(200, { conversations: [], nextCursor: null, counts: { waiting: 0, agent: 0 } });
      return json(404, { error: { code: 'not_found', message: 'No such route.' } });
    }
    if (who.role !== 'admin') return json(403, { error: { code: 'forbidden', message: 'Admins only.' } });
    const id = decodeURIComponent(m[1]);
    const list = history.get(id);
    if (!list) return json(404, { error: { code: 'widget_not_found', message: 'No such widget.' } });
    const latest = list[list.length - 1];
    if (!m[2] && method === 'GET')
      return json(200, { version: latest.meta.version, settings: latest.settings });
    if (!m[2] && method === 'PUT') {
      if (body.baseVersion !== latest.meta.version)
        return json(409, { error: { code: VERSION_CONFLICT, message: 'Another save came first.' } });
      const issues = judge(body.settings);
      if (issues.length > 0)
        return json(400, {
          error: { code: INVALID_SETTINGS, message: 'The settings are not valid.', issues },
        });
      return json(200, { version: save(id, body.settings, who.id) });
    }
    if (m[2] === 'draft') {
      const stored = drafts.get(id);
      if (method === 'GET')
        return json(
          200,
          stored
            ? {
                settings: stored.settings,
                isDraft: true,
                savedAt: stored.savedAt,
                baseVersion: stored.baseVersion,
              }
            : { settings: latest.settings, isDraft: false },
        );
      if (method === 'PUT') {
        const savedAt = now();
        drafts.set(id, { settings: structuredClone(body.settings), savedAt, baseVersion: body.baseVersion });
        return json(200, { savedAt });
      }
      if (method === 'DELETE') {
        drafts.delete(id);
        return new Response(null, { status: 204 });
      }
    }
    if (m[2] === 'versions' && m[3] === undefined)
      return json(200, { versions: list.map((v) => v.meta).reverse() });
    if (m[2] === 'versions') {
      const found = list.find((v) => v.meta.version === Number(m[3]));
      return found
        ? json(200, { version: found.meta.version, settings: found.settings })
        : json(404, { error: { code: 'version_not_found', message: 'No such version.' } });
    }
    if (m[2] === 'rollback' && method === 'POST') {
      const found = list.find((v) => v.meta.version === body.version);
      if (!found) return json(404, { error: { code: 'version_not_found', message: 'No such version.' } });
      return json(200, { version: save(id, found.settings, who.id, found.meta.version) });
    }
    return json(405, { error: { code: 'method_not_allowed', message: 'No.' } });
  };

  return {
    fetch: fetchFn as typeof fetch,
    requests,
    /** Another admin's save, straight into the history (for a conflict). */
    saveElsewhere: (id: string, change: (s: EditableWidgetSettings) => void) => {
      const list = history.get(id) ?? [];
      const next = structuredClone(list[list.length - 1].settings);
      change(next);
      return save(id, next, 'ben');
    },
    /** The admin's stored draft of a widget, if any. */
    draft: (id: string) => drafts.get(id)?.settings ?? null,
    latest: (id: string) => {
      const list = history.get(id) ?? [];
      return list[list.length - 1];
    },
  };
}
