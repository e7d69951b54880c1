import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { WEBHOOK_VERSIONS } from '../../protocol/widget-settings-fields';
import { Field, fieldId, focusSoon } from './fields';
import type { SettingsStore } from './settings-store';

/** The store's webhooks: today one kind, order cancellation, with the version of its request and response. */
export function WebhooksEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const hooks = s.webhooks ?? [];
  const i = hooks.findIndex((h) => h.kind === 'order-cancellation');
  const hook = i === -1 ? null : hooks[i];
  const base = `webhooks[${i}]`;
  const latest = WEBHOOK_VERSIONS[WEBHOOK_VERSIONS.length - 1];
  return (
    <div class="editor">
      <section aria-labelledby="order-cancellation-heading">
        <h3 id="order-cancellation-heading">Order cancellation</h3>
        <p class="field-help">
          When a shopper asks to cancel an order and confirms, the service calls this URL; the store answers
          whether the order was cancelled. The version fixes the request sent and the response expected.
        </p>
        {hook === null ? (
          <button
            type="button"
            id="add-order-cancellation"
            class="secondary"
            onClick={() => {
              store.edit('webhooks', (d) => {
                d.webhooks = [
                  ...(d.webhooks ?? []),
                  { kind: 'order-cancellation', url: '', version: latest },
                ];
              });
              focusSoon(`#${fieldId(`webhooks[${hooks.length}].url`)}`);
            }}
          >
            Add the order-cancellation webhook
          </button>
        ) : (
          <>
            <Field path={`${base}.url`} label="Webhook URL" issues={store.issuesAt(`${base}.url`)}>
              {(control) => (
                <input
                  {...control}
                  type="url"
                  inputMode="url"
                  class="mono"
                  spellcheck={false}
                  value={hook.url}
                  placeholder="https://shop.example/webhooks/cancel-order"
                  onInput={(e) => {
                    const value = e.currentTarget.value;
                    store.edit(`${base}.url`, (d) => {
                      const h = d.webhooks?.[i];
                      if (h) h.url = value;
                    });
                  }}
                />
              )}
            </Field>
            <Field
              path={`${base}.version`}
              label="Version"
              help="The schema the store's endpoint speaks; choose the newest it supports."
              issues={store.issuesAt(`${base}.version`)}
            >
              {(control) => (
                <select
                  {...control}
                  value={hook.version}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    store.edit(`${base}.version`, (d) => {
                      const h = d.webhooks?.[i];
                      if (h) h.version = value;
                    });
                  }}
                >
                  {/* A version this service no longer speaks stays visible, so the merchant sees what to change. */}
                  {!WEBHOOK_VERSIONS.includes(hook.version) && (
                    <option value={hook.version}>{hook.version} (not supported)</option>
                  )}
                  {WEBHOOK_VERSIONS.map((v) => (
                    <option key={v} value={v}>
                      {v}
                      {v === latest ? ' (newest)' : ''}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button
              type="button"
              class="secondary small danger"
              onClick={() => {
                store.edit('webhooks', (d) => {
                  d.webhooks = (d.webhooks ?? []).filter((_, j) => j !== i);
                });
                focusSoon('#add-order-cancellation');
              }}
            >
              Remove the order-cancellation webhook
            </button>
          </>
        )}
      </section>
    </div>
  );
}
