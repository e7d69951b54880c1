// The console (`/console`), served by the reference service with a strict CSP: this module and console.css are its
// only code and style.
import { render } from 'preact';
import { createConsoleApi } from './api';
import { App } from './app';
import { browserNotifyEnvironment } from './notifier';
import './console.css';
import { saveFile } from './save-file';
import { createConsoleStore, type KeyStorage, STATUS_STORAGE_KEY } from './store';

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
    saveFile,
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
  // Issue 34: the console's other tabs of this browser: a status chosen in one is every tab's, and a tab that closes
  // (taking the agent's presence back) is followed by the others saying they are still open.
  const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('service-console') : null;
  if (tabs) tabs.onmessage = (event) => store.otherTab({ closed: event.data === 'closed' });
  window.addEventListener('storage', (event) => {
    if (event.key === STATUS_STORAGE_KEY) store.otherTab({ status: event.newValue });
  });
  window.addEventListener('pagehide', () => {
    store.leave();
    tabs?.postMessage('closed');
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) store.returned();
  });
  render(<App store={store} />, root);
  void store.resume();
}
