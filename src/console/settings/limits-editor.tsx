import type { EditableWidgetSettings, WidgetLimitName } from '../../protocol/widget-settings';
import { LIMIT_DEFAULTS } from '../../protocol/widget-settings-fields';
import { Field } from './fields';
import type { SettingsStore } from './settings-store';

const LIMIT_TEXT: Record<WidgetLimitName, string> = {
  conversationsPerIpPerHour: 'New conversations per address per hour',
  messagesPerIpPerMinute: 'Messages per address per minute',
  messagesPerConversationPerMinute: 'Messages per conversation per minute',
  queuedTurnsPerConversation: 'Messages waiting for a reply per conversation',
  openStreamsPerIp: 'Open reply streams per address',
  messagesPerConversation: 'Messages per conversation',
  messagesPerDay: "Messages per day (the widget's whole budget, UTC)",
};

/** The public edge's limits: each shows its default, and an empty field goes back to it. */
export function LimitsEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const limits = s.limits ?? {};
  return (
    <div class="editor">
      <p class="field-help">
        What one shopper's address, one conversation or the whole widget may use before the service says “try
        again later”. Leave a field empty for its default.
      </p>
      <div class="limits-grid">
        {(Object.keys(LIMIT_DEFAULTS) as WidgetLimitName[]).map((name) => {
          const fallback = LIMIT_DEFAULTS[name];
          const value = limits[name];
          return (
            <Field
              key={name}
              path={`limits.${name}`}
              label={LIMIT_TEXT[name]}
              help={
                <>
                  <code>{name}</code> · Default: {fallback === null ? 'no limit' : fallback}
                </>
              }
              issues={store.issuesAt(`limits.${name}`)}
            >
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  value={value === undefined || Number.isNaN(value) ? '' : String(value)}
                  placeholder={fallback === null ? 'No limit' : String(fallback)}
                  onInput={(e) => {
                    const raw = e.currentTarget.value.trim();
                    // A field the browser cannot read as a number reports '' with `badInput`: kept as an error.
                    const isBad = e.currentTarget.validity.badInput;
                    store.edit(`limits.${name}`, (d) => {
                      const next = { ...(d.limits ?? {}) };
                      if (raw === '' && !isBad) delete next[name];
                      else next[name] = isBad ? Number.NaN : Number(raw);
                      if (Object.keys(next).length === 0) delete d.limits;
                      else d.limits = next;
                    });
                  }}
                />
              )}
            </Field>
          );
        })}
      </div>
    </div>
  );
}
