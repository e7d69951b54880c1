import {
  SERVICE_SIGNATURE_HEADER,
  SERVICE_SIGNATURE_SCHEME,
  SERVICE_SIGNATURE_TOLERANCE_SECONDS,
  SERVICE_TIMESTAMP_HEADER,
} from '../protocol/signature';

// Checks a signed call from the service (DESIGN "Signed outbound calls"): `x-service-signature: v1=<hex
// HMAC-SHA256(secret, "<timestamp>.<METHOD>.<path and query>.<raw body>")>` with `x-service-timestamp` in unix
// seconds. Learnt from Standard Webhooks and Stripe (REFERENCES §3): several signatures for rotation, a constant-time
// compare after a length check, and timestamps refused when too old or too far in the future (Stripe only refuses old
// ones, which lets a call signed by a clock set ahead be replayed for longer).
//
// Why two functions: DESIGN fixes `verifyServiceSignature(...): boolean`, and a synchronous HMAC exists only in
// node:crypto (Web Crypto's `crypto.subtle` is promise-based). This package also runs in browsers and edge runtimes,
// where a static `import 'node:crypto'` breaks the bundle (Vite stubs it out for the browser), so the synchronous one
// takes node:crypto at call time through `process.getBuiltinModule` (Node 20.16+, Bun, Deno, Workers with
// nodejs_compat) and says so clearly where there is none; `verifyServiceSignatureAsync` needs only Web Crypto.

/** Header values as Node gives them (`req.headers`), or as a plain object with any letter case. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyServiceSignatureInput {
  /** The widget's signing secret; during a rotation, the old and the new one (any of them may match). */
  secret: string | readonly string[];
  /** The request's method, e.g. `POST` (any case). */
  method: string;
  /** The request URL as received: absolute (`https://shop.example/orders/1?x=1`) or the request line's target. */
  url: string;
  /** A `Headers` instance (fetch, Hono, Next.js) or a plain object (Node's `req.headers`). */
  headers: Headers | HeaderRecord;
  /** The raw body exactly as received, as text or bytes; empty or absent for a GET. Never a parsed object. */
  body?: string | Uint8Array | ArrayBuffer | null;
  /** How far the timestamp may be from now, in seconds, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). Default `Date.now()`. */
  now?: number;
}

/** What both variants check before any HMAC: the parsed signatures and the exact bytes that were signed. */
interface Prepared {
  secrets: string[];
  signatures: Uint8Array<ArrayBuffer>[];
  payload: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();
const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;
const TIMESTAMP = /^\d{1,12}$/;

/**
 * Whether a call really comes from the service with this secret: the signature matches the method, the path and query,
 * the raw body and the timestamp, and the timestamp is within `toleranceSeconds` of now. Accepts several `v1=` values
 * in the header (separated by commas or spaces; any one may match) and several secrets. Synchronous, with node:crypto;
 * where that does not exist (browsers, some edge runtimes) it throws and {@link verifyServiceSignatureAsync} is the
 * one to use. Throws a TypeError on misuse (no secret, a parsed body), never on a bad request: that is `false`.
 *
 * @example
 * import { verifyServiceSignature } from 'service-widget/client';
 *
 * // Express: keep the raw body, e.g. app.use(express.raw({ type: 'application/json' })).
 * app.post('/hooks/cancel', (req, res) => {
 *   const ok = verifyServiceSignature({
 *     secret: process.env.SERVICE_SIGNING_SECRET!,
 *     method: req.method,
 *     url: req.originalUrl,
 *     headers: req.headers,
 *     body: req.body, // a Buffer
 *   });
 *   if (!ok) return res.status(401).send('Bad signature');
 *   // … handle the call; deduplicate on req.headers['x-service-request-id']
 * });
 */
export function verifyServiceSignature(input: VerifyServiceSignatureInput): boolean {
  const prepared = prepare(input);
  if (!prepared) return false;
  const crypto = nodeCrypto();
  for (const secret of prepared.secrets) {
    const expected = crypto.createHmac('sha256', secret).update(prepared.payload).digest();
    for (const signature of prepared.signatures) {
      // timingSafeEqual throws on unequal lengths; every parsed signature is 32 bytes, checked anyway.
      if (signature.length === expected.length && crypto.timingSafeEqual(signature, expected)) return true;
    }
  }
  return false;
}

/**
 * {@link verifyServiceSignature} with Web Crypto only (`crypto.subtle`): for edge runtimes and anywhere without
 * node:crypto. `crypto.subtle.verify` compares in constant time.
 *
 * @example
 * // A Cloudflare Worker, Vercel Edge function or Deno server:
 * const body = await request.arrayBuffer();
 * const ok = await verifyServiceSignatureAsync({
 *   secret: env.SERVICE_SIGNING_SECRET, method: request.method, url: request.url, headers: request.headers, body,
 * });
 * if (!ok) return new Response('Bad signature', { status: 401 });
 */
export async function verifyServiceSignatureAsync(input: VerifyServiceSignatureInput): Promise<boolean> {
  const prepared = prepare(input);
  if (!prepared) return false;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('verifyServiceSignatureAsync needs Web Crypto (crypto.subtle)');
  for (const secret of prepared.secrets) {
    const key = await subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of prepared.signatures) {
      if (await subtle.verify('HMAC', key, signature, prepared.payload)) return true;
    }
  }
  return false;
}

/** Checks everything that needs no key; null when the call is refused already (no signature, stale timestamp). */
function prepare(input: VerifyServiceSignatureInput): Prepared | null {
  const secrets = typeof input.secret === 'string' ? [input.secret] : [...input.secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('verifyServiceSignature: secret must be a non-empty string (or a list of them)');
  }
  const tolerance = input.toleranceSeconds ?? SERVICE_SIGNATURE_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new TypeError('verifyServiceSignature: toleranceSeconds must be 0 or more');
  const body = bodyBytes(input.body);

  const timestamp = header(input.headers, SERVICE_TIMESTAMP_HEADER)?.trim();
  if (!timestamp || !TIMESTAMP.test(timestamp)) return null;
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) return null;

  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const value of (header(input.headers, SERVICE_SIGNATURE_HEADER) ?? '').split(/[\s,]+/)) {
    const [scheme, hex] = splitOnce(value, '=');
    // Other schemes are skipped, not refused: a later service may send `v2=` beside `v1=`.
    if (scheme === SERVICE_SIGNATURE_SCHEME && HEX_SIGNATURE.test(hex)) signatures.push(fromHex(hex));
  }
  if (signatures.length === 0) return null;

  const target = pathAndQuery(input.url);
  if (target === null) return null;
  const head = encoder.encode(`${timestamp}.${input.method.toUpperCase()}.${target}.`);
  const payload = new Uint8Array(head.length + body.length);
  payload.set(head);
  payload.set(body, head.length);
  return { secrets, signatures, payload };
}

function bodyBytes(body: VerifyServiceSignatureInput['body']): Uint8Array {
  if (body === undefined || body === null) return new Uint8Array(0);
  if (typeof body === 'string') return encoder.encode(body);
  // Checked without `instanceof`, which fails for bytes made in another realm (a vm context, a test environment).
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') return new Uint8Array(body);
  // A framework's parsed JSON: re-serializing it would not give the bytes that were signed.
  throw new TypeError(
    'verifyServiceSignature: body must be the raw body (string or bytes), not a parsed object',
  );
}

/** A header's value whatever the letter case; repeated values joined with commas (Node joins them so too). */
function header(headers: Headers | HeaderRecord, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as HeaderRecord)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}

/** The request line's target of an absolute URL or of a target given as it is; null when it is neither. */
function pathAndQuery(url: string): string | null {
  if (url.startsWith('/')) return url.split('#', 1)[0];
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return null;
  }
}

function splitOnce(text: string, separator: string): [string, string] {
  const i = text.indexOf(separator);
  return i === -1 ? [text, ''] : [text.slice(0, i), text.slice(i + 1)];
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

type NodeCrypto = typeof import('node:crypto');

function nodeCrypto(): Pick<NodeCrypto, 'createHmac' | 'timingSafeEqual'> {
  const crypto = globalThis.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (!crypto) {
    throw new Error(
      'verifyServiceSignature needs node:crypto (Node 20.16+, Bun, Deno); use verifyServiceSignatureAsync elsewhere',
    );
  }
  return crypto;
}
