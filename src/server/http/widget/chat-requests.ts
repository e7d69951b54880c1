import type { Context } from 'hono';
import * as v from 'valibot';
import { CLIENT_MESSAGE_ID_MAX, MESSAGE_TEXT_MAX, PROACTIVE_TEXT_MAX } from '../../../protocol/chat';
import { CUSTOM_INSTRUCTIONS_MAX } from '../../../protocol/settings';
import { IDENTITY_TOKEN_MAX } from '../../platform/identity-token';
import { errorResponse } from '../error-response';
import { nulInBody, parseClientJson } from '../nul-text';
import { PageContextSchema } from './page-context-schema';

// Validation of what the widget sends (DESIGN: protocol v0), at the edge, with one schema library.

const USER_DATA_MAX_KEYS = 50;
const USER_DATA_KEY_MAX = 64;
const USER_DATA_STRING_MAX = 1000;
/** Keys that mean something to JavaScript objects: never accepted as data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const userDataValue = v.union(
  [
    v.pipe(
      v.string(),
      v.maxLength(USER_DATA_STRING_MAX, `strings in userData are at most ${USER_DATA_STRING_MAX} characters`),
    ),
    v.pipe(v.number(), v.finite('numbers in userData must be finite')),
    v.boolean(),
    v.null(),
  ],
  'userData values must be strings, numbers, booleans or null (the object is flat)',
);

/** A flat object of primitives; read key by key from own properties, so `__proto__` cannot sneak in. */
export const UserDataSchema = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'userData must be an object',
  ),
  v.check(
    (value) => Object.keys(value).length <= USER_DATA_MAX_KEYS,
    `userData has at most ${USER_DATA_MAX_KEYS} keys`,
  ),
  v.check(
    (value) =>
      Object.keys(value).every(
        (k) => k.length >= 1 && k.length <= USER_DATA_KEY_MAX && !FORBIDDEN_KEYS.has(k),
      ),
    `userData keys are 1-${USER_DATA_KEY_MAX} characters and not __proto__, constructor or prototype`,
  ),
  v.transform((value) => {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) out[key] = value[key];
    return out;
  }),
  v.record(v.string(), userDataValue),
  v.transform((value) => ({ ...value })),
);

const customInstructions = v.pipe(
  v.string(),
  v.minLength(1, 'customInstructions must not be empty (send null to clear them)'),
  v.maxLength(
    CUSTOM_INSTRUCTIONS_MAX,
    `customInstructions are at most ${CUSTOM_INSTRUCTIONS_MAX} characters`,
  ),
);

/** Checked for shape only here; `identityVerifier` checks the signature and claims. */
const identityToken = v.optional(
  v.nullable(
    v.pipe(
      v.string('identityToken must be a string (a JWT)'),
      v.maxLength(IDENTITY_TOKEN_MAX, `identityToken is at most ${IDENTITY_TOKEN_MAX} characters`),
    ),
  ),
);

/**
 * The widget's locale (issue 19): a BCP 47 tag such as `de` or `en-GB`, at most 35 characters (RFC 5646's longest
 * well-formed tag); the engine answers in it when a message says too little to tell its language.
 */
const locale = v.optional(
  v.nullable(
    v.pipe(
      v.string('locale must be a string like "de" or "en-GB"'),
      v.maxLength(35, 'locale is at most 35 characters'),
      v.regex(/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/, 'locale must be a language tag like "de" or "en-GB"'),
    ),
  ),
);

export const SendMessageSchema = v.strictObject({
  clientMessageId: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_-]+$/, 'clientMessageId may hold letters, digits, "-" and "_"'),
    v.maxLength(CLIENT_MESSAGE_ID_MAX, `clientMessageId is at most ${CLIENT_MESSAGE_ID_MAX} characters`),
  ),
  text: v.pipe(
    v.string(),
    v.check((s) => s.trim().length > 0, 'text must not be empty'),
    v.maxLength(MESSAGE_TEXT_MAX, `text is at most ${MESSAGE_TEXT_MAX} characters`),
  ),
  userData: v.optional(v.nullable(UserDataSchema)),
  customInstructions: v.optional(v.nullable(customInstructions)),
  identityToken,
  locale,
  proactiveMessage: v.optional(
    v.pipe(
      v.string('proactiveMessage must be a string'),
      v.check((s) => s.trim().length > 0, 'proactiveMessage must not be empty'),
      v.maxLength(PROACTIVE_TEXT_MAX, `proactiveMessage is at most ${PROACTIVE_TEXT_MAX} characters`),
    ),
  ),
  pageContext: v.optional(v.nullable(PageContextSchema)),
});

export const ContextSchema = v.strictObject({
  userData: v.nullable(UserDataSchema),
  customInstructions: v.nullable(customInstructions),
});

export const CreateConversationSchema = v.optional(
  v.strictObject({
    userData: v.optional(v.nullable(UserDataSchema)),
    customInstructions: v.optional(v.nullable(customInstructions)),
    identityToken,
    locale,
  }),
  {},
);

/** The first problem, as `{ path, message }`, for the `{ error: { code, message } }` body. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  const path = (issue.path ?? []).map((p) => String(p.key)).join('.');
  const message = issue.message
    .replace(/^Invalid key: Expected never but received "(.*)"$/, 'unknown field $1')
    .replace(/^Invalid key: Expected ".*" but received undefined$/, 'is required');
  return path ? `${path}: ${message}` : message;
}

/** An answer is a message of the shopper's: on a verified customer's conversation it carries their identity token. */
export const ConfirmationSchema = v.strictObject({
  answer: v.picklist(['yes', 'no'], 'answer must be "yes" or "no"'),
  identityToken,
});

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * JSON bodies only, parsed and validated at the edge; every failure is a 4xx with the one error shape (415
 * unsupported_media_type, 400 invalid_json, 400 invalid_request naming the first issue). `optional`: an empty body is
 * validated as `undefined`.
 */
export async function readJsonBody<S extends v.GenericSchema>(
  c: Context,
  schema: S,
  optional = false,
): Promise<Parsed<v.InferOutput<S>>> {
  const text = await c.req.text();
  if (optional && text.trim() === '') return parse(schema, undefined, c);
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    return {
      ok: false,
      response: errorResponse(
        c,
        415,
        'unsupported_media_type',
        'Send JSON (content-type: application/json).',
      ),
    };
  }
  const raw = parseClientJson(text);
  if (!raw.ok)
    return {
      ok: false,
      response:
        raw.nulAt === undefined
          ? errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.')
          : errorResponse(c, 400, 'invalid_request', nulInBody(raw.nulAt)),
    };
  return parse(schema, raw.value, c);
}

function parse<S extends v.GenericSchema>(schema: S, raw: unknown, c: Context): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, raw);
  return result.success
    ? { ok: true, value: result.output }
    : { ok: false, response: errorResponse(c, 400, 'invalid_request', firstIssue(result.issues)) };
}
