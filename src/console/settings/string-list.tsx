import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { Field, fieldId, focusSoon, IssueList } from './fields';
import type { SettingsStore } from './settings-store';

/** The settings that are lists of strings, edited a row each. */
type ListField = 'knowledgeUrls' | 'allowedOrigins' | 'hideUrls';

export interface StringListProps {
  store: SettingsStore;
  field: ListField;
  /** Each row's label, numbered: "Document URL 1". */
  itemLabel: string;
  /** The add button's text and id (the focus goes back to it when the last row is removed). */
  addLabel: string;
  addId: string;
  placeholder: string;
  type?: 'url' | 'text';
}

/**
 * A list of strings, one input per row with its own messages (`knowledgeUrls[1]`), a Remove button per row, and an
 * add button; issues about the list as a whole (`allowedOrigins`) are listed above it.
 */
export function StringList({
  store,
  field,
  itemLabel,
  addLabel,
  addId,
  placeholder,
  type = 'text',
}: StringListProps) {
  const items = (store.draft.value as EditableWidgetSettings)[field] ?? [];
  const listIssues = store.issuesAt(field);
  // "Remove document URL 2": the label as it reads inside a sentence.
  const inSentence = itemLabel[0].toLowerCase() + itemLabel.slice(1);
  return (
    <>
      <IssueList issues={listIssues} ids={listIssues.map((_, i) => `${field}-issue-${i}`)} />
      <ol class="item-list">
        {items.map((value, i) => (
          <li key={`${field}-${i}`} class="item-row">
            <Field
              path={`${field}[${i}]`}
              label={`${itemLabel} ${i + 1}`}
              issues={store.issuesAt(`${field}[${i}]`)}
            >
              {(control) => (
                <input
                  {...control}
                  type={type}
                  inputMode={type === 'url' ? 'url' : undefined}
                  spellcheck={false}
                  value={value}
                  placeholder={placeholder}
                  onInput={(e) => {
                    const next = e.currentTarget.value;
                    store.edit(`${field}[${i}]`, (d) => {
                      (d[field] ?? [])[i] = next;
                    });
                  }}
                />
              )}
            </Field>
            <button
              type="button"
              class="secondary small"
              aria-label={`Remove ${inSentence} ${i + 1}`}
              onClick={() => {
                store.edit(field, (d) => {
                  d[field] = (d[field] ?? []).filter((_, j) => j !== i);
                });
                focusSoon(items.length > 1 ? `#${fieldId(`${field}[${Math.max(0, i - 1)}]`)}` : `#${addId}`);
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        id={addId}
        class="secondary"
        onClick={() => {
          store.edit(field, (d) => {
            d[field] = [...(d[field] ?? []), ''];
          });
          focusSoon(`#${fieldId(`${field}[${items.length}]`)}`);
        }}
      >
        {addLabel}
      </button>
    </>
  );
}
