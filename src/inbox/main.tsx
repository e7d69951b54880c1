// The agents' inbox page (`/inbox`), served by the reference service with a strict CSP: this module and
// inbox.css are its only code and style.
import { render } from 'preact';
import { createInboxApi } from './api';
import { App } from './app';
import './inbox.css';
import { createInboxStore, type KeyStorage } from './store';

function sessionStore(): KeyStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const root = document.getElementById('app');
if (root) {
  const store = createInboxStore(createInboxApi(fetch.bind(window)), sessionStore());
  render(<App store={store} />, root);
  void store.resume();
}
