import {
  err,
  MESSAGE_TEXT_MAX,
  type OpenChatOptions,
  ok,
  PAGE_CONTEXT_LIMITS,
  type PageContext,
  PROACTIVE_TEXT_MAX,
  type Result,
  type ServiceApi,
  type ShowMessageOptions,
} from '../protocol';
import { logError } from './log';
import {
  checkContainer,
  checkCustomInstructions,
  checkHidden,
  checkIdentityToken,
  checkUserData,
} from './settings';
import type { Store } from './store';
import { VERSION } from './version';

export interface PublicApiDeps {
  store: Store;
  widgetId: string;
  /** A new conversation: clears messages, personalization (here and on the service) and this widget's storage. */
  reset(): void;
  /** Removes the host element, listeners and global; called once. */
  destroy(): void;
  /** Moves the widget into `element`, inline from then on. */
  mountInline?(element: HTMLElement): void;
  /** The shopper's storage consent (`setConsent`). */
  setConsent?(granted: boolean): void;
  /** Runs `task` after `ms`, unless the widget is destroyed first. */
  later?(task: () => void, ms: number): void;
}

/**
 * What `setPageContext` keeps at once: a JSON copy, so the page changing its object later changes nothing; `null`
 * clears. Its fields are checked before sending (chat/page-context.ts, with the conversation's code).
 */
const copyPageContext = (value: unknown): Result<PageContext | null> => {
  if (value === null) return ok(null);
  const json = typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : '';
  return json && json.length <= PAGE_CONTEXT_LIMITS.json
    ? ok(JSON.parse(json))
    : err(`pageContext must be an object of at most ${PAGE_CONTEXT_LIMITS.json} characters as JSON, or null`);
};

const checkShowMessage = (text: unknown, options: unknown): Result<[string, number]> => {
  if (typeof text !== 'string' || !text.trim() || text.length > PROACTIVE_TEXT_MAX)
    return err(`text must be a string of 1 to ${PROACTIVE_TEXT_MAX} characters`);
  if (options !== undefined && (typeof options !== 'object' || options === null))
    return err('options must be an object like { delayMs }');
  const delayMs = (options as ShowMessageOptions | undefined)?.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !(delayMs >= 0) || delayMs > 86_400_000)
    return err('options.delayMs must be a number of milliseconds from 0 to 86400000');
  return ok([text.trim(), delayMs]);
};

const checkOpenChatOptions = (value: unknown): Result<OpenChatOptions> => {
  if (value === undefined) return ok({});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err('options must be an object like { message, autoSend }');
  }
  const { message, autoSend } = value as Record<string, unknown>;
  if (message !== undefined && (typeof message !== 'string' || message.length > MESSAGE_TEXT_MAX)) {
    return err(`options.message must be a string of at most ${MESSAGE_TEXT_MAX} characters`);
  }
  if (autoSend !== undefined && typeof autoSend !== 'boolean')
    return err('options.autoSend must be a boolean');
  return ok({ message, autoSend });
};

/**
 * `window.Service`. Each method validates its arguments, then calls one store action; none touches the DOM. Nothing
 * throws into the host page: a bad argument or an internal failure is one `[service]` console.error and no change.
 * Once destroyed, the object is inert.
 */
export function createPublicApi(deps: PublicApiDeps): ServiceApi {
  const { store } = deps;
  let isDestroyed = false;
  let hasReportedDestroyed = false;

  const guard =
    <A extends unknown[]>(name: string, run: (...args: A) => void) =>
    (...args: A): void => {
      if (isDestroyed) {
        if (!hasReportedDestroyed) logError(`${name}(): this widget was destroyed; load it again to use it`);
        hasReportedDestroyed = true;
        return;
      }
      try {
        run(...args);
      } catch (error) {
        logError(`${name}() failed`, error);
      }
    };

  /** Validates the single argument of a setter, then applies it. */
  const setter = <T>(name: string, check: (value: unknown) => Result<T>, apply: (value: T) => void) =>
    guard(name, (value: unknown) => {
      const checked = check(value);
      if (checked.ok) apply(checked.value);
      else logError(`${name}(): ${checked.error}`);
    });

  return Object.freeze({
    showLauncher: guard('showLauncher', () => store.setHidden(false)),
    hideLauncher: guard('hideLauncher', () => store.setHidden(true)),
    openChat: setter('openChat', checkOpenChatOptions, store.openChat),
    closeChat: guard('closeChat', () => store.closeChat()),
    setHidden: setter('setHidden', checkHidden, store.setHidden),
    setUserData: setter('setUserData', checkUserData, store.setUserData),
    setCustomInstructions: setter(
      'setCustomInstructions',
      checkCustomInstructions,
      store.setCustomInstructions,
    ),
    setIdentityToken: setter('setIdentityToken', checkIdentityToken, store.setIdentityToken),
    setPageContext: setter('setPageContext', copyPageContext, store.setPageContext),
    // The conversation's code asks the service (chat/conversation.ts); it loads when this opens the chat.
    requestHuman: guard('requestHuman', () =>
      store.config.peek().handoff
        ? store.requestHuman()
        : logError('requestHuman(): this widget has no handoff'),
    ),
    showMessage: guard('showMessage', (text: unknown, options?: unknown) => {
      const checked = checkShowMessage(text, options);
      if (!checked.ok) return logError(`showMessage(): ${checked.error}`);
      const [message, delayMs] = checked.value;
      const show = () => store.showProactive(message);
      if (deps.later) deps.later(show, delayMs);
      else setTimeout(show, delayMs);
    }),
    mount: setter('mount', checkContainer, (element) => deps.mountInline?.(element)),
    setConsent: setter(
      'setConsent',
      (value) => (typeof value === 'boolean' ? ok(value) : err('granted must be a boolean')),
      (granted) => deps.setConsent?.(granted),
    ),
    reset: guard('reset', () => deps.reset()),
    // Issue 36: a second destroy() is silent (React's Strict Mode runs an effect's cleanup twice).
    destroy: () =>
      isDestroyed ||
      guard('destroy', () => {
        isDestroyed = true;
        deps.destroy();
      })(),
    get hidden() {
      return isDestroyed || store.isHidden.peek();
    },
    get isOpen() {
      return !isDestroyed && store.isOpen.peek();
    },
    get widgetId() {
      return deps.widgetId;
    },
    get version() {
      return VERSION;
    },
  });
}
