import { err, MESSAGE_TEXT_MAX, type OpenChatOptions, ok, type Result, type ServiceApi } from '../protocol';
import { logError } from './log';
import { checkCustomInstructions, checkHidden, checkIdentityToken, checkUserData } from './settings';
import type { Store } from './store';
import { VERSION } from './version';

export interface PublicApiDeps {
  store: Store;
  widgetId: string;
  /** A new conversation: clears messages, personalization (here and on the service) and this widget's storage. */
  reset(): void;
  /** Removes the host element, listeners and global; called once. */
  destroy(): void;
}

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
    reset: guard('reset', () => deps.reset()),
    destroy: guard('destroy', () => {
      isDestroyed = true;
      deps.destroy();
    }),
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
