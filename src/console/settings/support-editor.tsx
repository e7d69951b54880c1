import { MESSAGE_TEXT_MAX } from '../../protocol/chat';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import {
  CANNED_REPLIES_MAX,
  MAX_OPEN_PER_AGENT_LIMIT,
  SUPPORT_DEFAULTS,
} from '../../protocol/widget-settings-fields';
import { CharCount, Field, fieldId, focusSoon, IssueList } from './fields';
import type { SettingsStore } from './settings-store';

/**
 * Issue 34: how the team works the widget's conversations: who gets a waiting one (by hand from the queue, or round
 * robin to the online agent holding the fewest, up to a most per agent), and the canned replies "/" offers in the reply
 * box, with the placeholders they may hold.
 */
export function SupportEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const assignment = s.assignment ?? SUPPORT_DEFAULTS.assignment;
  const replies = s.cannedReplies ?? [];
  const setReply = (i: number, field: 'shortcut' | 'text', value: string) =>
    store.edit(`cannedReplies[${i}].${field}`, (d) => {
      (d.cannedReplies ?? [])[i][field] = value;
    });
  return (
    <div class="editor">
      <section aria-labelledby="assignment-heading">
        <h3 id="assignment-heading">Assignment</h3>
        <Field
          path="assignment"
          label="Who gets a conversation waiting for a person"
          help="Round robin gives it to the available agent holding the fewest, within 5 seconds; they take it from there."
          issues={store.issuesAt('assignment')}
        >
          {(control) => (
            <select
              {...control}
              value={assignment}
              onChange={(e) =>
                store.edit('assignment', (d) => {
                  d.assignment = e.currentTarget.value === 'round_robin' ? 'round_robin' : 'manual';
                })
              }
            >
              <option value="manual">Whoever takes it from the queue</option>
              <option value="round_robin">Round robin among available agents</option>
            </select>
          )}
        </Field>
        <Field
          path="maxOpenPerAgent"
          label="Most conversations per agent (round robin)"
          help={`Waiting ones given to them and the ones they hold. Default: ${SUPPORT_DEFAULTS.maxOpenPerAgent}.`}
          issues={store.issuesAt('maxOpenPerAgent')}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={MAX_OPEN_PER_AGENT_LIMIT}
              step={1}
              inputMode="numeric"
              value={s.maxOpenPerAgent === undefined ? '' : String(s.maxOpenPerAgent)}
              placeholder={String(SUPPORT_DEFAULTS.maxOpenPerAgent)}
              onInput={(e) => {
                const raw = e.currentTarget.value.trim();
                const isBad = e.currentTarget.validity.badInput;
                store.edit('maxOpenPerAgent', (d) => {
                  if (raw === '' && !isBad) delete d.maxOpenPerAgent;
                  else d.maxOpenPerAgent = isBad ? Number.NaN : Number(raw);
                });
              }}
            />
          )}
        </Field>
      </section>
      <section aria-labelledby="canned-heading">
        <h3 id="canned-heading">Canned replies</h3>
        <p class="field-help" id="canned-help">
          Agents type <kbd>/</kbd> and the shortcut in the reply box. The text may hold{' '}
          <code>{'{customer.name}'}</code>, <code>{'{customer.firstName}'}</code>,{' '}
          <code>{'{customer.email}'}</code>, <code>{'{agent.name}'}</code> and <code>{'{store.name}'}</code>,
          each with a fallback after a bar: <code>{'Hi {customer.firstName|there}'}</code>. Up to{' '}
          {CANNED_REPLIES_MAX}.
        </p>
        <IssueList
          issues={store.issuesAt('cannedReplies')}
          ids={store.issuesAt('cannedReplies').map((_, i) => `canned-issue-${i}`)}
        />
        {replies.length === 0 && <p class="empty">No canned replies yet.</p>}
        <ol class="card-list">
          {replies.map((reply, i) => (
            <li key={`canned-${i}`}>
              <fieldset class="item-card">
                <legend>
                  Canned reply {i + 1}
                  {reply.shortcut.trim() ? `: /${reply.shortcut}` : ''}
                </legend>
                <Field
                  path={`cannedReplies[${i}].shortcut`}
                  label="Shortcut"
                  help="Letters, digits, - and _; what follows / in the reply box."
                  issues={store.issuesAt(`cannedReplies[${i}].shortcut`)}
                >
                  {(control) => (
                    <input
                      {...control}
                      type="text"
                      maxLength={32}
                      value={reply.shortcut}
                      onInput={(e) => setReply(i, 'shortcut', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <Field
                  path={`cannedReplies[${i}].text`}
                  label="Text"
                  aside={<CharCount count={reply.text.length} max={MESSAGE_TEXT_MAX} />}
                  issues={store.issuesAt(`cannedReplies[${i}].text`)}
                >
                  {(control) => (
                    <textarea
                      {...control}
                      rows={3}
                      class="long-text"
                      value={reply.text}
                      onInput={(e) => setReply(i, 'text', e.currentTarget.value)}
                    />
                  )}
                </Field>
                <div class="item-actions">
                  <button
                    type="button"
                    class="secondary small danger"
                    aria-label={`Remove canned reply ${i + 1}`}
                    onClick={() => {
                      store.edit('cannedReplies', (d) => {
                        d.cannedReplies = (d.cannedReplies ?? []).filter((_, j) => j !== i);
                      });
                      focusSoon(
                        replies.length > 1
                          ? `#${fieldId(`cannedReplies[${Math.max(0, i - 1)}].shortcut`)}`
                          : '#add-canned',
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
          id="add-canned"
          class="secondary"
          disabled={replies.length >= CANNED_REPLIES_MAX}
          onClick={() => {
            store.edit('cannedReplies', (d) => {
              d.cannedReplies = [...(d.cannedReplies ?? []), { shortcut: '', text: '' }];
            });
            focusSoon(`#${fieldId(`cannedReplies[${replies.length}].shortcut`)}`);
          }}
        >
          Add a canned reply
        </button>
      </section>
    </div>
  );
}
