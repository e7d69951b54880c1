import type { ActionDefinition } from '../../config/service-config';
import type { ParameterValue } from '../../core/engine';
import { stem, words } from '../../core/text-tokens';

type Parameter = ActionDefinition['parameters'][number];

const YES = new Set([
  'yes',
  'y',
  'yeah',
  'yep',
  'sure',
  'true',
  'ok',
  'okay',
  'ja',
  'jawohl',
  'correct',
  'please',
]);
const NO = new Set(['no', 'n', 'nope', 'false', 'nein', 'not', 'without', 'dont', "don't"]);
/** Parameter names that hold identifiers: their values are tokens like `A-1234`, never free text. */
const ID_LIKE =
  /(?:^|_|\b)(?:id|ids|number|no|nr|num|code|sku|ref|reference|tracking|zip|postcode)(?:$|_|\b)/i;
/** An identifier token: starts with a letter or digit, holds a digit, may have `-`, `_`, `/` or `.` inside. */
const ID_TOKEN =
  /(?<![\p{L}\p{N}])#?([\p{L}\p{N}][\p{L}\p{N}\-_/.]*\p{N}[\p{L}\p{N}\-_/]*|\p{N})(?![\p{L}\p{N}])/gu;
const NUMBER = /-?\d+(?:[.,]\d+)?/g;
const EMAIL = /[^\s@<>()"',;]+@[^\s@<>()"',;]+\.[A-Za-z]{2,}/;
const EMAILS = new RegExp(EMAIL.source, 'g');

/** The words a shopper would use for a parameter: `order_id` → order, id; `zipCode` → zip, code. */
export const cueWords = (p: Parameter): string[] =>
  p.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[_\s]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);

const isIdLike = (p: Parameter) => ID_LIKE.test(p.name.replace(/([a-z])([A-Z])/g, '$1_$2'));

const toNumber = (s: string): number | undefined => {
  const n = Number(s.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
};

/** The first identifier-like token after a cue word ("order #A-1234", "order number 1234", "Bestellung 99"). */
function valueAfterCue(message: string, cues: string[], pattern: RegExp): string | undefined {
  const lower = message.toLowerCase();
  let best: string | undefined;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const cue of cues) {
    for (const at of [...lower.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(cue)}`, 'gu'))].map(
      (m) => m.index,
    )) {
      // Look at most a few words ahead: "order number is #1234" still works, a number at the far end does not.
      const window = message.slice(at, at + cue.length + 40);
      pattern.lastIndex = 0;
      const found = pattern.exec(window.slice(cue.length));
      if (found && at < bestAt) {
        best = (found[1] ?? found[0]).replace(/^#/, '');
        bestAt = at;
      }
    }
  }
  return best;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Pulls typed parameter values out of a shopper's message. `asked` names the parameter the engine asked for in its
 * previous answer: the whole reply is then read as that value where it fits its type ("Berlin" answers "Which city?").
 * Only values of the right type are returned; what is missing is left out, for the engine to ask.
 */
export function extractParameters(
  message: string,
  parameters: Parameter[],
  asked?: string,
): Record<string, ParameterValue> {
  const values: Record<string, ParameterValue> = {};
  // An email address is never an identifier: "ada1@example.com" holds no order number "ada1".
  const idTokens = [...message.replace(EMAILS, ' ').matchAll(ID_TOKEN)].map((m) => m[1]);
  const numbers = message.match(NUMBER) ?? [];
  const said = words(message);
  for (const p of parameters) {
    const cues = cueWords(p);
    const isAsked = p.name === asked;
    let value: ParameterValue | undefined;
    if (p.type === 'number') {
      const near = valueAfterCue(message, cues, /\s*(?:is|of|:|=)?\s*(-?\d+(?:[.,]\d+)?)/y);
      const only = parameters.filter((q) => q.type === 'number').length === 1 && numbers.length === 1;
      const raw = near ?? (isAsked || only ? numbers[0] : undefined);
      value = raw === undefined ? undefined : toNumber(raw);
    } else if (p.type === 'boolean') {
      const stems = cues.map(stem);
      if (isAsked || said.some((w) => stems.includes(stem(w)))) {
        if (said.some((w) => NO.has(w))) value = false;
        else if (said.some((w) => YES.has(w)) || !isAsked) value = true;
      }
    } else if (/e?mail/i.test(p.name)) {
      value = message.match(EMAIL)?.[0];
    } else if (isIdLike(p)) {
      const afterCue = valueAfterCue(
        message,
        cues,
        /\s*(?:(?:number|no\.?|nr\.?|nummer|id|is|:|=)\s*)*#?([\p{L}\p{N}][\p{L}\p{N}\-_/.]*\p{N}[\p{L}\p{N}\-_/]*|\p{N}+)/uy,
      );
      value = afterCue ?? (isAsked || idTokens.length === 1 ? idTokens[0] : undefined);
    } else {
      const quoted = message.match(/["“„']([^"”“']{1,200})["”“']/)?.[1];
      value = quoted ?? (isAsked ? message.trim().replace(/[.!?]+$/, '') : undefined);
    }
    if (value !== undefined && value !== '') values[p.name] = value;
  }
  return values;
}

/** Parameters still needed: required ones without a value, plus any that a URL `{placeholder}` names. */
export function missingParameters(
  action: ActionDefinition,
  values: Record<string, ParameterValue>,
): Parameter[] {
  const placeholders = new Set([...action.url.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]));
  return action.parameters.filter(
    (p) => (p.required || placeholders.has(p.name)) && values[p.name] === undefined,
  );
}
