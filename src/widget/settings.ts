import {
  CUSTOM_INSTRUCTIONS_MAX,
  type EventDetail,
  err,
  ok,
  type Result,
  type ServiceSettings,
  type UserData,
} from '../protocol';

/** `ServiceSettings` once checked: the ids are known, every other field is valid or absent. */
export interface WidgetSettings extends Omit<ServiceSettings, 'widgetId' | 'baseUrl' | 'container'> {
  /** Inline mode's element, found. */
  container?: HTMLElement;
  widgetId: string;
  /** Absolute http(s) URL without a trailing slash. */
  baseUrl: string;
}

/** What the embedding context supplies when the settings do not: the script's origin and `?widgetId=`. */
export interface SettingsDefaults {
  baseUrl: string;
  widgetId?: string;
}

export interface ParsedSettings {
  settings: WidgetSettings;
  /** One message per invalid field; the field was ignored. */
  issues: string[];
}

const CALLBACKS = [
  'onReady',
  'onChatOpen',
  'onChatClose',
  'onMessageSent',
  'onLinkClick',
  'onAddToCart',
  'onProductClick',
] as const;

/** A check for a setting that takes one of a few words. */
const oneOf =
  <T extends string>(name: string, words: readonly T[]) =>
  (value: unknown): Result<T> =>
    words.includes(value as T)
      ? ok(value as T)
      : err(`${name} must be ${words.map((w) => `"${w}"`).join(' or ')}`);

export const checkStorage = oneOf('storage', ['local', 'session', 'none'] as const);
export const checkTheme = oneOf('theme', ['light', 'dark', 'auto'] as const);
export const checkAnalytics = oneOf('analytics', ['dataLayer'] as const);

/** Inline mode's element: an element of this page, or a selector that finds one when the widget loads. */
export const checkContainer = (value: unknown): Result<HTMLElement> => {
  let element: unknown = value;
  if (typeof value === 'string') {
    try {
      element = document.querySelector(value);
    } catch {
      return err(`container "${value}" is not a valid CSS selector`);
    }
    if (!element) return err(`container "${value}" matches no element on this page`);
  }
  return element instanceof HTMLElement && element.isConnected
    ? ok(element)
    : err('container must be an element of this page or a CSS selector that finds one');
};

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

export const checkWidgetId = (value: unknown): Result<string> =>
  typeof value === 'string' && value.trim() !== ''
    ? ok(value.trim())
    : err('widgetId must be a non-empty string');

export const checkBaseUrl = (value: unknown): Result<string> => {
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return ok(url.href.replace(/\/+$/, ''));
    } catch {
      // Not a URL: falls through to the error below.
    }
  }
  return err('baseUrl must be an absolute http(s) URL');
};

export const checkHidden = (value: unknown): Result<boolean> =>
  typeof value === 'boolean' ? ok(value) : err('hidden must be a boolean');

/**
 * `userData` is flat: a plain object whose values are strings, finite numbers, booleans or null. The result is a
 * copy, so the host page changing its object later does not change what the assistant sees.
 */
export const checkUserData = (value: unknown): Result<UserData> => {
  if (!isPlainObject(value)) return err('userData must be a plain object');
  const copy: UserData = {};
  for (const key of Object.keys(value)) {
    // An own `__proto__` key (from JSON.parse or defineProperty) cannot be copied faithfully and smells of an attack.
    if (key === '__proto__') return err('userData must not have a "__proto__" key');
    const item = value[key];
    const isValid =
      item === null ||
      typeof item === 'string' ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item));
    if (!isValid) {
      return err(`userData.${key} must be a string, a finite number, a boolean or null (userData is flat)`);
    }
    copy[key] = item;
  }
  return ok(copy);
};

export const checkCustomInstructions = (value: unknown): Result<string> =>
  typeof value === 'string' && value.length >= 1 && value.length <= CUSTOM_INSTRUCTIONS_MAX
    ? ok(value)
    : err(`customInstructions must be a string of 1 to ${CUSTOM_INSTRUCTIONS_MAX} characters`);

/**
 * A compact JWT's shape (three base64url parts); the service checks the rest. `null` signs out (the setter only); so
 * does `''`, what a store's template prints for a visitor who is not signed in.
 */
export const checkIdentityToken = (value: unknown): Result<string | null> =>
  value === null ||
  value === '' ||
  (typeof value === 'string' && value.length <= 4096 && /^[\w-]+\.[\w-]+\.[\w-]*$/.test(value))
    ? ok(value)
    : err('identityToken must be a JWT (three base64url parts) or null');

export const checkLocale = (value: unknown): Result<string> => {
  if (typeof value === 'string' && value !== '') {
    try {
      const [canonical] = Intl.getCanonicalLocales(value);
      if (canonical) return ok(canonical);
    } catch {
      // RangeError: not a BCP 47 tag.
    }
  }
  return err('locale must be a BCP 47 language tag such as "en" or "de-DE"');
};

/**
 * Checks `window.serviceSettings` (or the argument of `load()`). Only a missing widget id is fatal; any other invalid
 * field is reported in `issues` and left out, so the widget still loads with the default.
 */
export function parseSettings(raw: unknown, defaults: SettingsDefaults): Result<ParsedSettings> {
  const issues: string[] = [];
  let input: Record<string, unknown> = {};
  if (typeof raw === 'object' && raw !== null) input = raw as Record<string, unknown>;
  else if (raw !== undefined) issues.push('settings must be an object');

  let widgetId = defaults.widgetId;
  if (input.widgetId !== undefined) {
    const checked = checkWidgetId(input.widgetId);
    if (checked.ok) widgetId = checked.value;
    else if (widgetId) issues.push(checked.error);
    else return err(checked.error);
  }
  const id = checkWidgetId(widgetId);
  if (!id.ok)
    return err('widgetId is required: set serviceSettings.widgetId or data-widget-id on the script tag');

  const settings: WidgetSettings = { widgetId: id.value, baseUrl: defaults.baseUrl };
  /** A field the page set: taken when valid, else left out with an issue. */
  const take = <K extends keyof WidgetSettings>(
    field: K,
    check: (value: unknown) => Result<WidgetSettings[K]>,
  ): void => {
    if (input[field] === undefined) return;
    const checked = check(input[field]);
    if (checked.ok) settings[field] = checked.value;
    else issues.push(`${checked.error}; ignored`);
  };
  take('baseUrl', checkBaseUrl);
  take('hidden', checkHidden);
  take('userData', checkUserData);
  take('customInstructions', checkCustomInstructions);
  // `null` and `''` (a visitor who is not signed in) are no token.
  take('identityToken', (value) => {
    const checked = checkIdentityToken(value);
    return checked.ok ? ok(checked.value || undefined) : checked;
  });
  take('locale', checkLocale);
  take('storage', checkStorage);
  take('theme', checkTheme);
  take('analytics', checkAnalytics);
  take('container', checkContainer);
  for (const name of CALLBACKS)
    take(name, (value) =>
      typeof value === 'function'
        ? ok(value as (detail: EventDetail) => void)
        : err(`${name} must be a function`),
    );
  return ok({ settings, issues });
}

/** Whether the page runs inside a frame; a cross-origin parent that refuses the comparison counts as a frame. */
export const isInIframe = (win: Window = window): boolean => {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
};

/**
 * SPEC "Personalization data and widget settings": `true` hides the launcher everywhere, `false` shows it everywhere
 * (iframes included); absent, it is hidden inside an iframe or on a page the merchant listed in `hideUrls`.
 */
export const resolveHidden = (hidden: boolean | undefined, inIframe: boolean, onHiddenUrl = false): boolean =>
  hidden ?? (inIframe || onHiddenUrl);
