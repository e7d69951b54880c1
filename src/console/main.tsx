// The console (`/console`), served by the reference service with a strict CSP: this module and console.css are its
// only code and style.
import { render } from 'preact';
import { createConsoleApi } from './api';
import { App } from './app';
import { browserNotifyEnvironment } from './notifier';
import './console.css';
import { createConsoleStore, type KeyStorage } from './store';

function sessionStore(): KeyStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The agent's choices that outlive the tab (status, notifications); null where storage is off. */
function localStore(): KeyStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const root = document.getElementById('app');
if (root) {
  const store = createConsoleStore(createConsoleApi(fetch.bind(window)), {
    storage: sessionStore(),
    preferences: localStore(),
    notify: browserNotifyEnvironment(window),
    isVisible: () => document.visibilityState === 'visible',
    confirm: (message) => window.confirm(message),
  });
  // Closing or reloading the tab with unsaved settings not stored as a draft either: the browser asks first.
  window.addEventListener('beforeunload', (event) => {
    if (store.settings.isDirty.value && store.preview.sync.value !== 'stored') event.preventDefault();
  });
  store.syncTitle(document);
  // Back in view: read the lists at once rather than at the next tick.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') store.poll();
  });
  // Presence (issue 33): closing the tab ends this agent's presence at once, not two minutes later; a page restored from
  // the back-forward cache is open again.
  window.addEventListener('pagehide', () => store.leave());
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) store.returned();
  });
  render(<App store={store} />, root);
  void store.resume();
}
