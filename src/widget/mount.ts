import { effect, signal, untracked } from '@preact/signals';
import type { ComponentType } from 'preact';
import { h, render } from 'preact';
import {
  EVENT_ADD_TO_CART,
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_LINK_CLICK,
  EVENT_MESSAGE_SENT,
  EVENT_PRODUCT_CLICK,
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
import type { LoadedChat } from './app-props';
import { fetchWidgetConfig, matchesHideUrls, parseWidgetConfig } from './config';
import { createDisposer, type Disposer } from './disposer';
import { emit, pushEventsToDataLayer } from './emit';
import { loadStrings } from './i18n';
import css from './launcher.css?inline';
import { logError } from './log';
import type { NudgeProps } from './nudge';
import type { CardActions } from './parts/part-view';
import { createPublicApi } from './public-api';
import { isInIframe, parseSettings, resolveHidden, type SettingsDefaults } from './settings';
import { clearWidgetItems, readItem, setStorageMode, storageKey, storageMode, writeItem } from './storage';
import { createStore } from './store';
import { contrastColor, followColorScheme, readableOn } from './theme';
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
  const disposer = createDisposer();
  // Aborts whatever is in flight when the widget is destroyed.
  const controller = new AbortController();
  disposer.add(() => controller.abort());

  const configRequest = fetchWidgetConfig(settings.baseUrl, widgetId, {
    signal: controller.signal,
    timeoutMs: defaults.configTimeoutMs,
  });
  // A language other than English is a chunk of its own, fetched while the config request is out: ready is no later.
  const stringsRequest = loadStrings(settings.locale);
  // Boot runs as several short tasks, never one long one (issue: embed runtime, "no long task until ready").
  // The first localStorage access is a synchronous trip to the browser process: done while the request is out.
  await yieldToHost();
  setStorageMode(widgetId, settings.storage ?? 'local');
  pushEventsToDataLayer(settings.analytics === 'dataLayer');
  // Issue 33: a link from an email reopens its conversation here (resume-link.ts: a chunk loaded only when one is).
  const resumed =
    /[?&]service_resume=/.test(location.search) &&
    import('./resume-link').then(
      (m) => m.resumeFromLink(settings.baseUrl, widgetId),
      () => false,
    );
  const openKey = storageKey(widgetId, 'open');
  const [response, strings, isResumed] = await Promise.all([configRequest, stringsRequest, resumed]);
  const wasOpenBefore = isResumed || readItem(openKey) === '1';
  if (!response.ok) logError(`${response.error}: the assistant shows as offline`);
  const fallback: WidgetConfig = {
    greeting: strings.greeting,
    title: strings.title,
    theme: { color: DEFAULT_COLOR },
    launcherPosition: 'bottom-right',
    linkTarget: '_self',
    hideUrls: [],
  };
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
    isInline: Boolean(settings.container),
    userData: settings.userData,
    customInstructions: settings.customInstructions,
    identityToken: settings.identityToken,
  });

  const host = document.createElement(HOST_TAG);
  const shadow = host.attachShadow({ mode: 'open' });
  adoptStyles(shadow, css);
  const color = config.theme.color;
  host.style.setProperty('--service-color', color);
  host.style.setProperty('--service-on-color', contrastColor(color));
  // The page's `theme` wins over the merchant's; `auto` follows the device, live.
  followColorScheme(
    settings.theme ?? config.theme.mode ?? 'light',
    (isDark) => {
      store.setDark(isDark);
      host.style.setProperty('--service-color-text', readableOn(color, isDark));
    },
    disposer,
  );
  trackVisualViewport(host, disposer);
  if (settings.container) host.setAttribute('inline', '');
  (settings.container ?? document.body ?? document.documentElement).append(host);
  // Styles are parsed; the first render (Preact's first run on this page) gets a task of its own.
  await yieldToHost();
  if (controller.signal.aborted) return err('the widget was destroyed while it started');
  const onLinkClick = (url: string): void => emit(EVENT_LINK_CLICK, { widgetId, url }, settings.onLinkClick);
  const chat = signal<LoadedChat | undefined>(undefined);
  let conversation: import('./chat/conversation').Conversation | undefined;
  // Issue 35: what the shopper does with a card is told to the service too, for the merchant's insights (the
  // conversation's code: fire and forget, nothing before there is a conversation).
  const cardActions: CardActions = {
    onProductClick: (product) => {
      emit(EVENT_PRODUCT_CLICK, { widgetId, product }, settings.onProductClick);
      conversation?.tell(EVENT_PRODUCT_CLICK, product);
    },
  };
  if (config.cart) {
    // The page's promise (if any) drives the button: so the callback is called here, not through emit(), which
    // contains what a callback returns. The service is told first: the press is what the shopper did, whatever the
    // page makes of it.
    cardActions.onAddToCart = (product) => {
      emit(EVENT_ADD_TO_CART, { widgetId, product });
      conversation?.tell(EVENT_ADD_TO_CART, product);
      try {
        return settings.onAddToCart?.({ widgetId, product: { ...product } });
      } catch (error) {
        // Shown as "not added" on the button; logged for the page's developer, never thrown into the page.
        logError(`the ${EVENT_ADD_TO_CART} callback threw`, error);
        return Promise.reject(error);
      }
    };
  }
  // The proactive bubble's code: fetched the first time the page shows one.
  const nudge = signal<ComponentType<NudgeProps> | undefined>(undefined);
  disposer.add(
    effect(() => {
      if (!store.proactive.value || nudge.peek()) return;
      import('./nudge').then(
        (module) => {
          if (controller.signal.aborted || nudge.peek()) return;
          adoptStyles(shadow, module.css);
          nudge.value = module.Nudge;
        },
        (error: unknown) => logError('could not load the proactive message', error),
      );
    }),
  );
  render(h(App, { store, strings, chat, nudge, onLinkClick, cardActions }), shadow);

  // The chat's view: a chunk wanted at idle after ready (schedulePanel) or at the first open, whichever comes first.
  // A chunk that fails to load (the network) is asked for again at the next open.
  let isViewLoading = false;
  const loadView = (): void => {
    if (isViewLoading) return;
    isViewLoading = true;
    import('./chat-view').then(
      (module) => {
        if (controller.signal.aborted) return;
        adoptStyles(shadow, module.css);
        chat.value = { View: module.ChatView, retry: (id) => conversation?.retry(id) };
        // The parts an empty chat does not need (cards, markdown) are chunks of their own: fetched at idle once the
        // chat is open, so the next answer's card renders at once (issue 10, "Bytes").
        disposer.add(
          effect(() => {
            if (store.isOpen.value) whenIdle(() => void module.prefetchParts(), disposer);
          }),
        );
      },
      (error: unknown) => {
        isViewLoading = false;
        logError('could not load the chat', error);
      },
    );
  };
  disposer.add(
    effect(() => {
      // Both read on every run: a chunk that failed to load is asked for again when the shopper opens the chat.
      const isWanted = store.isPanelMounted.value;
      if (store.isOpen.value || isWanted) untracked(loadView);
    }),
  );

  // The conversation with the service, a chunk of its own: an empty chat opens without it. It loads with the view
  // when there is a conversation to show (a returning shopper's, stored), at once when a message waits to go out,
  // and otherwise at idle once the chat is open, long before a first message is typed. It restores the history and
  // sends what waits in the store's outbox as it starts.
  let isConversationLoading = false;
  /** `reset()` before the conversation's chunk came: when it comes, it has the other tabs start over too. */
  let isResetPending = false;
  const loadConversation = (): void => {
    if (isConversationLoading) return;
    isConversationLoading = true;
    import('./chat/conversation').then(
      (module) => {
        if (controller.signal.aborted) return;
        const started = module.createConversation({
          store,
          strings,
          baseUrl: settings.baseUrl,
          widgetId,
          locale: settings.locale ?? (typeof navigator === 'undefined' ? undefined : navigator.language),
          onSent: (text) => emit(EVENT_MESSAGE_SENT, { widgetId, text }, settings.onMessageSent),
          settings,
          hasReset: isResetPending,
        });
        conversation = started;
        adoptStyles(shadow, module.css);
        disposer.add(() => started.dispose());
      },
      (error: unknown) => {
        isConversationLoading = false;
        logError('could not load the conversation', error);
      },
    );
  };
  const conversationKey = storageKey(widgetId, 'conversation');
  const hasStoredConversation = readItem(conversationKey) !== null;
  // Another tab of the store started a conversation: this one joins it (chat/tab-sync.ts), so it shows it live and
  // counts its answers on the launcher.
  disposer.listen(window, 'storage', (event) => {
    const { key, newValue } = event as StorageEvent;
    if (key === conversationKey && newValue && storageMode() === 'local') loadConversation();
  });
  // A chunk that could not load while the browser was offline (a message written then waits in the store): asked for
  // again when the connection is back.
  disposer.listen(window, 'online', () => {
    if (!conversation) store.status.value = 'online';
    if (store.isPanelMounted.peek() || store.isOpen.peek()) loadView();
    if (store.messages.peek().length > 0 || hasStoredConversation) loadConversation();
  });
  // Said in the panel before the conversation's code is there too (it says so itself once loaded).
  disposer.listen(window, 'offline', () => {
    if (!conversation) store.status.value = 'offline';
  });
  disposer.add(
    effect(() => {
      // All read on every run, so each stays a dependency. A person asked for: as a message waiting to go out.
      const isViewLoaded = chat.value !== undefined;
      const hasMessages = store.messages.value.length > 0;
      const isAsked = store.isHumanAsked.value;
      const isOpen = store.isOpen.value;
      if (hasMessages || isAsked) untracked(loadConversation);
      else if (isViewLoaded && hasStoredConversation) untracked(loadConversation);
      else if (isViewLoaded && isOpen) whenIdle(loadConversation, disposer);
    }),
  );

  // Open state: remembered per widget, and announced only when it changes.
  let wasOpen = store.isOpen.peek();
  disposer.add(
    effect(() => {
      const isOpen = store.isOpen.value;
      if (isOpen === wasOpen) return;
      wasOpen = isOpen;
      untracked(() => {
        // Inline, the chat is part of the page: nothing to remember about it being open.
        if (!store.isInline.peek()) writeItem(openKey, isOpen ? '1' : null);
        emit(
          isOpen ? EVENT_CHAT_OPEN : EVENT_CHAT_CLOSE,
          { widgetId },
          isOpen ? settings.onChatOpen : settings.onChatClose,
        );
      });
    }),
  );

  const api = createPublicApi({
    store,
    widgetId,
    reset: () => {
      if (conversation) conversation.reset();
      else {
        store.reset();
        // Another tab may show the stored conversation: the conversation's chunk tells it to start over.
        if (readItem(conversationKey) !== null) {
          isResetPending = true;
          loadConversation();
        }
      }
      clearWidgetItems(widgetId);
    },
    destroy: () => {
      render(null, shadow);
      host.remove();
      disposer.dispose();
      if (globals()[GLOBAL_NAME] === api) delete globals()[GLOBAL_NAME];
      booting = undefined;
    },
    mountInline: (element) => {
      host.setAttribute('inline', '');
      element.append(host);
      writeItem(openKey, null);
      store.goInline();
    },
    // Consent given: the page's own choice of storage, or localStorage when that was `none`.
    setConsent: (granted) =>
      setStorageMode(
        widgetId,
        granted ? (settings.storage && settings.storage !== 'none' ? settings.storage : 'local') : 'none',
      ),
    later: (task, ms) => {
      const timer = setTimeout(task, ms);
      disposer.add(() => clearTimeout(timer));
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
