import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { err, ok, type Result } from '../../protocol/result';

/** Structured logs: one JSON object per line on stdout, so a log shipper can parse them without a grammar. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * `LOG_LEVEL` as the operator wrote it; unset or empty is `fallback`.
 *
 * @example
 * parseLogLevel('verbose'); // → { ok: false, error: 'LOG_LEVEL must be one of trace, debug, …, got "verbose"' }
 */
export function parseLogLevel(
  value: string | undefined,
  fallback: LogLevel = 'info',
): Result<LogLevel, string> {
  if (value === undefined || value === '') return ok(fallback);
  if ((LOG_LEVELS as readonly string[]).includes(value)) return ok(value as LogLevel);
  return err(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(value)}`);
}

// Field names whose values are credentials wherever they appear in a line (`{ headers: { authorization } }` too),
// compared without case. Checked in the same walk as the strings below rather than by pino's `redact`: its wildcard
// paths (`*.token`, `*.*.token`), which a field at any depth needs, cost 40-65 µs a line against 3 µs for a plain
// one (measured on this machine, 20,000 lines of the access line's shape); the walk costs a few.
const SECRET_FIELDS = new Set(
  ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'jwt', 'key', 'secret', 'password'].map(
    (name) => name.toLowerCase(),
  ),
);

// Issue 32: the push API's `API-Key` header was logged in clear at debug, the list naming `x-api-key` only. A list of
// names misses the next header, so any name that ends in a credential word is one too: `api-key`, `X-Agent-Key`,
// `x-auth-token`, `previewToken`, `signingSecret`, `x-service-signature`. Only the last word counts, so `tokens` (a
// count) or `keyword` stay.
const SECRET_NAME =
  /(?:^|[-_.\s])(?:key|apikey|token|secret|password|passwd|auth|authorization|cookie|credentials?|signature|session)$|[a-z0-9](?:Key|Token|Secret|Password|Signature|Credentials?)$/;

const isSecretName = (name: string): boolean =>
  SECRET_FIELDS.has(name.toLowerCase()) || SECRET_NAME.test(name) || SECRET_NAME.test(name.toLowerCase());

// Field names catch most; a credential inside a string (a URL in an error message, a preview URL's path)
// needs its value recognised. These are the shapes this service hands out or accepts.
const SECRET_PATTERNS: [RegExp, string][] = [
  [/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  [/\bpv_[A-Za-z0-9_-]+/g, 'pv_[redacted]'],
  [/\bnsk_[A-Za-z0-9_-]+/g, 'nsk_[redacted]'],
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, '$1 [redacted]'],
  // Credentials in a URL (`postgres://user:password@host`).
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi, '$1[redacted]@'],
];

/**
 * What every pattern above needs somewhere in the text: most strings of a line (a path, a method, an id) have none of
 * it, and one look spares them five (issue 32: the access line's strings were 0.6 % of a turn's CPU).
 */
const MAY_HOLD_SECRET = /eyJ|pv_|nsk_|bearer|basic|:\/\//i;

/** A string with every credential-shaped part replaced; everything else as it was. */
export function redactSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const REDACTED = '[redacted]';

/** `value` with credential fields and credential-shaped text replaced, `depth` levels down. */
function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (depth === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = isSecretName(k) && v != null ? REDACTED : scrub(v, depth - 1);
  return out;
}

// The request a line belongs to. An AsyncLocalStorage rather than a child logger handed down: the code that logs
// during a request (a push, a feed refresh asked for by an admin, a turn a message started) holds the service's
// logger, not the request's, and it gets the id without a parameter on every function between.
const requestScope = new AsyncLocalStorage<{ reqId: string }>();

/** Runs `fn` with every line logged in it (and in what it starts) carrying `reqId`. */
export function withRequestId<T>(reqId: string, fn: () => T): T {
  return requestScope.run({ reqId }, fn);
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where each line goes (one JSON object and `\n`); default stdout. */
  write?: (line: string) => void;
}

/**
 * A pino logger behind the `Logger` interface: JSON lines with `time` (ISO), `level` (its name), `msg`, the request
 * id of the request being served (`reqId`), credentials redacted.
 *
 * @example
 * const logger = createLogger({ level: 'info' });
 * logger.info('service listening', { url: 'http://127.0.0.1:8787' });
 */
export function createLogger({ level = 'info', write }: LoggerOptions = {}): Logger {
  const log = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => scrub(fields, 3) as Record<string, unknown>,
      },
      // A new object for every line: pino merges the line's own fields into what `mixin` returns, so returning the
      // request's store made each line carry every earlier line's fields (issue 32: the debug line's headers reached
      // the access line).
      mixin: () => {
        const scope = requestScope.getStore();
        return scope ? { reqId: scope.reqId } : {};
      },
    },
    // Synchronous writes: a line written just before `process.exit` (a failed start, the end of a drain) is not
    // lost in a buffer. At a line or two per request, a blocking write's few µs are small beside the request.
    write ? { write } : pino.destination({ dest: 1, sync: true }),
  );
  // Callers pass the methods around unbound (`(ok ? logger.info : logger.warn)(…)`): plain closures, no `this`.
  const at =
    (method: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) =>
      fields ? log[method](fields, msg) : log[method](msg);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = createLogger({ level: 'silent' });
