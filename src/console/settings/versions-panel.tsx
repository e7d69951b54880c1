import { useEffect, useState } from 'preact/hooks';
import type { SettingsVersion } from '../../protocol/widget-settings';
import { formatDateTime } from '../format';
import { ConfirmDialog } from './confirm-dialog';
import { focusSoon } from './fields';
import type { SettingsChange } from './settings-diff';
import type { SettingsStore } from './settings-store';

/** The service writes summaries in lower case, to be joined into other text; a cell starts a sentence. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const whoText = ({ who, whoName }: Pick<SettingsVersion, 'who' | 'whoName'>) =>
  who === 'config' ? 'The config file' : (whoName ?? who);

/** A value of a diff as a merchant reads it: text as written, "not set" for a default. */
function ValueText({ value }: { value: unknown }) {
  if (value === undefined) return <span class="unset">not set</span>;
  if (typeof value === 'boolean') return <span>{value ? 'yes' : 'no'}</span>;
  return <span class="text">{String(value)}</span>;
}

function ChangeList({ changes }: { changes: readonly SettingsChange[] }) {
  if (changes.length === 0) return <p class="empty">No field changed.</p>;
  return (
    <dl class="diff-list">
      {changes.map((c) => (
        <div key={c.path} class="diff-row">
          <dt>
            {c.label} <code class="diff-path">{c.path}</code>
          </dt>
          <dd>
            <span class="diff-before">
              <span class="visually-hidden">Before: </span>
              <ValueText value={c.before} />
            </span>
            <span class="diff-arrow" aria-hidden="true">
              →
            </span>
            <span class="diff-after">
              <span class="visually-hidden">After: </span>
              <ValueText value={c.after} />
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The widget's versions, newest first: who saved each, when, what changed; a version's diff; roll back to one. */
export function VersionsPanel({ store }: { store: SettingsStore }) {
  const [rollbackTo, setRollbackTo] = useState<SettingsVersion | null>(null);
  useEffect(() => {
    void store.loadVersions();
  }, [store, store.widgetId.value]);
  const versions = store.versions.value;
  const current = store.version.value;
  const diff = store.diff.value;
  const status = store.versionsStatus.value;
  return (
    <div class="editor">
      <p class="field-help">
        Every save is a version; version 1 is the config file's. Rolling back saves a new version equal to the
        one you choose, live at once.
      </p>
      {status === 'loading' && versions.length === 0 && <p class="status">Loading the versions…</p>}
      {status === 'error' && store.versionsError.value && (
        <p class="error" role="alert">
          {store.versionsError.value}
        </p>
      )}
      {versions.length > 0 && (
        <table class="versions">
          <caption class="visually-hidden">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What changed</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.version} aria-current={v.version === current ? 'true' : undefined}>
                <th scope="row">
                  {v.version}
                  {v.version === current && <span class="live-badge">live</span>}
                </th>
                <td>
                  <time dateTime={v.when}>{formatDateTime(v.when)}</time>
                </td>
                <td>{whoText(v)}</td>
                <td class="summary">
                  {/* The service's summary names a rollback itself ("rollback to version 2: …"). */}
                  {sentence(v.summary) || (v.version === 1 ? 'From the config file' : 'No change')}
                </td>
                <td>
                  <div class="version-actions">
                    <button
                      type="button"
                      id={`show-diff-${v.version}`}
                      class="secondary small"
                      aria-expanded={diff?.version === v.version ? 'true' : 'false'}
                      aria-controls="version-diff"
                      onClick={() => {
                        if (diff?.version === v.version) store.closeDiff();
                        else {
                          void store.showDiff(v.version);
                          focusSoon('#version-diff-heading');
                        }
                      }}
                    >
                      {diff?.version === v.version ? 'Hide changes' : 'Show changes'}
                      <span class="visually-hidden"> of version {v.version}</span>
                    </button>
                    {v.version !== current && (
                      <button
                        type="button"
                        id={`rollback-${v.version}`}
                        class="secondary small"
                        onClick={() => setRollbackTo(v)}
                      >
                        Roll back to this version<span class="visually-hidden"> ({v.version})</span>
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {diff && (
        <section id="version-diff" class="version-diff" aria-labelledby="version-diff-heading">
          <h3 id="version-diff-heading" tabIndex={-1}>
            {diff.hasPrevious
              ? `Version ${diff.version} against version ${diff.version - 1}`
              : `Version ${diff.version}: the config file's settings`}
          </h3>
          {diff.status === 'loading' && <p class="status">Comparing…</p>}
          {diff.status === 'error' && diff.error && (
            <p class="error" role="alert">
              {diff.error}
            </p>
          )}
          {diff.status === 'ready' && <ChangeList changes={diff.changes} />}
        </section>
      )}
      {rollbackTo && (
        <ConfirmDialog
          title={`Roll back to version ${rollbackTo.version}?`}
          confirmText="Roll back"
          isBusy={store.isSaving.value}
          onCancel={() => {
            const v = rollbackTo.version;
            setRollbackTo(null);
            focusSoon(`#rollback-${v}`);
          }}
          onConfirm={async () => {
            const ok = await store.rollback(rollbackTo.version);
            setRollbackTo(null);
            focusSoon(ok ? '#settings-notice' : `#rollback-${rollbackTo.version}`);
          }}
        >
          <p>
            This saves a new version with the settings of version {rollbackTo.version} (
            {formatDateTime(rollbackTo.when)}, {whoText(rollbackTo)}). It is live for shoppers at once.
          </p>
          {store.isDirty.value && (
            <p class="warning-text">Your unsaved changes in the editors are discarded.</p>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
