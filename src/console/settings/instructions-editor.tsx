import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { SETTINGS_TEXT_MAX } from '../../protocol/widget-settings-fields';
import { CharCount, Field } from './fields';
import type { SettingsStore } from './settings-store';

/** The store's own instructions for the assistant, above any a page adds for one conversation. */
export function InstructionsEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const text = s.instructions ?? '';
  const max = SETTINGS_TEXT_MAX.instructions;
  return (
    <div class="editor">
      <Field
        path="instructions"
        label="Instructions for the assistant"
        aside={<CharCount count={text.length} max={max} />}
        help={`How the assistant speaks for your store: tone, what to recommend, what to avoid. They come before the instructions a page adds for one conversation. At most ${max.toLocaleString('en')} characters.`}
        issues={store.issuesAt('instructions')}
      >
        {(control) => (
          <textarea
            {...control}
            rows={14}
            class="long-text"
            value={text}
            onInput={(e) => {
              const value = e.currentTarget.value;
              store.edit('instructions', (d) => {
                if (value === '') delete d.instructions;
                else d.instructions = value;
              });
            }}
          />
        )}
      </Field>
    </div>
  );
}
