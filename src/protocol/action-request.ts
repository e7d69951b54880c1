import { err, ok, type Result } from './result';
import { PREVIEW_HEADER } from './widget-settings';

// The request a custom action call makes, to the letter of SPEC "Custom action call": method from the definition,
// the three x-service headers, POST → JSON body with one key per parameter, GET → query parameters and no body,
// `{paramName}` placeholders filled and then left out of body and query. Pure: no I/O, so every rule is testable
// without a network, and the network tests prove the same request reaches the wire.

/** SPEC "Versioning": every custom action call carries this in `x-service-custom-actions-version`. */
export const CUSTOM_ACTIONS_VERSION = '2024-11-01';
/** Keep in step with package.json (a test checks it). */
export const SERVICE_VERSION = '0.1.0';
export const USER_AGENT = `service-widget/${SERVICE_VERSION} (+custom-actions)`;
/** SPEC's expected responses are text/plain or JSON; card XML is accepted too. */
export const ACTION_ACCEPT = 'application/json, text/plain;q=0.9, application/xml;q=0.8, */*;q=0.1';

/**
 * What a request is built from: a custom action with its defaults filled in (the service's parsed config, or the
 * console's draft once it has filled them). Only the fields the request needs, so browser code can build one too.
 */
export interface ActionTarget {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  parameters: readonly { name: string; type: 'string' | 'number' | 'boolean'; required?: boolean }[];
}

export type ActionParamValue = string | number | boolean;
export type ActionParams = Readonly<Record<string, ActionParamValue | null | undefined>>;

export interface ActionCallIds {
  widgetId: string;
  conversationId: string;
  /**
   * `x-service-request-id`: made once per call by the caller (`newRequestId()`) and passed again on a retry of the
   * same call, so the integrator can deduplicate. The signing hook sends it (src/server/platform/outbound-signature.ts).
   */
  requestId: string;
  /** The customer an identity token verified (issue 18): `x-service-user-id`, `x-service-user-email`. */
  user?: { id: string; email?: string } | null;
  /** A call from the console's chat preview or action test (issue 22): `x-service-preview: 1`. */
  preview?: boolean;
  /**
   * The language the assistant answers this turn in (`en`, `de`), sent as `Accept-Language` so the integrator can
   * word its answer and label its card in it (issue 31). Anything that is not a plain language tag is left out.
   */
  language?: string;
}

export interface ActionRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type ActionRequestErrorCode =
  | 'placeholder_undefined'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'invalid_url';

export interface ActionRequestError {
  code: ActionRequestErrorCode;
  message: string;
}

/**
 * A language tag fit for `Accept-Language`: letters, digits and hyphens only, as short as real tags are. The value is
 * the service's own answer language today, but the header is built here for every caller, so nothing else (a CR or
 * LF, a comma list, a page's garbage) can ever become a header line.
 */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

/** The `Accept-Language` value for an answer language, or undefined when it is not a plain language tag. */
export function acceptLanguageOf(language: string | undefined): string | undefined {
  return language !== undefined && LANGUAGE_TAG.test(language) ? language : undefined;
}

/** `{name}`: any non-empty text between braces is a placeholder, so a mistyped one fails loudly instead of silently. */
const PLACEHOLDER = /\{([^{}]+)\}/g;
const HAS_PLACEHOLDER = /\{[^{}]+\}/;

/**
 * Builds the HTTP request for one call of a custom action. Values of parameters the action does not define are
 * ignored, never forwarded. Fails, without anything being called, when the URL names a placeholder that is not a
 * defined parameter, when a required or placeholder parameter has no value, or when a value has the wrong type.
 *
 * @example
 * const req = buildActionRequest(
 *   { name: 'Order status', description: '', method: 'GET', enabled: true,
 *     url: 'https://shop.example/orders/{order_id}', parameters: [{ name: 'order_id', type: 'string', required: true }] },
 *   { order_id: 'A/42' },
 *   { widgetId: 'demo', conversationId: 'c1', requestId: newRequestId() },
 * );
 * // req.value.url === 'https://shop.example/orders/A%2F42', no query, no body
 */
export function buildActionRequest(
  action: ActionTarget,
  params: ActionParams,
  ids: ActionCallIds,
): Result<ActionRequest, ActionRequestError> {
  const template = action.url;
  const defined = new Map(action.parameters.map((p) => [p.name, p]));

  const placeholders = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1];
    // SPEC "Errors → Custom actions": the action fails and the endpoint is not called.
    if (!defined.has(name)) {
      return err({
        code: 'placeholder_undefined',
        message: `the URL placeholder {${name}} is not a parameter of the action`,
      });
    }
    placeholders.add(name);
  }
  // Filling may only ever touch the path and the query: a placeholder in the scheme, credentials, host or port
  // would let a parameter value choose where the request goes.
  const authorityEnd = endOfAuthority(template);
  const firstPlaceholder = template.search(PLACEHOLDER);
  if (firstPlaceholder !== -1 && firstPlaceholder < authorityEnd) {
    return err({
      code: 'invalid_url',
      message: 'placeholders may only be used in the path or the query of the URL',
    });
  }

  // Typed values of the defined parameters, in definition order. Own properties only: `constructor` or `__proto__`
  // as a parameter name reads what the caller sent, never something inherited.
  const values = new Map<string, ActionParamValue>();
  for (const p of action.parameters) {
    const value = Object.hasOwn(params, p.name) ? params[p.name] : undefined;
    if (value === undefined || value === null) {
      // DESIGN: a placeholder makes its parameter required.
      if (p.required || placeholders.has(p.name)) {
        return err({ code: 'missing_parameter', message: `parameter ${p.name} has no value` });
      }
      continue;
    }
    const valid =
      p.type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : p.type === 'boolean'
          ? typeof value === 'boolean'
          : typeof value === 'string';
    if (!valid) {
      return err({
        code: 'invalid_parameter',
        message: `parameter ${p.name} must be a ${p.type === 'number' ? 'finite number' : p.type}, got ${describe(value)}`,
      });
    }
    values.set(p.name, value);
  }

  // encodeURIComponent leaves only unreserved characters and %XX, so `/`, `?`, `#`, `@`, `:` in a value stay inside
  // its path segment or query value. A whole segment of dots would still be a dot-segment the URL parser resolves
  // (`.`, `..`, `%2e%2e` alike), walking up the integrator's path, so such values are refused.
  const pathEnd = queryStart(template, authorityEnd);
  let filledPath = '';
  for (const segment of template.slice(0, pathEnd).split(/(?=[/\\])/)) {
    const filledSegment = HAS_PLACEHOLDER.test(segment) ? fill(segment, values) : segment;
    if (filledSegment !== segment && /^[/\\]?(\.|%2e){1,2}$/i.test(filledSegment)) {
      return err({
        code: 'invalid_parameter',
        message: `the value for ${segment.replace(/^[/\\]/, '')} must not be "." or ".."`,
      });
    }
    filledPath += filledSegment;
  }
  const filled = filledPath + fill(template.slice(pathEnd), values);

  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return err({ code: 'invalid_url', message: 'the action URL is not a valid absolute URL' });
  }
  url.hash = '';

  const method = action.method;
  const rest = [...values].filter(([name]) => !placeholders.has(name));
  const headers: Record<string, string> = {
    'x-service-custom-actions-version': CUSTOM_ACTIONS_VERSION,
    'x-service-widget-id': ids.widgetId,
    'x-service-conversation-id': ids.conversationId,
    accept: ACTION_ACCEPT,
    'user-agent': USER_AGENT,
  };
  if (ids.preview) headers[PREVIEW_HEADER] = '1';
  const acceptLanguage = acceptLanguageOf(ids.language);
  if (acceptLanguage) headers['accept-language'] = acceptLanguage;
  // Only verified claims: `userData` never becomes an identity header.
  if (ids.user) {
    headers['x-service-user-id'] = ids.user.id;
    if (ids.user.email) headers['x-service-user-email'] = ids.user.email;
  }

  if (method === 'GET') {
    // Appended as text rather than through url.searchParams, which would re-encode the integrator's own query.
    if (rest.length > 0) {
      const extra = new URLSearchParams(rest.map(([name, value]) => [name, String(value)])).toString();
      url.search = url.search ? `${url.search}&${extra}` : `?${extra}`;
    }
    return ok({ method, url: url.href, headers });
  }
  headers['content-type'] = 'application/json';
  return ok({ method, url: url.href, headers, body: JSON.stringify(Object.fromEntries(rest)) });
}

function fill(text: string, values: ReadonlyMap<string, ActionParamValue>): string {
  // Every placeholder name was checked to be defined and to have a value above.
  return text.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(String(values.get(name))));
}

/** Index where the path starts (after `scheme://authority`), or where the query or fragment starts if no path. */
function endOfAuthority(template: string): number {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(template);
  if (!scheme) return template.length;
  const rest = template.slice(scheme[0].length).search(/[/?#\\]/);
  return rest === -1 ? template.length : scheme[0].length + rest;
}

function queryStart(template: string, from: number): number {
  const i = template.slice(from).search(/[?#]/);
  return i === -1 ? template.length : from + i;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return typeof value;
}
