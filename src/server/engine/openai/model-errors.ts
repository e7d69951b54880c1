import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { EngineError } from './engine-error';

// What the SDK throws, turned into the engine's EngineError. The SDK's own messages are never passed on: an APIError's
// message quotes the upstream error body, and OpenAI's 401 body quotes the API key back (partly masked).

/**
 * @example
 * try { ... } catch (e) { throw engineErrorFrom(e, signal, 'request'); }
 */
export function engineErrorFrom(e: unknown, signal: AbortSignal, phase: 'request' | 'stream'): unknown {
  // The deadline (an EngineError `model_timeout`) or the caller's own reason: it knows why it cancelled.
  if (signal.aborted) return signal.reason;
  if (e instanceof EngineError) return e;
  if (e instanceof APIConnectionTimeoutError) {
    return new EngineError('model_timeout', 'the model did not start answering in time, on any attempt');
  }
  if (e instanceof APIConnectionError) {
    return new EngineError('model_unavailable', `could not reach the model${causeCode(e.cause)}`);
  }
  if (e instanceof APIError) {
    // No status: an error event inside the stream.
    return e.status
      ? new EngineError('model_unavailable', httpErrorMessage(e.status), e.status)
      : new EngineError('model_unavailable', 'the model reported an error while answering');
  }
  if (e instanceof SyntaxError)
    return new EngineError('model_bad_response', 'the model sent data that is not JSON');
  return phase === 'stream'
    ? new EngineError('model_bad_response', 'the model stream broke off')
    : new EngineError('model_unavailable', 'could not reach the model');
}

export function httpErrorMessage(status: number): string {
  if (status === 401 || status === 403) return `the model endpoint refused the API key (HTTP ${status})`;
  if (status === 429) return 'the model endpoint is rate limiting requests (HTTP 429)';
  if (status >= 500) return `the model endpoint failed (HTTP ${status})`;
  return `the model endpoint refused the request (HTTP ${status})`;
}

/**
 * ` (ECONNREFUSED)` from undici's `fetch failed` cause, ` (address_not_allowed)` from the SSRF guard: a code found on
 * the error or its causes, never a message that could carry a URL or a header.
 */
export function causeCode(e: unknown): string {
  let current: unknown = e;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) return ` (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}
