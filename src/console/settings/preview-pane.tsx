import { formatDateTime } from '../format';
import type { PreviewStore } from './preview-store';
import type { SettingsStore } from './settings-store';

/** The preview's frame page (served by the service, `src/server/http/console-page.ts`). */
export const PREVIEW_PAGE = '/console/preview';

const SYNC_TEXT = {
  live: 'Showing the live version: you have no unsaved changes.',
  pending: 'Your changes reach the preview in a moment…',
  saving: 'Your changes reach the preview in a moment…',
  stored: 'Showing your unsaved changes.',
  invalid: 'Preview shows your last valid draft: complete or fix your changes to update it.',
  error: 'Your changes could not be sent to the preview',
} as const;

const RESTART_TEXT = {
  presentation: 'Restarted with a new conversation: the look or the greeting changed.',
  asked: 'New conversation started.',
  renewed: 'The preview session was renewed: new conversation started.',
} as const;

/**
 * The chat preview beside the editors: the real widget (the same files a store's page loads from `/sdk/`) mounted
 * inline in a frame of the service's preview page, talking to the admin's draft. The frame is mounted anew for each
 * conversation (a restart, a new token): the widget reads its config once, at start.
 */
export function PreviewPane({ preview, store }: { preview: PreviewStore; store: SettingsStore }) {
  const session = preview.session.value;
  const widgetId = store.widgetId.value;
  const sync = preview.sync.value;
  const restored = preview.restored.value;
  const reason = preview.restartReason.value;
  const hash =
    session && widgetId
      ? new URLSearchParams({ widgetId, baseUrl: session.previewBaseUrl }).toString()
      : null;
  return (
    <aside class="preview-pane" aria-labelledby="preview-heading">
      <div class="preview-head">
        <h2 id="preview-heading">Preview</h2>
        <button
          type="button"
          class="secondary small"
          disabled={session === null}
          onClick={() => preview.restart()}
        >
          Restart conversation
        </button>
      </div>
      <p class="field-help">
        Talks to your unsaved changes. Preview conversations never reach the queue; action calls carry{' '}
        <code>x-service-preview: 1</code>.
      </p>
      {restored && (
        <div class="preview-restored">
          <p>
            Unsaved draft from {formatDateTime(restored.savedAt)} restored.
            {restored.baseVersion !== null &&
              restored.liveVersion !== null &&
              restored.baseVersion < restored.liveVersion && (
                <>
                  {' '}
                  It was started from version {restored.baseVersion}; version {restored.liveVersion} is live
                  now, and saving the draft replaces it.
                </>
              )}
          </p>
          <div class="preview-restored-buttons">
            <button type="button" class="secondary small" onClick={() => preview.discardRestored()}>
              Discard draft
            </button>
            <button type="button" class="secondary small" onClick={() => preview.dismissRestored()}>
              Keep editing
            </button>
          </div>
        </div>
      )}
      <p class={`preview-status sync-${sync}`} role="status">
        {SYNC_TEXT[sync]}
        {sync === 'error' && preview.syncError.value
          ? `: ${preview.syncError.value}`
          : sync === 'error'
            ? '.'
            : ''}
        {reason && <> {RESTART_TEXT[reason]}</>}
      </p>
      {preview.sessionError.value && (
        <p class="error" role="alert">
          The preview could not start: {preview.sessionError.value}
        </p>
      )}
      <div class="preview-frame-box">
        {hash ? (
          <iframe
            key={`${session?.previewBaseUrl}#${preview.run.value}`}
            class="preview-frame"
            title="Chat preview: the widget with your unsaved changes"
            src={`${PREVIEW_PAGE}#${hash}`}
          />
        ) : (
          !preview.sessionError.value && <p class="status preview-loading">Starting the preview…</p>
        )}
      </div>
    </aside>
  );
}
