import type { Notifier } from './notifier';

/**
 * Issue 34: how the console tells the agent of a new waiting shopper or a message on a conversation they hold, each
 * switchable; the browser's notifications need the agent's permission, asked for on their click only.
 */
export function NotifySettings({ notifier }: { notifier: Notifier }) {
  const prefs = notifier.preferences.value;
  const permission = notifier.permission.value;
  return (
    <details class="notify-settings">
      <summary>Notifications</summary>
      <fieldset>
        <legend class="visually-hidden">Tell me of new shoppers and messages by</legend>
        <label>
          <input
            type="checkbox"
            checked={prefs.sound}
            onChange={(event) => notifier.set('sound', event.currentTarget.checked)}
          />{' '}
          Sound
        </label>
        <label>
          <input
            type="checkbox"
            checked={prefs.desktop}
            disabled={permission === 'unsupported'}
            onChange={(event) => notifier.set('desktop', event.currentTarget.checked)}
          />{' '}
          Browser notifications
        </label>
        {permission === 'default' && prefs.desktop && (
          <button type="button" class="secondary small" onClick={() => void notifier.allowDesktop()}>
            Allow browser notifications
          </button>
        )}
        {permission === 'denied' && prefs.desktop && (
          <p class="hint">This browser blocks them for this site; its site settings can allow them.</p>
        )}
        <label>
          <input
            type="checkbox"
            checked={prefs.title}
            onChange={(event) => notifier.set('title', event.currentTarget.checked)}
          />{' '}
          Count in the tab title
        </label>
      </fieldset>
    </details>
  );
}
