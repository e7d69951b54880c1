import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { Field, IssueList } from './fields';
import type { SettingsStore } from './settings-store';
import { StringList } from './string-list';

/** What the config file's default keeps conversations for (config.ts `retentionDays`). */
const RETENTION_DEFAULT = 90;

/**
 * Where the widget runs and what it keeps: the store's origins (the widget API answers only browsers on them), the
 * pages that show no launcher, and how long idle conversations are kept. A merchant who opens a second shop domain
 * adds it here instead of editing the config file (whose widget settings are read once, to seed the first version).
 */
export function SiteEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const days = s.retentionDays;
  // Valid, but rarely meant: with no origin no store page can use the widget (the console's preview still can).
  const noOrigin =
    s.allowedOrigins.length === 0
      ? [
          {
            path: 'allowedOrigins',
            level: 'warning' as const,
            source: 'console' as const,
            message: 'With no origin, the widget works on no page of the store.',
          },
        ]
      : [];
  return (
    <div class="editor">
      <section aria-labelledby="site-origins-heading">
        <h3 id="site-origins-heading">Allowed origins</h3>
        <p class="field-help">
          The store's sites, as scheme, host and port without a path (<code>https://shop.example</code>). The
          widget works only on pages of these origins; <code>*</code> allows any site.
        </p>
        <IssueList issues={noOrigin} ids={['allowed-origins-none']} />
        <StringList
          store={store}
          field="allowedOrigins"
          itemLabel="Origin"
          addLabel="Add an origin"
          addId="add-allowed-origin"
          placeholder="https://shop.example"
          type="url"
        />
      </section>
      <section aria-labelledby="site-hidden-heading">
        <h3 id="site-hidden-heading">Pages without the launcher</h3>
        <p class="field-help">
          Paths where the launcher is not shown, such as the checkout (<code>/checkout</code>). A path covers
          the pages below it; a page can still show it with <code>Service.showLauncher()</code>.
        </p>
        <StringList
          store={store}
          field="hideUrls"
          itemLabel="Path"
          addLabel="Add a path"
          addId="add-hidden-path"
          placeholder="/checkout"
        />
      </section>
      <section aria-labelledby="site-retention-heading">
        <h3 id="site-retention-heading">Keeping conversations</h3>
        <Field
          path="retentionDays"
          label="Delete conversations idle for (days)"
          help={`Default: ${RETENTION_DEFAULT}. Conversations with no message for this long are deleted, with their messages.`}
          issues={store.issuesAt('retentionDays')}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={days === undefined || Number.isNaN(days) ? '' : String(days)}
              placeholder={String(RETENTION_DEFAULT)}
              onInput={(e) => {
                const raw = e.currentTarget.value.trim();
                const isBad = e.currentTarget.validity.badInput;
                store.edit('retentionDays', (d) => {
                  if (raw === '' && !isBad) delete d.retentionDays;
                  else d.retentionDays = isBad ? Number.NaN : Number(raw);
                });
              }}
            />
          )}
        </Field>
      </section>
    </div>
  );
}
