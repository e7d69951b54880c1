/**
 * One HTTP exchange with deadlines, retries and cancellation, as values: the building block of the typed clients.
 * Nothing here throws for a network or HTTP outcome; the caller maps the final {@link Outcome} to its own result.
 */

/** Why a retry happens: a transport failure, a 429 or a 5xx. */
export type RetryReason = 'network' | 'timeout' | 'rate_limited' | 'server';

/** Passed to `onRetry` before each wait. `attempt` is the number of the attempt that failed (1 = the first). */
export interface RetryInfo {
  attempt: number;
  reason: RetryReason;
  /** How long the client waits before the next attempt: `Retry-After` when the server sent one, else backoff. */
  delayMs: number;
  status?: number;
}

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  retries: number;
  /** Backoff base: attempt n waits between half and all of `retryDelayMs * 2^(n-1)`, capped at `maxRetryDelayMs`. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the outcome is returned at once. */
  maxRetryAfterMs: number;
  onRetry?: (info: RetryInfo) => void;
}

export type Outcome =
  | {
      type: 'response';
      status: number;
      /** The raw body, read before the deadline. */
      body: string;
      /** From `Retry-After` (delay-seconds or HTTP-date), when present and readable. */
      retryAfterMs?: number;
    }
  | { type: 'failure'; kind: 'network' | 'timeout' | 'aborted'; message: string };

export interface SendOptions {
  fetch: typeof fetch;
  /** Deadline of one attempt, from sending the request to having read the whole response body. */
  timeoutMs: number;
  policy: RetryPolicy;
  signal?: AbortSignal;
  /**
   * `false` for a request that may have done its work even when no answer came back (creating a task): a timeout or
   * network failure is then returned, not retried. 429 and 5xx did nothing and are retried either way.
   */
  isIdempotent?: boolean;
}

/**
 * `Retry-After` as milliseconds from now (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), or `undefined` when the
 * header is absent or unreadable. A date in the past is 0.
 *
 * @example
 * parseRetryAfter('2'); // 2000
 * parseRetryAfter(new Date(Date.now() + 60_000).toUTCString()); // about 60000
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // IMF-fixdate, RFC 850 and asctime all start with the day name; Date.parse alone would take '-5' for a year.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": never zero, never more than the cap, spread to avoid lockstep clients. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxRetryDelayMs, policy.retryDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/**
 * Sends the request, retrying transport failures, 429 and 5xx with backoff (or the server's `Retry-After`), and
 * resolves to the last outcome. 4xx other than 429 are returned at once. Aborting `signal` stops the attempt in
 * flight or the wait, and resolves to an `aborted` failure.
 *
 * @example
 * const outcome = await sendWithRetry('https://api.example.com/x', { method: 'GET' }, {
 *   fetch, timeoutMs: 10_000, policy: { retries: 3, retryDelayMs: 500, maxRetryDelayMs: 30_000, maxRetryAfterMs: 60_000 },
 * });
 * if (outcome.type === 'response' && outcome.status === 200) console.log(JSON.parse(outcome.body));
 */
export async function sendWithRetry(url: string, init: RequestInit, options: SendOptions): Promise<Outcome> {
  const { policy, signal } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) return aborted();
    const outcome = await sendOnce(url, init, options);
    const reason = retryReason(outcome, options.isIdempotent !== false);
    if (reason === undefined || attempt > policy.retries) return outcome;
    let delayMs = backoffDelay(attempt, policy);
    if (outcome.type === 'response' && outcome.retryAfterMs !== undefined) {
      // The server said when: waiting less would only earn another 429, waiting far longer is the caller's call.
      if (outcome.retryAfterMs > policy.maxRetryAfterMs) return outcome;
      delayMs = outcome.retryAfterMs;
    }
    policy.onRetry?.({
      attempt,
      reason,
      delayMs,
      ...(outcome.type === 'response' ? { status: outcome.status } : {}),
    });
    if (!(await sleep(delayMs, signal))) return aborted();
  }
}

function retryReason(outcome: Outcome, isIdempotent: boolean): RetryReason | undefined {
  if (outcome.type === 'failure')
    return outcome.kind === 'aborted' || !isIdempotent ? undefined : outcome.kind;
  if (!isRetryableStatus(outcome.status)) return undefined;
  return outcome.status === 429 ? 'rate_limited' : 'server';
}

const aborted = (): Outcome => ({ type: 'failure', kind: 'aborted', message: 'The request was aborted.' });

async function sendOnce(url: string, init: RequestInit, options: SendOptions): Promise<Outcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await options.fetch(url, { ...init, signal: controller.signal });
    const body = await response.text();
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return {
      type: 'response',
      status: response.status,
      body,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    if (options.signal?.aborted) return aborted();
    if (timedOut) {
      return {
        type: 'failure',
        kind: 'timeout',
        message: `No complete response within ${options.timeoutMs} ms.`,
      };
    }
    return { type: 'failure', kind: 'network', message: describeNetworkError(error) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Node's fetch says only "fetch failed"; the useful part (ECONNRESET, ECONNREFUSED, ...) is in `cause`. */
function describeNetworkError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `Network error: ${message} (${detail}).` : `Network error: ${message}.`;
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `JSON.parse`, or `undefined` for a body that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The connection options both clients take (documented on each client's options). */
export interface ConnectionOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  maxRetryAfterMs?: number;
  onRetry?: (info: RetryInfo) => void;
}

export interface ResolvedConnection {
  /** `baseUrl`'s origin and path, without a trailing slash. */
  base: string;
  fetch: typeof fetch;
  timeoutMs: number;
  policy: RetryPolicy;
}

/**
 * Checks and fills in the connection options of a client.
 * @throws {RangeError} when an option is out of range (a programming error, not an outcome).
 */
export function resolveConnection(options: ConnectionOptions, defaultTimeoutMs: number): ResolvedConnection {
  const retries = options.retries ?? 3;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new RangeError(`retries must be a non-negative integer, got ${retries}.`);
  }
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${timeoutMs}.`);
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new RangeError(`baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}.`);
  }
  return {
    base: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    // Looked up per call: a test (or a polyfill) may replace the global after the client was made.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs,
    policy: {
      retries,
      retryDelayMs: options.retryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    },
  };
}
