import { CHOICE_TEXT_MAX } from '../../protocol/chat';
import { STARTERS_MAX } from '../../protocol/widget-config';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { PRESENTATION_DEFAULTS, SETTINGS_TEXT_MAX } from '../../protocol/widget-settings-fields';
import { AA_CONTRAST, contrastRatio, toSixDigitHex } from './contrast';
import { Field, fieldId, focusSoon, IssueList } from './fields';
import type { SettingsStore } from './settings-store';

/** Empty text: the field is left out, so the config file's default applies. */
const orDefault = (value: string): string | undefined => (value === '' ? undefined : value);

/** How the widget looks and opens: title, greeting, colour and mode, launcher, links, starters, cart. */
export function PresentationEditor({ store }: { store: SettingsStore }) {
  const s = store.draft.value as EditableWidgetSettings;
  const set = <K extends keyof EditableWidgetSettings>(key: K, value: EditableWidgetSettings[K]) =>
    store.edit(key, (d) => {
      if (value === undefined) delete d[key];
      else d[key] = value;
    });
  const color = s.themeColor ?? PRESENTATION_DEFAULTS.themeColor;
  const ratio = contrastRatio('#ffffff', color);
  const starters = s.starters ?? [];
  const launcher = s.launcherPosition ?? PRESENTATION_DEFAULTS.launcherPosition;
  return (
    <div class="editor">
      <Field
        path="title"
        label="Title"
        help={`In the chat's header. At most ${SETTINGS_TEXT_MAX.title} characters. Empty: “${PRESENTATION_DEFAULTS.title}”`}
        issues={store.issuesAt('title')}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            value={s.title ?? ''}
            placeholder={PRESENTATION_DEFAULTS.title}
            onInput={(e) => set('title', orDefault(e.currentTarget.value))}
          />
        )}
      </Field>
      <Field
        path="greeting"
        label="Greeting"
        help={`The assistant's first message in a new conversation. Empty: “${PRESENTATION_DEFAULTS.greeting}”`}
        issues={store.issuesAt('greeting')}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={s.greeting ?? ''}
            placeholder={PRESENTATION_DEFAULTS.greeting}
            onInput={(e) => set('greeting', orDefault(e.currentTarget.value))}
          />
        )}
      </Field>
      <Field
        path="themeColor"
        label="Theme colour"
        help="A hex colour like #1f6feb. The launcher and the chat's header show white text on it."
        issues={store.issuesAt('themeColor')}
      >
        {(control) => (
          <div class="color-row">
            <input
              type="color"
              aria-label="Theme colour picker"
              value={toSixDigitHex(color) ?? '#000000'}
              onInput={(e) => set('themeColor', e.currentTarget.value)}
            />
            <input
              {...control}
              type="text"
              class="hex-input mono"
              spellcheck={false}
              autoComplete="off"
              value={s.themeColor ?? ''}
              placeholder={PRESENTATION_DEFAULTS.themeColor}
              onInput={(e) => set('themeColor', orDefault(e.currentTarget.value.trim()))}
            />
            {ratio !== null && (
              // A style object is set through the CSSOM, which the console's CSP (`style-src 'self'`) allows.
              <span
                class="swatch"
                style={{ backgroundColor: toSixDigitHex(color) ?? undefined }}
                aria-hidden="true"
              >
                Aa
              </span>
            )}
            {ratio !== null && (
              <span class={`contrast${ratio < AA_CONTRAST ? ' is-low' : ''}`}>
                Contrast with white {ratio.toFixed(2)}:1 {ratio < AA_CONTRAST ? '(below AA)' : '(AA)'}
              </span>
            )}
          </div>
        )}
      </Field>
      <Field
        path="themeMode"
        label="Colour scheme"
        help="The widget's light or dark look. A page that sets the widget's theme itself overrides this."
        issues={store.issuesAt('themeMode')}
      >
        {(control) => (
          <select
            {...control}
            value={s.themeMode ?? ''}
            onChange={(e) =>
              set('themeMode', orDefault(e.currentTarget.value) as EditableWidgetSettings['themeMode'])
            }
          >
            <option value="">Not set (the widget's default)</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
            <option value="auto">As the shopper's device (auto)</option>
          </select>
        )}
      </Field>
      <fieldset class="field-group" aria-describedby={fieldId('launcherPosition')}>
        <legend>Launcher position</legend>
        <div class="radio-row">
          {(['bottom-right', 'bottom-left'] as const).map((value) => (
            <label key={value} class="radio">
              <input
                type="radio"
                name="launcherPosition"
                value={value}
                checked={launcher === value}
                data-path="launcherPosition"
                onChange={() => set('launcherPosition', value)}
              />
              {value === 'bottom-right' ? 'Bottom right' : 'Bottom left'}
            </label>
          ))}
        </div>
        <div id={fieldId('launcherPosition')}>
          <IssueList
            issues={store.issuesAt('launcherPosition')}
            ids={store
              .issuesAt('launcherPosition')
              .map((_, i) => `${fieldId('launcherPosition')}-issue-${i}`)}
          />
        </div>
      </fieldset>
      <Field
        path="linkTarget"
        label="Links in the chat open"
        help="Where a product or page link from the assistant opens."
        issues={store.issuesAt('linkTarget')}
      >
        {(control) => (
          <select
            {...control}
            value={s.linkTarget ?? PRESENTATION_DEFAULTS.linkTarget}
            onChange={(e) => set('linkTarget', e.currentTarget.value as EditableWidgetSettings['linkTarget'])}
          >
            <option value="_self">In the same tab</option>
            <option value="_blank">In a new tab</option>
          </select>
        )}
      </Field>
      <fieldset class="field-group">
        <legend>Conversation starters</legend>
        <p class="field-help" id="starters-help">
          Questions shown as buttons in an empty chat; a tap sends the question. Up to {STARTERS_MAX}, each at
          most {CHOICE_TEXT_MAX} characters.
        </p>
        <IssueList
          issues={store.issuesAt('starters')}
          ids={store.issuesAt('starters').map((_, i) => `starters-issue-${i}`)}
        />
        <ol class="item-list">
          {starters.map((text, i) => (
            <li key={`starter-${i}`} class="item-row">
              <Field
                path={`starters[${i}]`}
                label={`Starter ${i + 1}`}
                issues={store.issuesAt(`starters[${i}]`)}
              >
                {(control) => (
                  <input
                    {...control}
                    type="text"
                    value={text}
                    onInput={(e) => {
                      const value = e.currentTarget.value;
                      store.edit(`starters[${i}]`, (d) => {
                        (d.starters ?? [])[i] = value;
                      });
                    }}
                  />
                )}
              </Field>
              <button
                type="button"
                class="secondary small"
                aria-label={`Remove starter ${i + 1}`}
                onClick={() => {
                  store.edit('starters', (d) => {
                    d.starters = (d.starters ?? []).filter((_, j) => j !== i);
                  });
                  focusSoon(
                    starters.length > 1 ? `#${fieldId(`starters[${Math.max(0, i - 1)}]`)}` : '#add-starter',
                  );
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          id="add-starter"
          class="secondary small"
          disabled={starters.length >= STARTERS_MAX}
          aria-describedby="starters-help"
          onClick={() => {
            store.edit('starters', (d) => {
              d.starters = [...(d.starters ?? []), ''];
            });
            focusSoon(`#${fieldId(`starters[${starters.length}]`)}`);
          }}
        >
          Add a starter
        </button>
      </fieldset>
      <Field
        path="cart"
        label="Show “Add to cart” on product cards"
        help="The store's page adds the product: the widget's onAddToCart, or its service:add-to-cart event."
        issues={store.issuesAt('cart')}
        isCheckbox
      >
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={s.cart ?? PRESENTATION_DEFAULTS.cart}
            onChange={(e) => set('cart', e.currentTarget.checked)}
          />
        )}
      </Field>
    </div>
  );
}
