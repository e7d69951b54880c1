import type { ActionParameterSettings } from '../../protocol/widget-settings';
import { Field, fieldId, focusSoon } from './fields';
import type { SettingsStore } from './settings-store';

/** An action's parameters: what the assistant must find out from the shopper before it calls the action. */
export function ParameterEditor({ store, actionIndex }: { store: SettingsStore; actionIndex: number }) {
  const base = `actions[${actionIndex}]`;
  const action = store.draft.value?.actions?.[actionIndex];
  if (!action) return null;
  const parameters = action.parameters ?? [];
  const setParameter = <K extends keyof ActionParameterSettings>(
    j: number,
    key: K,
    value: ActionParameterSettings[K],
  ) =>
    // The URL's check depends on the names: its service issue is cleared with the name's.
    store.edit([`${base}.parameters[${j}].${key}`, `${base}.url`], (d) => {
      const p = d.actions?.[actionIndex].parameters?.[j];
      if (p) p[key] = value;
    });
  return (
    <fieldset class="parameters">
      <legend>Parameters</legend>
      <p class="field-help" id={`${fieldId(base)}-parameters-help`}>
        Each parameter is a value the assistant asks the shopper for. Use it in the URL as {'{name}'}; a POST
        sends the others as JSON, a GET as query parameters.
      </p>
      {parameters.length === 0 && <p class="empty">No parameters.</p>}
      <ol class="card-list">
        {parameters.map((p, j) => {
          const path = `${base}.parameters[${j}]`;
          return (
            <li key={`param-${j}`}>
              <fieldset class="item-card parameter">
                <legend>
                  Parameter {j + 1}
                  {p.name ? `: ${p.name}` : ''}
                </legend>
                <div class="parameter-grid">
                  <Field path={`${path}.name`} label="Name" issues={store.issuesAt(`${path}.name`)}>
                    {(control) => (
                      <input
                        {...control}
                        type="text"
                        class="mono"
                        spellcheck={false}
                        autoComplete="off"
                        value={p.name}
                        onInput={(e) => setParameter(j, 'name', e.currentTarget.value)}
                      />
                    )}
                  </Field>
                  <Field path={`${path}.type`} label="Type" issues={store.issuesAt(`${path}.type`)}>
                    {(control) => (
                      <select
                        {...control}
                        value={p.type}
                        onChange={(e) =>
                          setParameter(j, 'type', e.currentTarget.value as ActionParameterSettings['type'])
                        }
                      >
                        <option value="string">Text</option>
                        <option value="number">Number</option>
                        <option value="boolean">Yes or no</option>
                      </select>
                    )}
                  </Field>
                </div>
                <Field
                  path={`${path}.description`}
                  label="Description"
                  help="For the assistant: what the value is and where the shopper finds it."
                  issues={store.issuesAt(`${path}.description`)}
                >
                  {(control) => (
                    <input
                      {...control}
                      type="text"
                      value={p.description ?? ''}
                      onInput={(e) => setParameter(j, 'description', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <div class="item-actions">
                  <Field
                    path={`${path}.required`}
                    label="Required"
                    issues={store.issuesAt(`${path}.required`)}
                    isCheckbox
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="checkbox"
                        checked={p.required ?? true}
                        onChange={(e) => setParameter(j, 'required', e.currentTarget.checked)}
                      />
                    )}
                  </Field>
                  <button
                    type="button"
                    class="secondary small danger"
                    aria-label={`Remove parameter ${j + 1}${p.name ? ` (${p.name})` : ''}`}
                    onClick={() => {
                      store.edit(`${base}.parameters`, (d) => {
                        const a = d.actions?.[actionIndex];
                        if (a) a.parameters = (a.parameters ?? []).filter((_, k) => k !== j);
                      });
                      focusSoon(
                        parameters.length > 1
                          ? `#${fieldId(`${base}.parameters[${Math.max(0, j - 1)}].name`)}`
                          : `#${fieldId(base)}-add-parameter`,
                      );
                    }}
                  >
                    Remove parameter
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        id={`${fieldId(base)}-add-parameter`}
        class="secondary small"
        onClick={() => {
          store.edit(`${base}.parameters`, (d) => {
            const a = d.actions?.[actionIndex];
            if (a) a.parameters = [...(a.parameters ?? []), { name: '', type: 'string', required: true }];
          });
          focusSoon(`#${fieldId(`${base}.parameters[${parameters.length}].name`)}`);
        }}
      >
        Add a parameter
      </button>
    </fieldset>
  );
}
