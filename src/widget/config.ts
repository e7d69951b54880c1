import {
  CHOICE_TEXT_MAX,
  err,
  ok,
  type Result,
  STARTERS_MAX,
  type WidgetConfig,
  widgetConfigPath,
} from '../protocol';
import { isHexColor } from './theme';

/** How long the widget waits for its config before it shows up offline. */
export const CONFIG_TIMEOUT_MS = 4000;

const GREETING_MAX = 1000;
const TITLE_MAX = 100;
const HIDE_URLS_MAX = 100;

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max;

/**
 * The config is remote data: each field that is missing or wrong falls back to `fallback`'s, on its own, so one bad
 * field never costs the merchant the others.
 */
export function parseWidgetConfig(raw: unknown, fallback: WidgetConfig): WidgetConfig {
  const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const theme = (typeof input.theme === 'object' && input.theme !== null ? input.theme : {}) as Record<
    string,
    unknown
  >;
  const hideUrls = Array.isArray(input.hideUrls)
    ? input.hideUrls.filter((path): path is string => typeof path === 'string' && path.startsWith('/'))
    : fallback.hideUrls;
  // What the service checked already; a widget pointed at another service shows only what it can.
  const starters = Array.isArray(input.starters)
    ? input.starters.filter((text) => isText(text, CHOICE_TEXT_MAX)).slice(0, STARTERS_MAX)
    : [];
  return {
    greeting: isText(input.greeting, GREETING_MAX) ? input.greeting : fallback.greeting,
    title: isText(input.title, TITLE_MAX) ? input.title : fallback.title,
    theme: {
      color: isHexColor(theme.color) ? theme.color : fallback.theme.color,
      ...(theme.mode === 'light' || theme.mode === 'dark' || theme.mode === 'auto'
        ? { mode: theme.mode }
        : {}),
    },
    launcherPosition:
      input.launcherPosition === 'bottom-left' || input.launcherPosition === 'bottom-right'
        ? input.launcherPosition
        : fallback.launcherPosition,
    linkTarget:
      input.linkTarget === '_self' || input.linkTarget === '_blank' ? input.linkTarget : fallback.linkTarget,
    hideUrls: hideUrls.slice(0, HIDE_URLS_MAX),
    ...(input.cart === true ? { cart: true } : {}),
    ...(input.handoff === true ? { handoff: true } : {}),
    ...(starters.length ? { starters } : {}),
  };
}

export interface FetchConfigOptions {
  /** Aborts the request from outside (the widget was destroyed). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * `GET {baseUrl}/v0/widget/{widgetId}/config` with a deadline. Never rejects: an unreachable service, a non-2xx
 * answer, a body that is not JSON and the deadline all come back as an error value.
 */
export async function fetchWidgetConfig(
  baseUrl: string,
  widgetId: string,
  { signal, timeoutMs = CONFIG_TIMEOUT_MS }: FetchConfigOptions = {},
): Promise<Result<unknown>> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  let isTimedOut = false;
  const timer = setTimeout(() => {
    isTimedOut = true;
    abort();
  }, timeoutMs);
  signal?.addEventListener('abort', abort);
  if (signal?.aborted) abort();
  try {
    // A simple request (no custom header): no CORS preflight, one round trip.
    const response = await fetch(`${baseUrl}${widgetConfigPath(widgetId)}`, {
      signal: controller.signal,
      credentials: 'omit',
    });
    // The service's own words when it has them: a refused origin (issue 36) names the setting to change.
    if (!response.ok)
      return err(
        ((await response.json().catch(() => 0)) as { error?: { message?: string } } | null)?.error?.message ??
          `GET config answered ${response.status}`,
      );
    return ok(await response.json());
  } catch (error) {
    if (isTimedOut) return err(`GET config timed out after ${timeoutMs} ms`);
    return err(controller.signal.aborted ? 'GET config aborted' : `GET config failed: ${error}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/** Segment-aware prefix match: `/checkout` hides `/checkout` and `/checkout/pay`, not `/checkouts`. */
export const matchesHideUrls = (pathname: string, hideUrls: readonly string[]): boolean =>
  hideUrls.some(
    (prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
  );
