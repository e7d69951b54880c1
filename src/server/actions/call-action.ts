import { type CardPart, detectCard, isDataBody } from '../../cards/detect-card';
import {
  type ActionCallIds,
  type ActionParams,
  type ActionRequestErrorCode,
  buildActionRequest,
} from '../../protocol/action-request';
import type { MessagePart } from '../../protocol/chat';
import type { ActionDefinition } from '../config/service-config';
import {
  type GuardedFetchErrorCode,
  type GuardedFetchOptions,
  guardedFetch,
} from '../platform/net/guarded-fetch';
import { signHop } from '../platform/outbound-signature';

// One custom action call, end to end (SPEC "Custom action call", DESIGN "Custom actions (service side)"): build the
// request, send it through the SSRF guard, and turn the answer into what the AI reads (the first 8000 characters)
// and what the user sees: a card when the body is one (cleaned field by field), prose as it is, and for any other
// data (JSON, XML, HTML that is no card) nothing: the engine says it in words, never shows the data (issue 19 item 7).

/** SPEC "Limits": the response is trimmed to this many characters before the AI uses it. */
export const ACTION_AI_TEXT_MAX = 8000;
export const ACTION_TIMEOUT_MS = 10_000;
export const ACTION_MAX_BYTES = 256 * 1024;

export type ActionErrorCode =
  | ActionRequestErrorCode
  | GuardedFetchErrorCode
  | 'action_disabled'
  | 'http_error';

export interface ActionError {
  code: ActionErrorCode;
  message: string;
}

export type ActionOutcome =
  /** `part` is absent when the body is data that is no card: the shopper is never shown it, the engine words it. */
  | { ok: true; status: number; aiText: string; part?: MessagePart }
  | { ok: false; status?: number; error: ActionError };

export interface CallActionOptions {
  /** Config `allowHttpLoopback` (demo and tests): http: and https: may reach loopback addresses. */
  allowHttpLoopback: boolean;
  /** One deadline for the whole call, redirects and body included. Default 10 s. */
  timeoutMs?: number;
  /** Body bytes read at most. Default 256 KiB. */
  maxBytes?: number;
  /** An extra trusted CA (PEM), for tests against a self-signed HTTPS server. */
  ca?: string;
  /** Tests only (`guardedFetch`): a local HTTPS server standing in for a public host, e.g. to test redirects. */
  resolve?: GuardedFetchOptions['resolve'];
  dialForTests?: GuardedFetchOptions['dialForTests'];
  signal?: AbortSignal;
  /**
   * The widget's signing secret (config `signingSecretEnv`, read at start), or undefined when it signs nothing.
   * A lookup rather than a value, so one set of options serves every widget (the chat and the admin test route).
   */
  signingSecretFor?: (widgetId: string) => string | undefined;
}

/**
 * Calls an integrator's custom action. Never throws: a refused URL, a network failure, a timeout or a non-2xx answer
 * is `{ ok: false, error: { code, message } }` (with `status` when the endpoint answered), which is what the AI is
 * told; an error page is never passed on as if it were the action's answer.
 *
 * @example
 * const outcome = await callAction(action, { order_id: '42' }, { widgetId: 'demo', conversationId, requestId: newRequestId() },
 *   { allowHttpLoopback: config.allowHttpLoopback });
 * if (outcome.ok) { tellTheAi(outcome.aiText); showTheUser(outcome.part); }
 */
export async function callAction(
  action: ActionDefinition,
  params: ActionParams,
  ids: ActionCallIds,
  options: CallActionOptions,
): Promise<ActionOutcome> {
  if (!action.enabled) {
    return {
      ok: false,
      error: { code: 'action_disabled', message: `the action "${action.name}" is disabled` },
    };
  }
  const request = buildActionRequest(action, params, ids);
  if (!request.ok) return { ok: false, error: request.error };

  const response = await guardedFetch(request.value.url, {
    method: request.value.method,
    headers: request.value.headers,
    body: request.value.body,
    timeoutMs: options.timeoutMs ?? ACTION_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? ACTION_MAX_BYTES,
    allowHttpLoopback: options.allowHttpLoopback,
    ca: options.ca,
    resolve: options.resolve,
    dialForTests: options.dialForTests,
    signal: options.signal,
    hopHeaders: signHop({ requestId: ids.requestId, secret: options.signingSecretFor?.(ids.widgetId) }),
  });
  if (!response.ok) return { ok: false, error: response.error };

  const { status, headers, body } = response.value;
  if (status < 200 || status > 299) {
    return {
      ok: false,
      status,
      error: { code: 'http_error', message: `the endpoint answered HTTP ${status}` },
    };
  }
  // The card decision looks at the whole (byte-capped) body; a body cut by the cap is not valid JSON or XML.
  const card = detectCard(body, headers['content-type'] ?? null);
  // The AI reads the card as the shopper sees it, so it never offers a link or a picture the card left out.
  if (card) return { ok: true, status, aiText: firstChars(cardJson(card), ACTION_AI_TEXT_MAX), part: card };
  const aiText = firstChars(body, ACTION_AI_TEXT_MAX);
  if (isDataBody(body)) return { ok: true, status, aiText };
  return { ok: true, status, aiText, part: { type: 'text', text: aiText } };
}

function cardJson(part: CardPart): string {
  return JSON.stringify(part.type === 'products' ? part.cards : part.card);
}

/** The first `max` characters, counted in code points so an emoji at the cut is kept whole or left out. */
function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    out += char;
    count++;
  }
  return out;
}
