/**
 * Why a model-backed engine could not finish a turn. The conversation layer turns it into an `error` stream event
 * with this `code`, so `message` is written to be safe to show: it never carries the API key, the endpoint's URL or
 * the upstream error body (which may quote the key back, as OpenAI's 401 does).
 *
 * - `model_unavailable`: the endpoint could not be reached (the SSRF guard's refusal included) or answered with an
 *   HTTP error (401, 429, 5xx, ...), after the SDK's retries.
 * - `model_timeout`: the turn's deadline passed (a stalled stream included), or no attempt got an answer started
 *   within the per-request timeout.
 * - `model_bad_response`: the answer was not the chat-completions stream it should be (non-JSON data, ended before
 *   its `finish_reason`, over the byte cap).
 *
 * When the caller cancels the turn through `turn.signal`, the engine throws the signal's `reason` instead, as `fetch`
 * does: the caller knows why it cancelled (run-turn.ts aborts with `Error('turn_timeout')`).
 */
export type EngineErrorCode = 'model_unavailable' | 'model_timeout' | 'model_bad_response';

/**
 * @example
 * try {
 *   await engine.reply(turn, emit);
 * } catch (e) {
 *   if (e instanceof EngineError) await emitStream({ type: 'error', code: e.code, message: e.message });
 *   else throw e;
 * }
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';

  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** The endpoint's HTTP status, when it answered with an error. */
    readonly status?: number,
  ) {
    super(message);
  }
}
