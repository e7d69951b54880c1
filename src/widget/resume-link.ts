import { type ResumeResponse, WIDGET_API_PREFIX } from '../protocol';
import { logError } from './log';
import { storageKey, writeItem } from './storage';

// Issue 33: the link in an email (`?service_resume=<token>` on the store's page) reopens its conversation on this
// device. Loaded only on a page that has the parameter (a chunk of its own: no other page pays its bytes). The token
// is exchanged for a conversation token (`POST …/resume`), stored as the widget's conversation, and taken out of the
// address bar at once, so it is not bookmarked, shared or sent on in a Referer. A forged, expired or erased one
// starts nothing: one `[service]` error says why, and the page's widget goes on as it was.

export const RESUME_PARAM = 'service_resume';

/** The address bar without the parameter (its other parameters and its hash as they were). */
function dropParam(): void {
  try {
    const url = new URL(location.href);
    url.searchParams.delete(RESUME_PARAM);
    history.replaceState(history.state, '', url.toString());
  } catch {
    // A sandboxed page may refuse: the parameter stays, and is exchanged again (harmlessly) on a reload.
  }
}

/**
 * Exchanges the page's `service_resume` token; true when this device now has the link's conversation (the chat should
 * open on it).
 *
 * @example
 * if (await resumeFromLink(baseUrl, 'demo')) store.isOpen.value = true;
 */
export async function resumeFromLink(baseUrl: string, widgetId: string): Promise<boolean> {
  const token = new URLSearchParams(location.search).get(RESUME_PARAM) ?? '';
  dropParam();
  try {
    const response = await fetch(`${baseUrl}${WIDGET_API_PREFIX}/${encodeURIComponent(widgetId)}/resume`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const body = (await response.json().catch(() => ({}))) as Partial<ResumeResponse> & {
      error?: { message?: string };
    };
    if (!response.ok || typeof body.conversationId !== 'string' || typeof body.token !== 'string') {
      logError(
        `the link to a conversation was not opened: ${body.error?.message ?? `HTTP ${response.status}`}`,
      );
      return false;
    }
    writeItem(storageKey(widgetId, 'conversation'), body.conversationId);
    writeItem(storageKey(widgetId, 'token'), body.token);
    return true;
  } catch (error) {
    logError('the link to a conversation was not opened: the service could not be reached', error);
    return false;
  }
}
