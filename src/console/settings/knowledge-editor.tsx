import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { KNOWLEDGE_SECTIONS_LIMIT, SETTINGS_TEXT_MAX } from '../../protocol/widget-settings-fields';
import { CharCount, Field, fieldId, focusSoon, IssueList } from './fields';
import type { SettingsStore } from './settings-store';
import { StringList } from './string-list';

type Section = { title: string; text: string };

/** Moves item `from` of a list to `to` (both in range). */
const moved = <T,>(list: T[], from: number, to: number): T[] => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
};

/** The store's knowledge the assistant answers from: sections written here, and Markdown documents by URL. */
export function KnowledgeEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const sections = s.knowledge ?? [];
  const setSection = (i: number, field: keyof Section, value: string) =>
    store.edit(`knowledge[${i}].${field}`, (d) => {
      (d.knowledge ?? [])[i][field] = value;
    });
  const move = (from: number, to: number, button: 'up' | 'down') => {
    store.edit('knowledge', (d) => {
      d.knowledge = moved(d.knowledge ?? [], from, to);
    });
    // The focus follows the section it moved, on the same button when it can still move that way.
    const canStill = button === 'up' ? to > 0 : to < sections.length - 1;
    focusSoon(canStill ? `#knowledge-${to}-${button}` : `#${fieldId(`knowledge[${to}].title`)}`);
  };
  return (
    <div class="editor">
      <section aria-labelledby="knowledge-sections-heading">
        <h3 id="knowledge-sections-heading">Sections</h3>
        <p class="field-help" id="knowledge-help">
          Shipping, returns, payment, contact: what the assistant may answer from, each a titled section in
          Markdown. Up to {KNOWLEDGE_SECTIONS_LIMIT} sections of at most{' '}
          {SETTINGS_TEXT_MAX.knowledgeText.toLocaleString('en')} characters.
        </p>
        <IssueList
          issues={store.issuesAt('knowledge')}
          ids={store.issuesAt('knowledge').map((_, i) => `knowledge-issue-${i}`)}
        />
        {sections.length === 0 && <p class="empty">No sections yet.</p>}
        <ol class="card-list">
          {sections.map((section, i) => (
            <li key={`section-${i}`}>
              <fieldset class="item-card">
                <legend>
                  Section {i + 1}
                  {section.title.trim() ? `: ${section.title}` : ''}
                </legend>
                <Field
                  path={`knowledge[${i}].title`}
                  label="Title"
                  issues={store.issuesAt(`knowledge[${i}].title`)}
                >
                  {(control) => (
                    <input
                      {...control}
                      type="text"
                      value={section.title}
                      onInput={(e) => setSection(i, 'title', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <Field
                  path={`knowledge[${i}].text`}
                  label="Text (Markdown)"
                  aside={<CharCount count={section.text.length} max={SETTINGS_TEXT_MAX.knowledgeText} />}
                  issues={store.issuesAt(`knowledge[${i}].text`)}
                >
                  {(control) => (
                    <textarea
                      {...control}
                      rows={6}
                      class="long-text"
                      value={section.text}
                      onInput={(e) => setSection(i, 'text', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <div class="item-actions">
                  <button
                    type="button"
                    id={`knowledge-${i}-up`}
                    class="secondary small"
                    disabled={i === 0}
                    onClick={() => move(i, i - 1, 'up')}
                  >
                    Move up
                    <span class="visually-hidden"> section {i + 1}</span>
                  </button>
                  <button
                    type="button"
                    id={`knowledge-${i}-down`}
                    class="secondary small"
                    disabled={i === sections.length - 1}
                    onClick={() => move(i, i + 1, 'down')}
                  >
                    Move down
                    <span class="visually-hidden"> section {i + 1}</span>
                  </button>
                  <button
                    type="button"
                    class="secondary small danger"
                    aria-label={`Remove section ${i + 1}`}
                    onClick={() => {
                      store.edit('knowledge', (d) => {
                        d.knowledge = (d.knowledge ?? []).filter((_, j) => j !== i);
                      });
                      focusSoon(
                        sections.length > 1
                          ? `#${fieldId(`knowledge[${Math.max(0, i - 1)}].title`)}`
                          : '#add-knowledge',
                      );
                    }}
                  >
                    Remove
                  </button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <button
          type="button"
          id="add-knowledge"
          class="secondary"
          disabled={sections.length >= KNOWLEDGE_SECTIONS_LIMIT}
          onClick={() => {
            store.edit('knowledge', (d) => {
              d.knowledge = [...(d.knowledge ?? []), { title: '', text: '' }];
            });
            store.hold([`knowledge[${sections.length}].title`, `knowledge[${sections.length}].text`]);
            focusSoon(`#${fieldId(`knowledge[${sections.length}].title`)}`);
          }}
        >
          Add a section
        </button>
      </section>
      <section aria-labelledby="knowledge-urls-heading">
        <h3 id="knowledge-urls-heading">Documents by URL</h3>
        <p class="field-help">
          Markdown documents the service fetches like a feed and splits into sections at their headings.
        </p>
        <StringList
          store={store}
          field="knowledgeUrls"
          itemLabel="Document URL"
          addLabel="Add a document URL"
          addId="add-knowledge-url"
          placeholder="https://shop.example/help.md"
          type="url"
        />
      </section>
    </div>
  );
}
