import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { err, ok, type Result } from '../../../protocol/result';
import { isLoopbackAddress, isPublicAddress } from './address-policy';

// Outbound HTTP on an integrator's behalf (custom actions, feed downloads) that cannot be turned against the service
// or its network (DESIGN: custom actions, "HTTPS only. Private, loopback and link-local addresses are refused in every
// encoding, redirects are re-checked hop by hop; total timeout and a byte cap on the body").
//
// Why node:http and not `fetch`: the check has to be on the address we actually connect to. We resolve the name
// ourselves, refuse it when any answer is not public, and hand the socket the very address we checked through a
// custom `lookup`, so a DNS answer that changes between check and connect (rebinding) cannot reach a private address.
// TLS still verifies the certificate against the hostname (SNI and identity check use the name, not the address).

export type GuardedFetchErrorCode =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'address_not_allowed'
  | 'dns_failed'
  | 'timeout'
  | 'aborted'
  | 'too_many_redirects'
  | 'network'
  | 'tls';

export interface GuardedFetchError {
  code: GuardedFetchErrorCode;
  message: string;
}

export interface GuardedResponse {
  status: number;
  /** Node's lower-cased response headers of the final hop. */
  headers: IncomingHttpHeaders;
  /** The body decoded as UTF-8, at most `maxBytes` bytes of it (never a broken character at the cut). */
  body: string;
  /** The body was longer than `maxBytes`; reading stopped there and the connection was closed. */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  finalUrl: string;
}

/** What a name resolves to; `dns.lookup(host, { all: true })` by default, replaceable in tests. */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedFetchOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** One deadline for everything: DNS, connect, TLS, every redirect hop and the whole body. */
  timeoutMs: number;
  /**
   * Body bytes read at most. guardedFetch stops there and marks the response `truncated`; guardedStream fails with
   * `too_large` instead (a streamed consumer may already have used the first part, so a cut must be loud).
   */
  maxBytes: number;
  /** Redirects followed at most (default 3); one more is `too_many_redirects`. */
  maxRedirects?: number;
  /** Development and tests only (config `allowHttpLoopback`): http: and https: may reach loopback addresses. */
  allowHttpLoopback: boolean;
  signal?: AbortSignal;
  /** An extra trusted CA certificate (PEM), added to Node's roots; for tests with a self-signed server. */
  ca?: string;
  /** Replaces DNS resolution; for tests that need a name resolving to a given address. */
  resolve?: ResolveHost;
  /**
   * Tests only: the address the socket dials instead of the checked one, so a local server can stand in for a public
   * host (`resolve` says shop.test is 93.184.215.14, this dials 127.0.0.1). Every check still runs on the resolved
   * address. Never set from configuration.
   */
  dialForTests?: (checkedAddress: string) => string;
  /**
   * Headers made for each hop just before it is sent, from what that hop sends (the method, path and body may change
   * on a redirect): signed outbound calls, src/server/platform/outbound-signature.ts. They win over `headers`.
   */
  hopHeaders?: (hop: HopRequest) => Record<string, string>;
}

/** What one hop puts on the wire, for {@link GuardedFetchOptions.hopHeaders}. */
export interface HopRequest {
  method: string;
  /** The request line's target: path and query, percent-encoded, exactly as sent. */
  pathAndQuery: string;
  body: string | undefined;
  /** The hop's origin is not the first URL's: a redirect left it. */
  crossOrigin: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers the guard owns; a caller's value for them is ignored. */
const OWNED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'accept-encoding',
]);
/** Dropped when a redirect leaves the origin, as `fetch` does, so a feed token never follows a redirect elsewhere. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

class GuardError extends Error {
  constructor(
    readonly code: GuardedFetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Fetches `url` under the SSRF guard. Never throws: every failure is an error value with a code.
 *
 * @example
 * const res = await guardedFetch('https://shop.example/orders/42', {
 *   method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 10_000, maxBytes: 256 * 1024,
 *   allowHttpLoopback: false,
 * });
 * if (res.ok) console.log(res.value.status, res.value.body);
 * else console.log(res.error.code); // 'address_not_allowed', 'timeout', ...
 */
export async function guardedFetch(
  url: string,
  options: GuardedFetchOptions,
): Promise<Result<GuardedResponse, GuardedFetchError>> {
  const deadline = startDeadline(options);
  try {
    const final = await openFinal(url, options, deadline.signal);
    const { text, truncated } = await readFinalBody(final, options.maxBytes, deadline.signal);
    return ok({
      status: final.status,
      headers: final.res.headers,
      body: text,
      truncated,
      finalUrl: final.target.url.href,
    });
  } catch (e) {
    return err(toFetchError(deadline.signal.aborted ? deadline.signal.reason : e));
  } finally {
    deadline.dispose();
  }
}

export type GuardedStreamErrorCode = GuardedFetchErrorCode | 'too_large';

/** What a {@link guardedStream} body fails with: the same codes as the request, plus `too_large`. */
export class GuardedStreamError extends Error {
  constructor(
    readonly code: GuardedStreamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GuardedStreamError';
  }
}

export interface GuardedStreamResponse {
  status: number;
  /** Node's lower-cased response headers of the final hop. */
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /**
   * The body as Buffers (a Readable, so `for await` works), never decompressed. It fails with a
   * {@link GuardedStreamError}: `too_large` past `maxBytes`, `timeout` at the deadline (which still runs while the body
   * is read), `aborted` on the caller's signal, `network` when the connection drops before the body is complete.
   * Destroying it closes the connection; a body never read is closed at the deadline.
   */
  body: Readable;
}

/**
 * {@link guardedFetch} for bodies too large to buffer (feed downloads): the same checks, redirects and single
 * deadline, but the answer comes as soon as the final response's headers do and the body is streamed. A body longer
 * than `maxBytes` is an error (`too_large`), never a silent cut: a `content-length` over the cap is refused before any
 * byte is read, and a body that grows past it fails the stream. Never throws; the body stream fails instead.
 *
 * @example
 * const res = await guardedStream('https://shop.example/feed.json', {
 *   method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 120_000, maxBytes: 256 * 1024 * 1024,
 *   allowHttpLoopback: false,
 * });
 * if (res.ok) for await (const chunk of res.value.body) process(chunk); // throws GuardedStreamError
 */
export async function guardedStream(
  url: string,
  options: GuardedFetchOptions,
): Promise<Result<GuardedStreamResponse, { code: GuardedStreamErrorCode; message: string }>> {
  const deadline = startDeadline(options);
  let final: FinalResponse;
  try {
    final = await openFinal(url, options, deadline.signal);
  } catch (e) {
    deadline.dispose();
    return err(toFetchError(deadline.signal.aborted ? deadline.signal.reason : e));
  }
  const declared = Number(final.res.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    final.req.destroy();
    deadline.dispose();
    return err({
      code: 'too_large',
      message: `the body is ${declared} bytes, more than the ${options.maxBytes} allowed`,
    });
  }
  return ok({
    status: final.status,
    headers: final.res.headers,
    finalUrl: final.target.url.href,
    body: cappedBody(final, options.maxBytes, deadline),
  });
}

interface Deadline {
  signal: AbortSignal;
  dispose(): void;
}

/** One deadline for the whole exchange, also tripped by the caller's signal; `dispose` stops both. */
function startDeadline(options: GuardedFetchOptions): Deadline {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new GuardError('timeout', `no complete answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const onCallerAbort = () => deadline.abort(new GuardError('aborted', 'the request was cancelled'));
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: deadline.signal,
    dispose: () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

interface FinalResponse {
  target: Target;
  status: number;
  req: ClientRequest;
  /** Unread: nothing has consumed the body yet. */
  res: IncomingMessage;
}

/** Checks and sends, following redirects hop by hop, up to the final (non-redirect) response's headers. */
async function openFinal(
  url: string,
  options: GuardedFetchOptions,
  signal: AbortSignal,
): Promise<FinalResponse> {
  const maxRedirects = options.maxRedirects ?? 3;
  let current = url;
  let method = options.method.toUpperCase();
  let body = options.body;
  let headers = ownHeaders(options.headers);
  // `allowHttpLoopback` (development and tests) lets the configured URL reach loopback, never where it redirects:
  // a dev endpoint's redirect must not become a way into another local service (DESIGN "Other bad input").
  const hopOptions = { ...options, allowHttpLoopback: false };
  let firstOrigin: string | undefined;
  for (let redirects = 0; ; redirects++) {
    const target = await checkTarget(current, redirects === 0 ? options : hopOptions, signal);
    firstOrigin ??= target.url.origin;
    const hop = options.hopHeaders?.({
      method,
      pathAndQuery: requestTarget(target.url),
      body,
      crossOrigin: target.url.origin !== firstOrigin,
    });
    const response = await send(
      target,
      method,
      hop ? { ...headers, ...ownHeaders(hop) } : headers,
      body,
      options,
      signal,
    );
    if (response.kind === 'final')
      return { target, status: response.status, req: response.req, res: response.res };

    if (redirects >= maxRedirects) {
      throw new GuardError('too_many_redirects', `more than ${maxRedirects} redirects`);
    }
    let next: URL;
    try {
      next = new URL(response.location, target.url);
    } catch {
      throw new GuardError('invalid_url', `redirect to an invalid URL: ${response.location}`);
    }
    // RFC 9110 §15.4: 303 turns into GET; so do 301/302 after a POST, as every browser does.
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = withoutHeader(headers, (name) => name === 'content-type');
    }
    if (next.origin !== target.url.origin)
      headers = withoutHeader(headers, (name) => CREDENTIAL_HEADERS.has(name));
    current = next.href;
  }
}

/** Buffers the final body up to `maxBytes` (guardedFetch); the deadline destroys the request while it reads. */
function readFinalBody(
  { req, res }: FinalResponse,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      req.destroy();
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      req.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    readBody(res, maxBytes).then(
      (read) => {
        settle();
        if (read.truncated) req.destroy();
        resolve(read);
      },
      (e: unknown) => {
        settle();
        req.destroy();
        reject(e);
      },
    );
  });
}

/**
 * The final body as a Readable with backpressure (the socket pauses while the consumer is busy), failing with a
 * GuardedStreamError past `maxBytes`, at the deadline, or on a connection closed early. The deadline is released when
 * the body ends or is destroyed, whichever comes first.
 */
function cappedBody({ req, res }: FinalResponse, maxBytes: number, deadline: Deadline): Readable {
  let received = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    deadline.dispose();
    deadline.signal.removeEventListener('abort', onAbort);
    res.removeListener('data', onData);
  };
  const body = new Readable({
    read() {
      res.resume();
    },
    destroy(error, callback) {
      finish();
      // An early destroy (the consumer gave up, or a cap) closes the connection; after `end` it is already done.
      if (!res.complete) req.destroy();
      callback(error);
    },
  });
  const fail = (code: GuardedStreamErrorCode, message: string) => {
    if (!body.destroyed) body.destroy(new GuardedStreamError(code, message));
  };
  const onAbort = () => {
    const e = toFetchError(deadline.signal.reason);
    fail(e.code, e.message);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) {
      fail('too_large', `the body is larger than the ${maxBytes} bytes allowed`);
      return;
    }
    if (!body.push(chunk)) res.pause();
  };
  if (deadline.signal.aborted) onAbort();
  else deadline.signal.addEventListener('abort', onAbort, { once: true });
  res.on('data', onData);
  res.pause();
  res.on('end', () => {
    if (body.destroyed) return;
    finish();
    body.push(null);
  });
  res.on('error', (e) => {
    const fe = toFetchError(e);
    fail(fe.code, fe.message);
  });
  res.on('close', () => {
    if (!res.complete) fail('network', 'the connection closed before the body was complete');
  });
  return body;
}

interface Target {
  url: URL;
  /** The hostname without IPv6 brackets: what TLS checks the certificate against and the Host header names. */
  host: string;
  /** The checked addresses, in resolver order; the socket connects to these and nothing else. */
  addresses: string[];
}

/** Parses, checks the scheme, resolves, and checks every address; throws a GuardError on refusal. */
async function checkTarget(raw: string, options: GuardedFetchOptions, signal: AbortSignal): Promise<Target> {
  let url: URL;
  try {
    // The WHATWG parser canonicalizes every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) to dotted
    // decimal and IPv6 to its compressed form, so the checks below see one spelling per address.
    url = new URL(raw);
  } catch {
    throw new GuardError('invalid_url', `not an absolute URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new GuardError('scheme_not_allowed', `${url.protocol} is not allowed, only https:`);
  }
  if (url.protocol === 'http:' && !options.allowHttpLoopback) {
    throw new GuardError('scheme_not_allowed', 'http: is not allowed, only https:');
  }
  if (url.username || url.password) {
    throw new GuardError('invalid_url', 'credentials in the URL are not allowed');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new GuardError('invalid_url', 'the URL has no host');

  const addresses = isIP(host) ? [{ address: host }] : await resolveHost(host, options, signal);
  if (addresses.length === 0) throw new GuardError('dns_failed', `${host} has no address`);
  for (const { address } of addresses) {
    const loopback = options.allowHttpLoopback && isLoopbackAddress(address);
    if (!isPublicAddress(address) && !loopback) {
      throw new GuardError(
        'address_not_allowed',
        `${host} resolves to ${address}, which is not a public address`,
      );
    }
    if (url.protocol === 'http:' && !loopback) {
      throw new GuardError('scheme_not_allowed', 'http: is allowed to loopback addresses only');
    }
  }
  return { url, host, addresses: addresses.map((a) => a.address) };
}

/** RFC 6761 §6.3: localhost names are loopback, whatever a resolver says (and `localhost.` resolves nowhere here). */
const LOCALHOST_NAME = /^(.+\.)?localhost\.?$/i;

async function resolveHost(
  host: string,
  options: GuardedFetchOptions,
  signal: AbortSignal,
): Promise<{ address: string }[]> {
  if (LOCALHOST_NAME.test(host)) return [{ address: '127.0.0.1' }];
  const resolving = (options.resolve ?? ((h) => dnsLookup(h, { all: true })))(host).catch((e: unknown) => {
    throw new GuardError('dns_failed', `cannot resolve ${host}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  });
  return Promise.race([resolving, rejectOnAbort(signal)]);
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

type SendOutcome =
  | { kind: 'final'; status: number; req: ClientRequest; res: IncomingMessage }
  | { kind: 'redirect'; status: number; location: string };

/**
 * Connections kept open between calls (issue 32: a custom action's call made a TCP connection, and over https: a TLS
 * handshake, every time). Node's pool names a connection by host, port and TLS options; `pin` adds the checked
 * addresses it was dialled to and the trusted CA, so a connection is only ever reused for a request whose own checks
 * gave the same addresses and the same trust: reuse never reaches anything a fresh request's checks would not. A free
 * connection is closed after `FREE_SOCKET_MS`, under the 5 s most servers keep an idle one open (Node's default among
 * them), so that a server seldom closes one just as it is reused. When a reused connection is reset before any answer,
 * the server may have closed it idle, or read the request and failed: the request is sent once more on a connection of
 * its own (`send`'s `fresh`), as Node's documentation advises, only where a second delivery is harmless: a method that
 * changes nothing, or a request carrying the id an integrator deduplicates on (`RESEND_SAFE_HEADERS`).
 */
const FREE_SOCKET_MS = 4000;
type PinnedOptions = http.AgentOptions & { pin?: string };
class PinnedHttpAgent extends http.Agent {
  override getName(options?: PinnedOptions): string {
    return `${super.getName(options)}|${options?.pin ?? ''}`;
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: PinnedOptions): string {
    return `${super.getName(options)}|${options?.pin ?? ''}`;
  }
}
const pooled = { keepAlive: true, timeout: FREE_SOCKET_MS, maxFreeSockets: 16 };
const httpAgent = new PinnedHttpAgent(pooled);
const httpsAgent = new PinnedHttpsAgent(pooled);
/** A reused connection reset before any answer (a server that closed it idle, most often). */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Ids an integrator deduplicates on (outbound-signature.ts, hooks/event-worker.ts): the same on a second delivery. */
const RESEND_SAFE_HEADERS = ['x-service-request-id', 'x-service-event-id'];
const resendable = (method: string, headers: Record<string, string>) =>
  IDEMPOTENT.has(method.toUpperCase()) ||
  Object.keys(headers).some((name) => RESEND_SAFE_HEADERS.includes(name.toLowerCase()));

/** One request to a checked target, up to the response's headers; a redirect's connection is closed at once. */
function send(
  target: Target,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  options: GuardedFetchOptions,
  signal: AbortSignal,
  fresh = false,
): Promise<SendOutcome> {
  return new Promise<SendOutcome>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    // The socket may only ever connect to the addresses checked above, whatever DNS says now. All of them are
    // offered when Node asks for all (autoSelectFamily, "happy eyeballs"), so a broken IPv6 route falls back to IPv4.
    const pinned = target.addresses.map((checked) => {
      const address = options.dialForTests ? options.dialForTests(checked) : checked;
      return { address, family: isIP(address) === 6 ? 6 : 4 };
    });
    const pinnedLookup: LookupFunction = (_hostname, opts, callback) => {
      if (opts.all) callback(null, pinned);
      else callback(null, pinned[0].address, pinned[0].family);
    };
    const isHttps = target.url.protocol === 'https:';
    // `secureContext` is a tls.connect option Node passes through; its https types leave it out.
    const requestOptions: https.RequestOptions & { secureContext?: SecureContext } = {
      method,
      host: target.host,
      port: target.url.port || (isHttps ? 443 : 80),
      path: requestTarget(target.url),
      headers: {
        ...headers,
        host: target.url.host,
        'accept-encoding': 'identity',
        ...(payload ? { 'content-length': String(payload.length) } : {}),
      },
      lookup: pinnedLookup,
      agent: fresh ? false : isHttps ? httpsAgent : httpAgent,
    };
    // The pool's name for the connection (PinnedHttpAgent): the addresses checked and dialled, and the CA trusted.
    // Sorted: a round-robin resolver's rotating order is the same set of addresses.
    (requestOptions as PinnedOptions).pin = [
      [...target.addresses].sort().join(','),
      pinned
        .map((p) => p.address)
        .sort()
        .join(','),
      options.ca ?? '',
    ].join('|');
    if (isHttps) {
      // SNI must be a name, never an IP literal; the identity check then uses `servername`, else `host`.
      if (!isIP(target.host)) requestOptions.servername = target.host;
      if (options.ca) requestOptions.secureContext = contextWithCa(options.ca);
      else requestOptions.minVersion = 'TLSv1.2';
    }

    const req = (isHttps ? https : http).request(requestOptions);
    const onAbort = () => {
      req.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);

    let responded = false;
    req.on('error', (e) => {
      settle();
      const stale = STALE_SOCKET.has((e as NodeJS.ErrnoException).code ?? '');
      if (req.reusedSocket && stale && !responded && !signal.aborted && resendable(method, headers))
        send(target, method, headers, body, options, signal, true).then(resolve, reject);
      else reject(e);
    });
    req.on('response', (res: IncomingMessage) => {
      responded = true;
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        settle();
        req.destroy();
        resolve({ kind: 'redirect', status, location });
        return;
      }
      // The body is the caller's to read (buffered or streamed), under the caller's watch of the deadline.
      settle();
      resolve({ kind: 'final', status, req, res });
    });
    req.end(payload);
  });
}

const contexts = new Map<string, SecureContext>();

/** Node's roots plus one extra CA; built once per CA, since parsing every root costs ~20 ms per request. */
function contextWithCa(ca: string): SecureContext {
  let context = contexts.get(ca);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, ca], minVersion: 'TLSv1.2' });
    if (contexts.size >= 8) contexts.clear();
    contexts.set(ca, context);
  }
  return context;
}

/** Reads at most `maxBytes`; stops (and leaves the socket to be destroyed) as soon as more arrive. */
function readBody(res: IncomingMessage, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    let received = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      res.removeAllListeners('data');
      // When cut, a character split at the cut is dropped rather than turned into U+FFFD.
      if (!truncated) text += decoder.end();
      resolve({ text, truncated });
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - received;
      if (chunk.length > room) {
        text += decoder.write(chunk.subarray(0, room));
        received = maxBytes;
        finish(true);
        return;
      }
      received += chunk.length;
      text += decoder.write(chunk);
    });
    res.on('end', () => finish(false));
    const fail = (e: unknown) => {
      if (done) return;
      done = true;
      reject(e);
    };
    res.on('error', fail);
    res.on('close', () => {
      if (!res.complete)
        fail(new GuardError('network', 'the connection closed before the body was complete'));
    });
  });
}

/** The request line's target; also what `hopHeaders` is told, so a signature covers exactly this. */
const requestTarget = (url: URL): string => `${url.pathname}${url.search}`;

function ownHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!OWNED_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

function withoutHeader(
  headers: Record<string, string>,
  drop: (name: string) => boolean,
): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop(name)));
}

const TLS_ERROR =
  /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY|DECRYPT)_|HOSTNAME_MISMATCH$)/;

function toFetchError(e: unknown): GuardedFetchError {
  if (e instanceof GuardError) return { code: e.code, message: e.message };
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (code && TLS_ERROR.test(code)) return { code: 'tls', message: `TLS: ${message}` };
  return { code: 'network', message: code ? `${code}: ${message}` : message };
}
