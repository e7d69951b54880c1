import { effect, untracked } from '@preact/signals';
import { h, render } from 'preact';
import {
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_LINK_CLICK,
  EVENT_MESSAGE_SENT,
  EVENT_READY,
  err,
  GLOBAL_NAME,
  HOST_TAG,
  ok,
  type Result,
  type ServiceApi,
  type WidgetConfig,
} from '../protocol';
import { adoptStyles } from './adopt-styles';
import { App } from './app';
import { createConversation } from './chat/conversation';
import { fetchWidgetConfig, matchesHideUrls, parseWidgetConfig } from './config';
import { createDisposer, type Disposer } from './disposer';
import { emit } from './emit';
import { pickStrings } from './i18n';
import { logError } from './log';
import { partsCss, prefetchParts } from './parts';
import { createPublicApi } from './public-api';
import { isInIframe, parseSettings, resolveHidden, type SettingsDefaults } from './settings';
import { clearWidgetItems, readItem, storageKey, writeItem } from './storage';
import { createStore } from './store';
import css from './styles.css?inline';
import { contrastColor } from './theme';
import { whenIdle } from './when-idle';

export interface MountDefaults extends SettingsDefaults {
  /** The config deadline; tests shorten it. */
  configTimeoutMs?: number;
}

const DEFAULT_COLOR = '#1d4ed8';

const globals = (): Record<string, unknown> => window as unknown as Record<string, unknown>;

const isServiceApi = (value: unknown): value is ServiceApi =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ServiceApi).openChat === 'function' &&
  typeof (value as ServiceApi).version === 'string';

/** The boot in progress or done; cleared by `destroy()` and by a failed boot, so a later call mounts afresh. */
let booting: Promise<Result<ServiceApi>> | undefined;

/**
 * Mounts the widget once per page (Chatwoot's `if (window.$chatwoot) return`): a second call, even while the first is
 * still fetching the config, gets the same API. Never rejects and never throws: a fatal problem (no widget id, no
 * browser) is one `[service]` console.error and an error value.
 */
export function mount(raw: unknown, defaults: MountDefaults): Promise<Result<ServiceApi>> {
  try {
    if (typeof window === 'undefined' || typeof document === 'undefined') {
      return Promise.resolve(err('the widget needs a browser: there is no window or document here'));
    }
    const existing = globals()[GLOBAL_NAME];
    if (isServiceApi(existing)) return Promise.resolve(ok(existing));
    booting ??= start(raw, defaults)
      .catch((error: unknown) => {
        logError('could not start the widget', error);
        return err(`could not start the widget: ${error}`);
      })
      .then((result) => {
        if (!result.ok) booting = undefined;
        return result;
      });
    return booting;
  } catch (error) {
    logError('could not start the widget', error);
    return Promise.resolve(err(`could not start the widget: ${error}`));
  }
}

async function start(raw: unknown, defaults: MountDefaults): Promise<Result<ServiceApi>> {
  const parsed = parseSettings(raw, defaults);
  if (!parsed.ok) {
    logError(parsed.error);
    return parsed;
  }
  const { settings, issues } = parsed.value;
  for (const issue of issues) logError(issue);
  const { widgetId } = settings;
  const strings = pickStrings(settings.locale);
  const disposer = createDisposer();
  // Aborts whatever is in flight when the widget is destroyed.
  const controller = new AbortController();
  disposer.add(() => controller.abort());

  const fallback: WidgetConfig = {
    greeting: strings.greeting,
    title: strings.title,
    theme: { color: DEFAULT_COLOR },
    launcherPosition: 'bottom-right',
    linkTarget: '_self',
    hideUrls: [],
  };
  const configRequest = fetchWidgetConfig(settings.baseUrl, widgetId, {
    signal: controller.signal,
    timeoutMs: defaults.configTimeoutMs,
  });
  // Boot runs as several short tasks, never one long one (issue: embed runtime, "no long task until ready").
  // The first localStorage access is a synchronous trip to the browser process: done while the request is out.
  await yieldToHost();
  const openKey = storageKey(widgetId, 'open');
  const wasOpenBefore = readItem(openKey) === '1';
  const response = await configRequest;
  if (!response.ok) logError(`${response.error}: the assistant shows as offline`);
  const config = response.ok ? parseWidgetConfig(response.value, fallback) : fallback;

  // Another copy of the widget (a second bundle on the page) may have finished first.
  const existing = globals()[GLOBAL_NAME];
  if (isServiceApi(existing)) return ok(existing);

  const inIframe = isInIframe();
  const onHiddenUrl = matchesHideUrls(location.pathname, config.hideUrls);
  // Hidden by default (in an iframe, on a `hideUrls` page): do not pop a remembered open panel either.
  const isHiddenByDefault = settings.hidden === undefined && (inIframe || onHiddenUrl);
  const store = createStore({
    config,
    status: response.ok ? 'online' : 'offline',
    isHidden: resolveHidden(settings.hidden, inIframe, onHiddenUrl),
    isOpen: !isHiddenByDefault && wasOpenBefore,
    userData: settings.userData,
    customInstructions: settings.customInstructions,
    identityToken: settings.identityToken,
  });

  const host = document.createElement(HOST_TAG);
  const shadow = host.attachShadow({ mode: 'open' });
  adoptStyles(shadow, css + partsCss);
  host.style.setProperty('--service-color', config.theme.color);
  host.style.setProperty('--service-on-color', contrastColor(config.theme.color));
  trackVisualViewport(host, disposer);
  (document.body ?? document.documentElement).append(host);
  // Styles are parsed; the first render (Preact's first run on this page) gets a task of its own.
  await yieldToHost();
  if (controller.signal.aborted) return err('the widget was destroyed while it started');
  const conversation = createConversation({
    store,
    strings,
    baseUrl: settings.baseUrl,
    widgetId,
    locale: settings.locale ?? (typeof navigator === 'undefined' ? undefined : navigator.language),
    onSent: (text) => emit(EVENT_MESSAGE_SENT, { widgetId, text }, settings.onMessageSent),
  });
  disposer.add(() => conversation.dispose());
  const onLinkClick = (url: string): void => emit(EVENT_LINK_CLICK, { widgetId, url }, settings.onLinkClick);
  render(h(App, { store, strings, onRetry: conversation.retry, onLinkClick }), shadow);

  // Open state: remembered per widget, and announced only when it changes.
  let wasOpen = store.isOpen.peek();
  disposer.add(
    effect(() => {
      const isOpen = store.isOpen.value;
      if (isOpen === wasOpen) return;
      wasOpen = isOpen;
      untracked(() => {
        writeItem(openKey, isOpen ? '1' : null);
        emit(
          isOpen ? EVENT_CHAT_OPEN : EVENT_CHAT_CLOSE,
          { widgetId },
          isOpen ? settings.onChatOpen : settings.onChatClose,
        );
      });
    }),
  );

  // The parts an empty chat does not need (cards, markdown) are chunks of their own: fetched at idle once the chat is
  // open, so the next answer's card renders at once (issue 10, "Bytes").
  disposer.add(
    effect(() => {
      if (store.isOpen.value) whenIdle(() => void prefetchParts(), disposer);
    }),
  );

  const api = createPublicApi({
    store,
    widgetId,
    reset: () => {
      conversation.reset();
      clearWidgetItems(widgetId);
    },
    destroy: () => {
      render(null, shadow);
      host.remove();
      disposer.dispose();
      if (globals()[GLOBAL_NAME] === api) delete globals()[GLOBAL_NAME];
      booting = undefined;
    },
  });
  // SPEC "Widget browser controls": the object appears, then `service:ready` announces it.
  try {
    globals()[GLOBAL_NAME] = api;
  } catch (error) {
    // The page made `window.Service` read-only: `load()` still hands out the API.
    logError(`could not define window.${GLOBAL_NAME}`, error);
  }
  emit(EVENT_READY, { widgetId }, settings.onReady);
  schedulePanel(store, disposer);
  return ok(api);
}

/** Lets the host page run (input, its own tasks) between two steps of the boot. */
function yieldToHost(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Boot renders only the launcher, so no task from navigation to `service:ready` is long even on a throttled phone
 * (issue: embed runtime budgets). The closed panel is built in a later idle task, ready for a fast first open; an
 * open that comes sooner builds it right then.
 */
function schedulePanel(store: ReturnType<typeof createStore>, disposer: Disposer): void {
  whenIdle(() => store.mountPanel(), disposer);
}

/**
 * On phones the full-screen panel follows the visual viewport, so the on-screen keyboard does not hide the composer
 * (iOS shrinks only the visual viewport). Pinch zoom changes it too; that case keeps the last unzoomed size.
 */
function trackVisualViewport(host: HTMLElement, disposer: Disposer): void {
  const viewport = window.visualViewport;
  if (!viewport) return;
  const sync = (): void => {
    if (viewport.scale > 1) return;
    host.style.setProperty('--service-viewport-height', `${viewport.height}px`);
    host.style.setProperty('--service-viewport-top', `${viewport.offsetTop}px`);
  };
  sync();
  disposer.listen(viewport, 'resize', sync);
  disposer.listen(viewport, 'scroll', sync);
}
