import { SETTINGS_NAME } from '../../protocol/constants';
import type { ServiceSettings } from '../../protocol/settings';
import './preview-frame.css';

/**
 * The chat preview's page (`/console/preview`, framed by the console's Settings section): mounts the real widget,
 * as a store's page would, from `/sdk/loader.js`, inline in the page's one element, with the preview's `baseUrl`
 * so every request of the widget reaches the admin's draft. Read from the fragment (never sent to the server, so the
 * token stays out of logs and referrers): `widgetId` and `baseUrl`, a `/preview/…` address on this origin only.
 * `storage: 'none'`: each load of the frame is a new conversation, and nothing of the preview stays in the browser.
 */
export function previewSettings(hash: string, origin: string): ServiceSettings | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const widgetId = params.get('widgetId');
  const raw = params.get('baseUrl');
  if (!widgetId || !raw) return null;
  let baseUrl: URL;
  try {
    baseUrl = new URL(raw);
  } catch {
    return null;
  }
  // Only this service's preview routes: a fragment cannot point the widget at another server.
  if (baseUrl.origin !== origin || !baseUrl.pathname.startsWith('/preview/')) return null;
  return {
    widgetId,
    baseUrl: baseUrl.href.replace(/\/$/, ''),
    container: '#preview-chat',
    storage: 'none',
    hidden: false,
  };
}

const settings = previewSettings(location.hash, location.origin);
const root = document.getElementById('preview-chat');
if (settings && root) {
  (window as unknown as Record<string, unknown>)[SETTINGS_NAME] = settings;
  const loader = document.createElement('script');
  loader.src = '/sdk/loader.js';
  document.head.append(loader);
} else if (root) {
  root.textContent = 'This preview link is not valid. Open the preview from the console’s Settings.';
}
