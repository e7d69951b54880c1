// Order numbers as shoppers write them: `58213`, `#58213`, `no. 58213`, `Nr. 58213`, `Bestellnummer 58213`,
// `A-1001`, `000123`, and glued to their word ("order8872"). Each is passed on as written, minus the `#` or the
// `no.`/`Nr.` in front: leading zeros and letter prefixes are part of the number. What is not an order number: a
// price ("under 100 EUR"), a quantity ("2 items", "7 purchases ago"), a time or date, and the number of something
// else the shopper names ("invoice #00108", "Rechnung 4711").

export interface NumberMention {
  /** As the action receives it: "58213", "A-1001", "000123". */
  value: string;
  /** What the nearest word before it names: an order, something else (an invoice), or nothing. */
  kind: 'order' | 'other' | 'bare';
  /** Where it starts in the message. */
  index: number;
}

const ORDER_CUE =
  /^(?:order|purchase|parcel|package|shipment|delivery|tracking|bestellung|bestellnummer|auftrag|auftragsnummer|sendung|sendungsnummer|paket|lieferung|kauf)\w*$/iu;
const OTHER_CUE =
  /^(?:invoice|bill|receipt|rechnung|rechnungsnummer|quittung|beleg|customer|kunden|kundennummer|account|konto|phone|tel|telefon|plz|zip|postcode|item|artikel|sku|size|größe|groesse)\w*$/iu;
/** Words between a cue and its number: "order number is #1234", "Bestellung mit der Nr. 1234". */
const BRIDGE =
  /^(?:number|no|nr|num|nummer|id|is|was|ist|war|mit|der|die|das|the|my|mein|meine|meiner|with|#|:|=|-)$/iu;
/** Units and counted things after a number: it is an amount, not an identifier. */
const UNIT_AFTER =
  /^\s*(?:[€$£%]|:\d|(?:eur|euro|usd|dollars?|gbp|pounds?|chf|franken|kg|g|cm|mm|m|ml|l|x|pcs|pieces?|items?|stück|stk|days?|tagen?|weeks?|wochen|months?|monaten?|hours?|stunden?|minutes?|minuten|years?|jahren?|purchases|orders|bestellungen|times|mal|ago|uhr|am|pm)(?!\p{L}))/iu;
const UNIT_BEFORE =
  /(?:[€$£]|(?<!\p{L})(?:eur|usd|chf|under|over|below|above|unter|über|ueber|bis|ab|from|ca\.?))\s*$/iu;
/**
 * A candidate: optional `#`, an optional letter prefix with a hyphen (`A-1001`, `SO-2024-77`) or letters glued to
 * digits (`AB12345`), then digits, optionally more `-digits` groups. Not inside a longer word or a decimal.
 */
const CANDIDATE =
  /(?<![\p{L}\p{N}.,:/-])#?((?:\p{L}{1,3}-)?(?:\p{Lu}{1,3})?\p{N}+(?:-\p{N}+)*)(?![\p{N}]|[.,:]\p{N}|\p{L})/gu;

/**
 * "Nr.58213", "no.1234", "#1234" and a cue glued to its digits ("order8872") read as if spaced. Runs of letters that
 * are a prefix of the number itself (`A-1001`) are left alone.
 */
function spaced(message: string): string {
  return message
    .replace(/\b(nr|no|num)\.?(?=\p{N})/giu, (m) => `${m} `)
    .replace(/(?<=\p{L}{4,})(?=\p{N})/gu, (_m, offset: number, s: string) =>
      ORDER_CUE.test(s.slice(0, offset).match(/\p{L}+$/u)?.[0] ?? '') ? ' ' : '',
    );
}

/** Every number in the message that could identify something, with what it is a number of. */
function numberMentions(message: string): NumberMention[] {
  const text = spaced(message.normalize('NFKC'));
  const out: NumberMention[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const value = m[1];
    const at = m.index ?? 0;
    const before = text.slice(Math.max(0, at - 60), at);
    const after = text.slice(at + m[0].length, at + m[0].length + 16);
    // An amount has no letters and no #: "bis AB-2023-1142" and "bis #62019" are orders, "bis 100" a price.
    if (
      UNIT_AFTER.test(after) ||
      (UNIT_BEFORE.test(before) && !/\p{L}/u.test(value) && !m[0].startsWith('#'))
    )
      continue;
    // Dates and times: 12.03.2025, 9:30, 2025-03-12.
    if (/\d[.:]\s*$/.test(before) || /^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
    const kind = cueKind(before);
    const digits = value.replace(/\D/g, '');
    const hasPrefix = /\p{L}/u.test(value);
    // A bare number of one or two digits is a count or a size; an order number named as such may be short.
    if (kind === 'bare' && !m[0].startsWith('#') && !hasPrefix && digits.length < 3) continue;
    out.push({ value, kind, index: at });
  }
  return out;
}

/** What the words just before a number call it: the nearest cue word, skipping "number", "is", "#", articles. */
function cueKind(before: string): NumberMention['kind'] {
  const tokens = before.match(/[\p{L}]+|#|:|=/gu) ?? [];
  for (let i = tokens.length - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const token = tokens[i];
    if (OTHER_CUE.test(token) && !ORDER_CUE.test(token)) return 'other';
    // "to order 30 jerseys", "I'd like to order 2": the verb counts things, it names no order.
    if (/^order$/i.test(token) && /^(?:to|i|we|can|could|would|will)$/i.test(tokens[i - 1] ?? ''))
      return 'bare';
    if (ORDER_CUE.test(token)) return 'order';
    if (!BRIDGE.test(token)) return 'bare';
  }
  return 'bare';
}

/**
 * The order numbers a message names: those called an order's and the bare ones (a number on its own in an order
 * question is the order's: "is it order 1234 or 5678?"), never those named as something else's. Each distinct value
 * once, in order.
 */
export function orderNumbers(message: string): string[] {
  const chosen = numberMentions(message).filter((m) => m.kind !== 'other');
  return [...new Set(chosen.map((m) => m.value))];
}

/** The reply to "Which order?": any number it holds, even a short one, unless it is an amount ("2 items"). */
export function answeredOrderNumber(message: string): string | undefined {
  const found = orderNumbers(message);
  if (found.length > 0) return found[0];
  const m = /(?<![\p{L}\p{N}])#?(\p{N}{1,2})(?![\p{L}\p{N}])/u.exec(message);
  return m && !UNIT_AFTER.test(message.slice((m.index ?? 0) + m[0].length)) ? m[1] : undefined;
}
