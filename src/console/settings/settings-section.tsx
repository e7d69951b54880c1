import { useEffect, useRef, useState } from 'preact/hooks';
import { PreviewContext } from './action-tester';
import { ActionsEditor } from './actions-editor';
import { fieldId, focusSoon } from './fields';
import { InstructionsEditor } from './instructions-editor';
import { KnowledgeEditor } from './knowledge-editor';
import { LimitsEditor } from './limits-editor';
import { PresentationEditor } from './presentation-editor';
import { PreviewPane } from './preview-pane';
import type { PreviewStore } from './preview-store';
import './settings.css';
import { type FieldIssue, SETTINGS_MESSAGES, type SettingsStore } from './settings-store';
import { SiteEditor } from './site-editor';
import { SupportEditor } from './support-editor';
import { VersionsPanel } from './versions-panel';
import { WebhooksEditor } from './webhooks-editor';

/** The editors, in order; each owns the config paths it edits (an issue elsewhere is listed in the notice). */
export const EDITORS = [
  {
    id: 'presentation',
    label: 'Presentation',
    owns: /^(title|greeting|themeColor|themeMode|launcherPosition|linkTarget|starters|cart)\b/,
    Editor: PresentationEditor,
  },
  { id: 'instructions', label: 'Instructions', owns: /^instructions\b/, Editor: InstructionsEditor },
  { id: 'knowledge', label: 'Knowledge', owns: /^(knowledge|knowledgeUrls)\b/, Editor: KnowledgeEditor },
  { id: 'actions', label: 'Actions', owns: /^actions\b/, Editor: ActionsEditor },
  { id: 'webhooks', label: 'Webhooks', owns: /^webhooks\b/, Editor: WebhooksEditor },
  { id: 'limits', label: 'Limits', owns: /^limits\b/, Editor: LimitsEditor },
  {
    id: 'support',
    label: 'Support',
    owns: /^(assignment|maxOpenPerAgent|cannedReplies)\b/,
    Editor: SupportEditor,
  },
  { id: 'site', label: 'Site', owns: /^(allowedOrigins|hideUrls|retentionDays)\b/, Editor: SiteEditor },
  { id: 'versions', label: 'Versions', owns: /^$/, Editor: VersionsPanel },
] as const;

export type EditorId = (typeof EDITORS)[number]['id'];

const editorOf = (path: string) => EDITORS.find((e) => e.owns.test(path));

const errorsText = (n: number) => `${n} ${n === 1 ? 'error' : 'errors'}`;

/**
 * The Settings section (admin role): the selected widget's settings in editors, one at a time, under a bar that says
 * which version is live, whether there are unsaved changes, and saves. After a refused save the focus moves to the
 * first field in error (switching to its editor); an issue no editor shows is listed in the notice.
 */
export function SettingsSection({ store, preview }: { store: SettingsStore; preview?: PreviewStore }) {
  const [editor, setEditor] = useState<EditorId>('presentation');
  const lastFocusRequest = useRef(store.focusRequest.value);

  useEffect(() => {
    void store.ensureLoaded();
  }, [store]);

  // Once the widget's settings are read: the preview (the admin's draft, a preview token). Once per widget.
  const isReady = store.status.value === 'ready';
  const loadedWidget = store.widgetId.value;
  useEffect(() => {
    if (isReady && preview) void preview.start();
    // Without a preview there is no stored draft to wait for: a knowledge section asked for from Insights goes in now.
    else if (isReady) store.applyPendingKnowledge();
  }, [isReady, loadedWidget, preview]);

  // Issue 35: a field to show (a knowledge section added from Insights): its editor, then the focus in it.
  const reveal = store.reveal.value;
  useEffect(() => {
    if (reveal === null) return;
    setEditor(reveal.editor);
    focusSoon(`#${fieldId(reveal.path)}`);
  }, [reveal]);

  const issues = store.shownIssues.value;
  const errors = issues.filter((i) => i.level === 'error');
  const focusRequest = store.focusRequest.value;
  useEffect(() => {
    if (focusRequest === lastFocusRequest.current) return;
    lastFocusRequest.current = focusRequest;
    const first = EDITORS.map((e) => errors.find((i) => e.owns.test(i.path))).find(Boolean);
    if (!first) {
      focusSoon('#settings-notice');
      return;
    }
    const owner = editorOf(first.path);
    if (owner) setEditor(owner.id);
    // After the editor renders: its first control in error, in the order the merchant reads them.
    requestAnimationFrame(() => {
      const target =
        document.querySelector<HTMLElement>('.settings-editor [aria-invalid="true"]') ??
        document.getElementById('settings-notice');
      target?.focus();
    });
  }, [focusRequest]);

  const draft = store.draft.value;
  if (draft === null) {
    return (
      <section class="settings" aria-labelledby="settings-heading">
        <h1 id="settings-heading">Settings</h1>
        {store.status.value === 'error' ? (
          <div class="error" role="alert">
            <p>{store.loadError.value ?? 'The settings could not be read.'}</p>
            <button type="button" class="secondary small" onClick={() => void store.load()}>
              Try again
            </button>
          </div>
        ) : (
          <p class="status">Loading the settings…</p>
        )}
      </section>
    );
  }

  const current = EDITORS.find((e) => e.id === editor) ?? EDITORS[0];
  const Editor = current.Editor;
  const outside = errors.filter((i) => !editorOf(i.path));
  return (
    <section class="settings" aria-labelledby="settings-heading">
      <div class="settings-bar">
        <div class="settings-title">
          <h1 id="settings-heading">Settings</h1>
          <p class="version-line">
            {store.widgetId.value && <span class="mono">{store.widgetId.value}</span>} · version{' '}
            {store.version.value}
            {store.isDirty.value && <span class="dirty-badge">Unsaved changes</span>}
          </p>
        </div>
        <div class="settings-buttons">
          {preview && (
            // Under the editors on a narrow window: one tap away from anywhere in them.
            <a class="preview-jump" href="#preview-heading">
              Preview
            </a>
          )}
          <button
            type="button"
            class="secondary"
            disabled={!store.isDirty.value || store.isSaving.value}
            onClick={() => store.discard()}
          >
            Discard changes
          </button>
          <button
            type="button"
            disabled={!store.isDirty.value || store.isSaving.value}
            onClick={() => void store.save()}
          >
            {store.isSaving.value ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <Notice store={store} outside={outside} />
      <div class={`settings-workspace${preview ? ' has-preview' : ''}`}>
        <div class="settings-body">
          <nav class="editor-nav" aria-label="Settings editors">
            <ul>
              {EDITORS.map((e) => {
                const count = errors.filter((i) => e.owns.test(i.path)).length;
                return (
                  <li key={e.id}>
                    <a
                      href={`#settings-${e.id}`}
                      aria-current={e.id === current.id ? 'page' : undefined}
                      onClick={(event) => {
                        event.preventDefault();
                        setEditor(e.id);
                      }}
                    >
                      {e.label}
                      {count > 0 && (
                        <span class="error-count">
                          <span aria-hidden="true">{count}</span>
                          <span class="visually-hidden">, {errorsText(count)}</span>
                        </span>
                      )}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
          <section id={`settings-${current.id}`} class="settings-editor" aria-labelledby="editor-heading">
            <h2 id="editor-heading">{current.label}</h2>
            <PreviewContext.Provider value={preview ?? null}>
              <Editor store={store} />
            </PreviewContext.Provider>
          </section>
        </div>
        {preview && <PreviewPane preview={preview} store={store} />}
      </div>
    </section>
  );
}

/** What the last save did: saved (the new version), refused (how many errors, and any no editor shows), a conflict. */
function Notice({ store, outside }: { store: SettingsStore; outside: readonly FieldIssue[] }) {
  const notice = store.notice.value;
  // Always in the page, so a screen reader hears what is put in it.
  return (
    <div id="settings-notice" class="settings-notice" tabIndex={-1} role="status">
      {notice?.kind === 'saved' && <p class="ok-text">Saved as version {notice.version}. It is live now.</p>}
      {notice?.kind === 'rolled-back' && (
        <p class="ok-text">
          Rolled back: version {notice.version} has the settings of version {notice.to}. It is live now.
        </p>
      )}
      {notice?.kind === 'invalid' && (
        <div class="error">
          <p>
            Not saved: {errorsText(store.errorCount.value || notice.count)} to fix. Each is shown beside its
            field.
          </p>
          {outside.length > 0 && (
            <ul>
              {outside.map((i) => (
                <li key={`${i.path}:${i.message}`}>
                  <code>{i.path}</code>: {i.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {notice?.kind === 'conflict' && (
        <div class="error">
          <p>{SETTINGS_MESSAGES.conflict}</p>
          <button type="button" class="secondary small" onClick={() => void store.load()}>
            Reload the latest version
          </button>
        </div>
      )}
      {notice?.kind === 'error' && <p class="error">Not saved: {notice.message}</p>}
    </div>
  );
}
