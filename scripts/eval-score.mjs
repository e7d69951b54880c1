// How `npm run eval` judges one shopper message (issue 19 item 1), and how it adds the judgements up: rates per
// language, intent and variant, the goals, and the baseline the CI ratchet holds them to. No I/O here: scripts/eval.mjs
// runs the service and hands each turn's record in.
//
// What a turn's record holds (all from the wire, never from the engine's insides):
//   lookups     the order ids the local order endpoint (the "Order status" custom action) got, in order
//   cancelled   the order ids the order-cancellation webhook got, after the eval answered Yes to each confirm part
//   stray       any other request the local endpoint got (method and path)
//   confirms    the texts of the `confirm` parts the reply showed
//   modes       the modes of the reply's `conversation.mode` events
//   text        the reply's text
//   failure     set when the turn did not end with `message.done` (an HTTP error, an `error` event, a timeout)
//
// The rules, per intent (docs/performance.md "Measuring the assistant" says the same):
//   order_status with an orderId  the order endpoint got exactly that id (one call or more, no other id), no
//                                 cancellation was proposed, nothing else was called
//   order_status without          no call and no proposal (the engine should ask for the number)
//   cancel_order with an orderId  a confirm part was shown, and after Yes the webhook got exactly that id; the order
//                                 endpoint got at most a lookup of that same order (issue 31: an order cancelled
//                                 already is said so without a Yes/No, which needs its state first)
//   cancel_order without          no call and no proposal
//   human_agent                   a person offered: a `conversation.mode` event with mode `waiting` (where the service
//                                 has agents, as the eval's has: `handoff`), else the store's contact email from its
//                                 Contact/Kontakt section in the reply text; and no call and no proposal
//   every other intent            where the service has agents, also: no `waiting` (handed to a person unasked, the
//                                 assistant would fall silent)
//   other                         no call and no proposal
// A turn that failed is a miss whatever its intent.

export const INTENTS = ['order_status', 'cancel_order', 'human_agent', 'other'];
export const VARIANTS = ['plain', 'wrapped'];
export const LANGUAGES = ['en', 'de'];

/** Issue 19: where each rate must end, per language and variant (%). */
export const GOALS = { order_status: 97, cancel_order: 95, human_agent: 90, other: 98 };

/** How many misses of a row the report lists. */
export const MISSES_SHOWN = 10;

const quote = (text, max = 140) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/** What happened in a turn, in a few words: the calls, proposals and mode changes, then the reply. */
export function describeTurn(record) {
  if (record.failure) return `failed: ${record.failure}`;
  const said = [];
  if (record.lookups.length) said.push(`looked up ${record.lookups.join(', ')}`);
  for (const confirm of record.confirms) said.push(`proposed ${quote(confirm, 60)}`);
  if (record.cancelled.length) said.push(`webhook got ${record.cancelled.join(', ')}`);
  if (record.stray.length) said.push(`also called ${record.stray.join(', ')}`);
  if (record.modes.length) said.push(`mode ${record.modes.join(', ')}`);
  if (!record.lookups.length && !record.confirms.length && !record.stray.length) said.push('no call');
  return `${said.join('; ')}; reply ${quote(record.text)}`;
}

const listed = (ids) => ids.map((id) => JSON.stringify(id)).join(', ');

/** The first rule a turn breaks for a message of `intent` (and `orderId`), or null when it keeps them all. */
function brokenRule({ intent, orderId }, record, contactEmails, handoff) {
  if (record.failure) return 'the turn failed';
  if (handoff && intent !== 'human_agent' && record.modes.includes('waiting'))
    return 'handed to a person unasked (mode waiting)';
  const proposed = record.confirms.length > 0;
  const noCall = () => {
    if (record.lookups.length) return `looked up ${listed(record.lookups)} (expected no call)`;
    if (proposed) return 'proposed a cancellation (expected none)';
    if (record.cancelled.length) return 'the cancellation webhook was called';
    if (record.stray.length) return 'the endpoint got another call';
    return null;
  };
  switch (intent) {
    case 'order_status':
      if (!orderId) return noCall();
      if (record.lookups.length === 0) return `no lookup of ${JSON.stringify(orderId)}`;
      if (record.lookups.some((id) => id !== orderId))
        return `looked up ${listed(record.lookups)}, not ${JSON.stringify(orderId)}`;
      if (proposed || record.cancelled.length)
        return 'proposed a cancellation of an order it was asked about';
      if (record.stray.length) return 'the endpoint got another call';
      return null;
    case 'cancel_order':
      if (!orderId) return noCall();
      if (!proposed) return `no cancellation of ${JSON.stringify(orderId)} proposed`;
      if (record.cancelled.length === 0) return 'proposed, but after Yes the webhook got no call';
      if (record.cancelled.some((id) => id !== orderId))
        return `after Yes the webhook got ${listed(record.cancelled)}, not ${JSON.stringify(orderId)}`;
      // Issue 31: the engine may look the same order up first, to say that an order cancelled already is so without a
      // Yes/No; a lookup of any other order is still a confusion with the order-status request.
      if (record.lookups.some((id) => id !== orderId))
        return `the order-status action was called (${listed(record.lookups)})`;
      if (record.stray.length) return 'the endpoint got another call';
      return null;
    case 'human_agent': {
      const called = noCall();
      if (called) return called;
      if (handoff)
        return record.modes.includes('waiting') ? null : 'not handed to a person (no mode waiting)';
      const reply = record.text.toLowerCase();
      const offered =
        record.modes.includes('waiting') ||
        contactEmails.some((email) => reply.includes(email.toLowerCase()));
      return offered ? null : 'no person offered (no mode waiting, no contact email)';
    }
    case 'other':
      return noCall();
    default:
      throw new Error(`unknown intent ${JSON.stringify(intent)}`);
  }
}

/**
 * Judges one turn. `contactEmails` are the addresses of the store's Contact sections (either language); `handoff`: the
 * service has agents, so a request for a person must hand over, and nothing else may.
 * @example
 * scoreTurn({ text: 'where is 58213', intent: 'order_status', orderId: '58213' },
 *   { lookups: ['58213'], cancelled: [], stray: [], confirms: [], modes: [], text: 'Order 58213: shipped.' },
 *   { contactEmails: ['help@eval-shop.example'] });
 * // → { hit: true, why: null }
 */
export function scoreTurn(utterance, record, { contactEmails, handoff = false }) {
  const why = brokenRule(utterance, record, contactEmails, handoff);
  return { hit: why === null, why };
}

export const rowKey = ({ lang, intent, variant }) => `${lang}/${intent}/${variant}`;

/** `hits` of `n` as a percentage. */
export const rateOf = (hits, n) => (n === 0 ? 0 : (hits * 100) / n);

/**
 * Adds judged turns (`{ lang, intent, variant, text, hit, why, happened }`) up into rows, in the order
 * language → intent → variant; each row keeps its first MISSES_SHOWN misses.
 */
export function tally(results) {
  const rows = new Map();
  for (const lang of LANGUAGES)
    for (const intent of INTENTS)
      for (const variant of VARIANTS) rows.set(rowKey({ lang, intent, variant }), null);
  for (const r of results) {
    const key = rowKey(r);
    if (!rows.has(key)) throw new Error(`unknown row ${key}`);
    const row = rows.get(key) ?? {
      lang: r.lang,
      intent: r.intent,
      variant: r.variant,
      n: 0,
      hits: 0,
      missCount: 0,
      misses: [],
    };
    row.n++;
    if (r.hit) row.hits++;
    else {
      row.missCount++;
      if (row.misses.length < MISSES_SHOWN)
        row.misses.push({ text: r.text, why: r.why, happened: r.happened });
    }
    rows.set(key, row);
  }
  return [...rows.values()].filter(Boolean).map((row) => ({ ...row, rate: rateOf(row.hits, row.n) }));
}

/** A rate as the baseline stores it: rounded down to one decimal, so the run that wrote it passes its own check. */
export const floorRate = (hits, n) => (n === 0 ? 0 : Math.floor((hits * 1000) / n) / 10);

/** The baseline file's `rates` from a run: `{ en: { order_status: { plain, wrapped }, … }, de: … }`. */
export function baselineRates(rows) {
  const rates = {};
  for (const row of rows) {
    rates[row.lang] ??= {};
    rates[row.lang][row.intent] ??= {};
    rates[row.lang][row.intent][row.variant] = floorRate(row.hits, row.n);
  }
  return rates;
}

/** The rows whose rate fell below the baseline's figure; rows the baseline does not have are not judged. */
export function belowBaseline(rows, rates) {
  const drops = [];
  for (const row of rows) {
    const floor = rates?.[row.lang]?.[row.intent]?.[row.variant];
    if (typeof floor !== 'number') continue;
    // The baseline was rounded down, so an equal run can never fall below it by rounding alone.
    if (row.rate < floor - 1e-9) drops.push({ ...row, baseline: floor });
  }
  return drops;
}

/** The rows whose rate is below its intent's goal. */
export const unmetGoals = (rows) => rows.filter((row) => row.rate < GOALS[row.intent]);
