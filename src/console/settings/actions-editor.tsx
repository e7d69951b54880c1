import type { ActionSettings, EditableWidgetSettings } from '../../protocol/widget-settings';
import { SETTINGS_TEXT_MAX } from '../../protocol/widget-settings-fields';
import { ActionTester } from './action-tester';
import { Field, fieldId, focusSoon } from './fields';
import { ParameterEditor } from './parameter-editor';
import { placeholdersOf } from './settings-checks';
import type { SettingsStore } from './settings-store';

/** A new action starts disabled: the merchant tries it in the preview, then enables it for shoppers. */
const NEW_ACTION: ActionSettings = {
  name: '',
  description: '',
  method: 'POST',
  url: '',
  parameters: [],
  enabled: false,
};

/** The store's custom actions: what the assistant may call on the store's API for a shopper. */
export function ActionsEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const actions = s.actions ?? [];
  return (
    <div class="editor">
      <p class="field-help">
        Calls the assistant may make to your store's API for a shopper, such as an order's status. New actions
        start disabled; enable one when it works.
      </p>
      {actions.length === 0 && <p class="empty">No actions yet.</p>}
      <ol class="card-list">
        {actions.map((action, i) => (
          <li key={`action-${i}`}>
            <ActionCard store={store} action={action} index={i} count={actions.length} />
          </li>
        ))}
      </ol>
      <button
        type="button"
        id="add-action"
        class="secondary"
        onClick={() => {
          store.edit('actions', (d) => {
            d.actions = [...(d.actions ?? []), structuredClone(NEW_ACTION)];
          });
          focusSoon(`#${fieldId(`actions[${actions.length}].name`)}`);
        }}
      >
        Add an action
      </button>
    </div>
  );
}

function ActionCard({
  store,
  action,
  index,
  count,
}: {
  store: SettingsStore;
  action: ActionSettings;
  index: number;
  count: number;
}) {
  const base = `actions[${index}]`;
  const set = <K extends keyof ActionSettings>(key: K, value: ActionSettings[K]) =>
    store.edit(`${base}.${key}`, (d) => {
      const a = d.actions?.[index];
      if (a) a[key] = value;
    });
  const isEnabled = action.enabled ?? true;
  const placeholders = placeholdersOf(action.url);
  const name = action.name.trim() || 'New action';
  return (
    <fieldset class={`item-card action-card${isEnabled ? '' : ' is-disabled'}`}>
      <legend>
        Action {index + 1}: {name}{' '}
        <span class={`state-badge ${isEnabled ? 'is-on' : 'is-off'}`}>
          {isEnabled ? 'Enabled' : 'Disabled'}
        </span>
      </legend>
      <div class="item-actions top">
        <Field
          path={`${base}.enabled`}
          label="Enabled for shoppers"
          issues={store.issuesAt(`${base}.enabled`)}
          isCheckbox
        >
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={isEnabled}
              onChange={(e) => set('enabled', e.currentTarget.checked)}
            />
          )}
        </Field>
        <button
          type="button"
          class="secondary small danger"
          aria-label={`Remove action ${index + 1} (${name})`}
          onClick={() => {
            store.edit('actions', (d) => {
              d.actions = (d.actions ?? []).filter((_, j) => j !== index);
            });
            focusSoon(count > 1 ? `#${fieldId(`actions[${Math.max(0, index - 1)}].name`)}` : '#add-action');
          }}
        >
          Remove action
        </button>
      </div>
      <Field
        path={`${base}.name`}
        label="Name"
        help={`The assistant calls it by this name. At most ${SETTINGS_TEXT_MAX.actionName} characters.`}
        issues={store.issuesAt(`${base}.name`)}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            value={action.name}
            onInput={(e) => set('name', e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        path={`${base}.description`}
        label="Description"
        help="For the assistant: when to use the action, and what it answers."
        issues={store.issuesAt(`${base}.description`)}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={action.description ?? ''}
            onInput={(e) => set('description', e.currentTarget.value)}
          />
        )}
      </Field>
      <div class="method-url">
        <Field path={`${base}.method`} label="Method" issues={store.issuesAt(`${base}.method`)}>
          {(control) => (
            <select
              {...control}
              value={action.method ?? 'POST'}
              onChange={(e) => set('method', e.currentTarget.value as ActionSettings['method'])}
            >
              <option value="POST">POST</option>
              <option value="GET">GET</option>
            </select>
          )}
        </Field>
        <Field
          path={`${base}.url`}
          label="URL"
          help={
            placeholders.length > 0
              ? `Placeholders: ${placeholders.map((p) => `{${p}}`).join(', ')}; each must be a parameter.`
              : 'Put a parameter in the URL as {name}, e.g. https://shop.example/api/orders/{orderId}.'
          }
          issues={store.issuesAt(`${base}.url`)}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="url"
              class="mono"
              spellcheck={false}
              autoComplete="off"
              value={action.url}
              placeholder="https://shop.example/api/orders/{orderId}"
              onInput={(e) => set('url', e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <div class="checkbox-group">
        <Field
          path={`${base}.confirm`}
          label="Ask the shopper before calling"
          help="For actions that change something (cancel, book, pay): the shopper confirms first."
          issues={store.issuesAt(`${base}.confirm`)}
          isCheckbox
        >
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={action.confirm ?? false}
              onChange={(e) => set('confirm', e.currentTarget.checked)}
            />
          )}
        </Field>
        <Field
          path={`${base}.requiresIdentity`}
          label="Only for a verified shopper"
          help="Refused for a shopper the store has not signed in (identity verification)."
          issues={store.issuesAt(`${base}.requiresIdentity`)}
          isCheckbox
        >
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={action.requiresIdentity ?? false}
              onChange={(e) => set('requiresIdentity', e.currentTarget.checked)}
            />
          )}
        </Field>
      </div>
      <ParameterEditor store={store} actionIndex={index} />
      <ActionTester action={action} />
    </fieldset>
  );
}
