import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { isLoopbackAddress } from '../../platform/net/address-policy';
import { type GuardedFetchOptions, guardedStream } from '../../platform/net/guarded-fetch';
import { EngineError } from './engine-error';

// The `fetch` the openai SDK sends with (DESIGN "The openai engine": the SDK's transport inside the service's caps).
// - Where the model lives: a base URL on this machine (`localhost`, 127.0.0.0/8, [::1]: Ollama, vLLM, a test server)
//   is the operator's own and gets the platform's fetch, without redirects, so the exemption covers that address and
//   nothing it points to. Any other base URL goes through the SSRF guard (src/server/platform/net/guarded-fetch.ts): https
//   only, public addresses only, the checked address pinned against DNS rebinding, every redirect hop re-checked. A
//   model server on a private network is refused like any other private address.
// - A byte cap on every body the model sends: past it the stream fails, and the connection is closed.
// - A Retry-After longer than the turn has left is not waited out: the SDK is told not to retry (its own
//   `x-should-retry` header), so the shopper hears at once that the model is rate limited instead of at the deadline.

/** Tests only: lets the guard reach a local stand-in for a public host (see GuardedFetchOptions). */
export type GuardForTests = Pick<GuardedFetchOptions, 'resolve' | 'dialForTests' | 'ca'>;

export interface ModelFetchOptions {
  baseUrl: string;
  /** Bytes of one response body read at most. */
  maxBytes: number;
  /** When the turn's deadline passes, in ms since the epoch. */
  deadlineAt: number;
  guardForTests?: GuardForTests;
}

/** The statuses the SDK retries (besides an explicit `x-should-retry`). */
const isRetriedStatus = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * @example
 * isLoopbackBaseUrl('http://127.0.0.1:11434/v1'); // true: the platform's fetch
 * isLoopbackBaseUrl('https://api.openai.com/v1'); // false: the SSRF guard
 */
export function isLoopbackBaseUrl(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host)) return isLoopbackAddress(host);
  return host.toLowerCase() === 'localhost';
}

/**
 * @example
 * const client = new OpenAI({ baseURL, apiKey, fetch: createModelFetch({ baseUrl: baseURL, maxBytes, deadlineAt }) });
 */
export function createModelFetch(options: ModelFetchOptions): typeof fetch {
  const send: typeof fetch = isLoopbackBaseUrl(options.baseUrl)
    ? // Looked up per call, not at creation, so a test or a polyfill installed later is used.
      (input, init) => globalThis.fetch(input, { ...init, redirect: 'manual' })
    : guardedTransport(options);
  return async (input, init) => {
    const response = await send(input, init);
    return capped(withoutHopelessRetry(response, options.deadlineAt), options.maxBytes);
  };
}

/** An error the guard refused or failed with; its `code` (`address_not_allowed`, ...) is what the shopper's error names. */
class ModelFetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ModelFetchError';
  }
}

function guardedTransport(options: ModelFetchOptions): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      throw new ModelFetchError('unsupported_body', 'the model request body must be a string');
    }
    const opened = await guardedStream(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body ?? undefined,
      timeoutMs: Math.max(1, options.deadlineAt - Date.now()),
      // Counted by `capped`, the same for both transports.
      maxBytes: Number.MAX_SAFE_INTEGER,
      allowHttpLoopback: false,
      signal: init.signal ?? undefined,
      ...options.guardForTests,
    });
    if (!opened.ok) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new ModelFetchError(opened.error.code, opened.error.message);
    }
    const { status, body } = opened.value;
    if (status < 200 || status > 599) {
      body.destroy();
      throw new ModelFetchError('bad_status', `the model endpoint answered with status ${status}`);
    }
    const empty = status === 204 || status === 205 || status === 304;
    if (empty) body.destroy();
    return new Response(empty ? null : (Readable.toWeb(body) as ReadableStream<Uint8Array>), {
      status,
      headers: webHeaders(opened.value.headers),
    });
  };
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
  }
  return out;
}

/** A retryable error whose Retry-After asks for longer than the turn has left: marked as not to be retried. */
function withoutHopelessRetry(response: Response, deadlineAt: number): Response {
  if (response.ok || !isRetriedStatus(response.status) || response.headers.has('x-should-retry'))
    return response;
  const wait = retryAfterMs(response.headers);
  if (wait === undefined || wait <= deadlineAt - Date.now()) return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The wait the server asks for, read as the SDK reads it (`retry-after-ms`, then `retry-after` in seconds or a date). */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms) && ms) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - Date.now();
}

/** The body, failing with `model_bad_response` once more than `maxBytes` arrived (which also closes the connection). */
function capped(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let received = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        controller.error(
          new EngineError('model_bad_response', `the model's answer is over ${maxBytes} bytes`),
        );
      } else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
