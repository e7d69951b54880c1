// `npm run eval` (issue 19 item 1, issue 31 item 8): how well the assistant understands real shoppers and whether its
// answers fit their questions, measured through the real service over HTTP, in three suites (`--suite`):
//   intent     which action a message asks for (below)
//   discovery  product requests to a public catalog (DummyJSON), judged by the cards shown and the first sentence
//              against expectations computed from the catalog's fields (scripts/eval-discovery.mjs)
//   knowledge  store questions, judged by the passage in the answer and its length (scripts/eval-knowledge.mjs)
// The discovery and knowledge suites talk to a second widget of the eval's service, "eval-store", whose catalog is the
// feed the eval's local endpoint serves (downloaded through the admin API's "refresh now" before the first query)
// and whose knowledge is test-data/eval-knowledge/. Each suite prints a table and each row's misses.
//
// Run it after `npm run build`: it measures the build in dist/ (it says so and stops when dist/ is missing, and warns
// when src/ changed after the build). It exits 0 unless --check finds a rate below the baseline (exit 1) or it cannot
// run (exit 2).
//
// The intent suite's messages: English, test-data/shopper-language/utterances.jsonl (real customer phrasing, CDLA-Sharing-1.0, a copy
// of the project's shared test data), and German, test-data/shopper-language-de.jsonl (written for this project);
// test-data/eval-README.md says where both come from. --en FILE / --de FILE measure another set of the same shape (the
// disjoint sample the result is judged on, say).
//
// The service runs in child processes, one per core (the built dist/server/eval-entry.js: startService with the
// embedded database in memory and the engine the config names, the local one), each with a widget of the eval's own: an "Order status"
// custom action and an order-cancellation webhook, both to a local HTTP endpoint in this process that records every
// request by the conversation it came from; the store's knowledge in English and German (Shipping, Returns, Payment,
// Contact; Versand, Rückgabe, Zahlungsarten, Kontakt); limits that never bind. Each message is sent twice, each time
// in a new conversation: as written ("plain"), and wrapped in a greeting, thanks or filler of its language, chosen
// per line with a fixed seed (scripts/eval-variants.mjs). Like the widget, it sends the page's locale with the
// conversation and each message: the set's language (en, de) unless --locale says otherwise. The eval reads each
// reply's event stream to message.done and answers Yes to every confirm part it shows, so that the webhook's order id
// can be checked.
//
// Scoring (scripts/eval-score.mjs, unit-tested beside it; docs/performance.md "Measuring the assistant"), per message:
//   order_status with orderId   the order endpoint got exactly that id, and no cancellation was proposed
//   order_status without        no call and no proposal (the engine should ask for the number)
//   cancel_order with orderId   a confirm part was shown, and after Yes the webhook got exactly that id; the order
//                               endpoint got at most a lookup of that same order (issue 31: an order cancelled
//                               already is said so without a Yes/No, which needs its state first)
//   cancel_order without        no call, no proposal
//   human_agent                 a `conversation.mode` event with mode `waiting`, or (until handoff exists) the
//                               contact email of the Contact/Kontakt section in the reply; and no call, no proposal
//   other                       no call and no proposal
// Goals (per language and variant): order_status 97 %, cancel_order 95 %, human_agent 90 %, other 98 %.
//
// Options:
//   --suite S             all (default), or intent, discovery, knowledge, or several comma-separated
//   --lang en|de          one language only
//   --sample              a quick quarter: every 4th message of each language and intent (discovery, knowledge:
//                         of each language)
//   --limit N             at most N messages of each language and intent (after --sample; discovery, knowledge: of
//                         each language)
//   --concurrency N       conversations at once (default 4)
//   --locale auto|none|T  the widget's locale sent with each conversation and message: auto (default) the message
//                         set's language, as on a store page in that language; none; or one tag T for all
//   --services N          service processes, the conversations spread over them (default 2, or 1 on one CPU)
//   --check               exit 1 when a rate is below test-data/eval-baseline.json (full runs; --lang allowed)
//   --write-baseline      rewrite test-data/eval-baseline.json from this run (rates rounded down; full runs only;
//                         with --suite, only those suites' figures)
//   --en FILE, --de FILE  the intent suite's message sets (defaults above)
//   --discovery FILE      the discovery queries (default test-data/eval-discovery-queries.jsonl)
//   --knowledge FILE      the knowledge questions (default test-data/eval-knowledge/questions.jsonl)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serveParent, startChildProcess } from './child-rpc.mjs';
import { feedOf, readCatalog } from './eval-catalog.mjs';
import {
  DISCOVERY_FILE,
  discoveryJudging,
  readDiscoveryQueries,
  reportDiscovery,
} from './eval-discovery.mjs';
import { DISCOVERY_GOALS } from './eval-discovery-score.mjs';
import {
  KNOWLEDGE_FILE,
  KNOWLEDGE_JUDGING,
  knowledgeSections,
  readKnowledgeQuestions,
} from './eval-knowledge.mjs';
import { KNOWLEDGE_GOALS } from './eval-knowledge-score.mjs';
import {
  belowMeasureBaseline,
  measureBaseline,
  pct,
  readJsonl,
  reportMeasures,
  table,
  unmetMeasureGoals,
} from './eval-measures.mjs';
import {
  baselineRates,
  belowBaseline,
  describeTurn,
  GOALS,
  INTENTS,
  LANGUAGES,
  MISSES_SHOWN,
  scoreTurn,
  tally,
  unmetGoals,
} from './eval-score.mjs';
import { wrapUtterance } from './eval-variants.mjs';
import { closeWire, firstMessage, ORIGIN, request, runJudged, runPool, streamTurn } from './eval-wire.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = resolve(root, 'dist/server/eval-entry.js');
const BASELINE = resolve(root, 'test-data/eval-baseline.json');
const SETS = {
  en: resolve(root, 'test-data/shopper-language/utterances.jsonl'),
  de: resolve(root, 'test-data/shopper-language-de.jsonl'),
};
/** The wrapped variants' seed: fixed, so every run wraps every line the same way. */
const SEED = 'issue-19-eval';
const WIDGET = 'eval-shop';

/** Could not run (as opposed to a rate below the baseline): exit 2. */
class CannotRun extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// The store the eval's widget describes.

const CONTACT_EMAILS = ['help@eval-shop.example', 'kundenservice@eval-shop.example'];

const KNOWLEDGE = [
  {
    title: 'Shipping',
    text: `We ship from our warehouse in Hamburg with DHL. Orders placed on a working day before 2 pm leave the same day.

- Germany: 1–3 working days, €4.90, free from €50
- Austria, Switzerland and the rest of the EU: 3–6 working days, €9.90
- Express, Germany only: next working day, €12.90

We deliver to Packstation lockers and DHL parcel shops, and you can collect your order free of charge at our Hamburg
store. Every parcel gets a tracking link by email as soon as it leaves the warehouse.`,
  },
  {
    title: 'Returns',
    text: `You can return anything within 30 days of delivery, unworn and in its original packaging. Print the free return
label from your account (free from Germany and Austria; €5.90 from elsewhere) and drop the parcel at any DHL point.
We refund to your original payment method within 5 working days of receiving the return. Exchanges for another size
are free. Final-sale items cannot be returned.`,
  },
  {
    title: 'Payment',
    text: `We accept Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, Klarna (pay in 30 days or in
instalments) and bank transfer in advance. In Switzerland you can also pay with TWINT. Your card is charged when the
order ships. Every order comes with an invoice as a PDF in your order confirmation email and in your account.`,
  },
  {
    title: 'Contact',
    text: `Our customer service team is happy to help: write to help@eval-shop.example (we answer within one working day)
or call +49 40 1234 5678, Monday to Friday 9:00–18:00 CET.`,
  },
  {
    title: 'Versand',
    text: `Wir versenden mit DHL aus unserem Lager in Hamburg. Bestellungen, die an einem Werktag vor 14 Uhr eingehen,
verlassen das Lager am selben Tag.

- Deutschland: 1–3 Werktage, 4,90 €, ab 50 € versandkostenfrei
- Österreich, Schweiz und übrige EU: 3–6 Werktage, 9,90 €
- Express, nur innerhalb Deutschlands: nächster Werktag, 12,90 €

Wir liefern auch an Packstationen und DHL-Paketshops; in unserem Laden in Hamburg holen Sie Ihre Bestellung kostenlos
ab. Sobald Ihr Paket unterwegs ist, bekommen Sie einen Link zur Sendungsverfolgung per E-Mail.`,
  },
  {
    title: 'Rückgabe',
    text: `Sie können alles innerhalb von 30 Tagen nach Erhalt zurückgeben, ungetragen und in der Originalverpackung.
Das Rücksendeetikett drucken Sie in Ihrem Kundenkonto aus (aus Deutschland und Österreich kostenlos, sonst 5,90 €).
Wir erstatten den Betrag innerhalb von 5 Werktagen nach Eingang der Rücksendung über die ursprüngliche Zahlungsart.
Der Umtausch in eine andere Größe ist kostenlos. Reduzierte Artikel aus dem Final Sale sind vom Umtausch ausgeschlossen.`,
  },
  {
    title: 'Zahlungsarten',
    text: `Sie können mit Visa, Mastercard, American Express, PayPal, Apple Pay, Google Pay, Klarna (Kauf auf Rechnung in
30 Tagen oder Ratenkauf) und per Vorkasse bezahlen. In der Schweiz auch mit TWINT. Die Karte wird belastet, sobald die
Bestellung versendet wird. Die Rechnung erhalten Sie als PDF mit der Bestellbestätigung und in Ihrem Kundenkonto.`,
  },
  {
    title: 'Kontakt',
    text: `Unser Kundenservice hilft Ihnen gern: schreiben Sie an kundenservice@eval-shop.example (Antwort innerhalb eines
Werktags) oder rufen Sie an unter +49 40 1234 5678, Montag bis Freitag 9–18 Uhr.`,
  },
];

/** The eval sends far faster than a shopper writes, from one address: limits that never bind. */
const NO_LIMITS = {
  conversationsPerIpPerHour: 1_000_000_000,
  messagesPerIpPerMinute: 1_000_000_000,
  messagesPerConversationPerMinute: 1_000_000_000,
  queuedTurnsPerConversation: 1_000_000_000,
  openStreamsPerIp: 1_000_000_000,
  messagesPerConversation: 1_000_000_000,
};

const ADMIN_KEY = 'eval-admin-key-not-secret';

/** The eval's service has an agent, as a store with a team has: a request for a person must hand over (issue 21). */
const AGENT_KEY_ENV = 'EVAL_AGENT_KEY';
/** The discovery and knowledge suites' store (issue 31): the DummyJSON catalog as its feed, its policies as knowledge. */
const STORE_WIDGET = 'eval-store';
const storeWidget = (endpointUrl) => ({
  id: STORE_WIDGET,
  allowedOrigins: [ORIGIN],
  title: 'Eval Store',
  // Downloaded once at start and on the eval's "refresh now"; never again during a run.
  feeds: [{ url: `${endpointUrl}/catalog.json`, refreshMinutes: 24 * 60 }],
  knowledge: knowledgeSections(),
  limits: NO_LIMITS,
});

const configFor = (endpointUrl, { store }) => ({
  adminKey: ADMIN_KEY,
  agents: [{ id: 'eve', name: 'Eve', role: 'agent', keyEnv: AGENT_KEY_ENV }],
  allowHttpLoopback: true,
  engine: { type: 'local' },
  widgets: [
    {
      id: WIDGET,
      allowedOrigins: [ORIGIN],
      title: 'Eval Shop',
      actions: [
        {
          name: 'Order status',
          description:
            "Shows where a customer's order is: its status, the items in it and the parcel tracking link. Needs the order number from the order confirmation email.",
          method: 'GET',
          url: `${endpointUrl}/orders/{order_id}`,
          parameters: [
            {
              name: 'order_id',
              type: 'string',
              description: 'The order number, as in the confirmation email',
            },
          ],
        },
      ],
      webhooks: [
        {
          kind: 'order-cancellation',
          url: `${endpointUrl}/webhooks/order-cancellation`,
          version: '2024-09-10',
        },
      ],
      knowledge: KNOWLEDGE,
      limits: NO_LIMITS,
    },
    ...(store ? [storeWidget(endpointUrl)] : []),
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// The service, in a child process of its own (its event loop and core apart from the shoppers and the endpoint).

/** This process's CPU time so far (user + system), in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function serviceChild() {
  const { parseConfig, startService } = await import(ENTRY);
  let service;
  serveParent({
    async start({ config }) {
      process.env[AGENT_KEY_ENV] ??= 'eval-agent-key-not-secret';
      const parsed = parseConfig(config);
      if (!parsed.ok) throw new Error(`eval config: ${parsed.error}`);
      service = await startService({ config: parsed.value, port: 0 });
      return { url: service.url, cpuMs: cpuMs() };
    },
    async close() {
      const at = cpuMs();
      await service?.close();
      return { cpuMs: at };
    },
  });
}

async function startServiceChild(config) {
  const { child, call, exited } = await startChildProcess(fileURLToPath(import.meta.url), [
    '--service-child',
  ]);
  const { url, cpuMs: started } = await call('start', { config });
  return {
    url,
    /** Closes the service; resolves with the CPU time it spent after its start (ms), or null. */
    async close() {
      const stop = call('close').catch(() => null);
      const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const closed = await stop;
      child.disconnect();
      await exited;
      clearTimeout(late);
      return closed ? closed.cpuMs - started : null;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The integrator's endpoint: order cards for the "Order status" action, yes to every cancellation; every request
// recorded under the conversation it came from (the service sends `x-service-conversation-id` on both).

const orderCard = (id) => ({
  order_id_label: 'Order',
  order_id_value: id,
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Paid', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
      { label: 'Delivered', status: 'pending' },
    ],
  },
  items: { item: [{ name: 'Trail Runner', quantity: '1', price: '€89.00' }] },
});

const emptyCalls = () => ({ lookups: [], cancelled: [], stray: [] });

async function startEndpoint(catalog) {
  /** conversation id → { lookups, cancelled, stray } */
  const calls = new Map();
  const unattributed = [];
  /** The store's feed, as its shop serves it (the discovery suite's catalog). */
  const feed = JSON.stringify(feedOf(catalog));
  let feedDownloads = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const conversation = req.headers['x-service-conversation-id'];
      const url = new URL(req.url ?? '/', 'http://endpoint');
      const what = `${req.method} ${url.pathname}`;
      if (req.method === 'GET' && url.pathname === '/catalog.json') {
        feedDownloads++;
        return res.writeHead(200, { 'content-type': 'application/json' }).end(feed);
      }
      if (typeof conversation !== 'string') {
        unattributed.push(what);
        return res.writeHead(404).end();
      }
      if (!calls.has(conversation)) calls.set(conversation, emptyCalls());
      const record = calls.get(conversation);
      const lookup = /^\/orders\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && lookup) {
        const id = decodeURIComponent(lookup[1]);
        record.lookups.push(id);
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(orderCard(id)));
      }
      if (req.method === 'POST' && url.pathname === '/webhooks/order-cancellation') {
        let orderId;
        try {
          orderId = JSON.parse(Buffer.concat(chunks).toString('utf8')).orderId;
        } catch {}
        if (typeof orderId === 'string') {
          record.cancelled.push(orderId);
          return res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ cancelled: true, reason: 'The refund is on its way.' }));
        }
      }
      record.stray.push(what);
      res.writeHead(404).end();
    });
  });
  await new Promise((ok) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    callsOf: (conversation) => calls.get(conversation) ?? emptyCalls(),
    unattributed,
    feedDownloads: () => feedDownloads,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** One message in a new conversation, Yes to each confirm part, and the endpoint's record of the conversation. */
async function runTurn(base, endpoint, text, locale) {
  // As the widget does: the page's locale with the conversation and with each message (issue 19).
  const { conversationId, token, conversation, turn } = await firstMessage(base, WIDGET, text, locale);
  if (!conversationId) return { ...emptyCalls(), confirms: [], modes: [], text: '', failure: turn.failure };
  const record = { text: '', confirms: [], modes: [], ...turn };
  for (const confirm of record.confirms) {
    const answered = await streamTurn(`${conversation}/confirmations/${confirm.id}`, token, {
      answer: 'yes',
    });
    if (answered.failure) record.failure ??= `answering Yes: ${answered.failure}`;
  }
  const calls = endpoint.callsOf(conversationId);
  return {
    ...record,
    confirms: record.confirms.map((c) => c.text),
    lookups: calls.lookups,
    cancelled: calls.cancelled,
    stray: calls.stray,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The messages.

function readSet(lang, file) {
  return readJsonl(
    file,
    CannotRun,
    (row, where) => {
      if (typeof row?.text !== 'string' || !row.text.trim())
        throw new CannotRun(`${where}: text must be a string`);
      if (!INTENTS.includes(row.intent))
        throw new CannotRun(`${where}: intent must be one of ${INTENTS.join(', ')}`);
      if (row.orderId !== undefined && (typeof row.orderId !== 'string' || !row.orderId))
        throw new CannotRun(`${where}: orderId must be a non-empty string when present`);
      return { lang, text: row.text, intent: row.intent, orderId: row.orderId };
    },
    `the ${lang} set ${file} is missing`,
  );
}

/** The widget's locale for a message of `lang`: the page's language (auto), none, or one tag for all. */
const localeOf = (option, lang) => (option === 'auto' ? lang : option === 'none' ? undefined : option);

/**
 * --sample (every 4th) then --limit (the first N) per group, in file order: the rows whose `key` is each of `groups` in
 * turn (the intent suite's per intent, the discovery and knowledge suites' per language).
 */
function select(rows, key, groups, { sample, limit }) {
  const out = [];
  for (const group of groups) {
    let mine = rows.filter((row) => row[key] === group);
    if (sample) mine = mine.filter((_, i) => i % 4 === 0);
    if (limit !== undefined) mine = mine.slice(0, limit);
    out.push(...mine);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The report.

function report(rows, baseline) {
  const lines = [];
  for (const lang of LANGUAGES)
    for (const intent of INTENTS) {
      const plain = rows.find((r) => r.lang === lang && r.intent === intent && r.variant === 'plain');
      const wrapped = rows.find((r) => r.lang === lang && r.intent === intent && r.variant === 'wrapped');
      if (!plain) continue;
      const base = baseline?.[lang]?.[intent];
      lines.push([
        lang,
        intent,
        plain.n,
        pct(plain.rate),
        pct(wrapped.rate),
        GOALS[intent],
        base ? `${pct(base.plain)} / ${pct(base.wrapped)}` : '–',
      ]);
    }
  console.log(
    table(['lang', 'intent', 'n', 'plain %', 'wrapped %', 'goal %', 'baseline plain / wrapped'], lines),
  );
  for (const row of rows) {
    if (!row.missCount) continue;
    const more = row.missCount > row.misses.length ? ` (first ${MISSES_SHOWN})` : '';
    console.log(`\nmisses ${row.lang} ${row.intent} ${row.variant}: ${row.missCount} of ${row.n}${more}`);
    for (const miss of row.misses)
      console.log(`  ${JSON.stringify(miss.text)}\n      ${miss.why}: ${miss.happened}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * The last commit that changed src/ (the service and engine measured), with `+changes` when src/ differs from it;
 * null outside git. Not HEAD: commits to the eval or the docs do not change what was measured.
 */
function srcCommit() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    return `${git('log', '-1', '--format=%h', '--', 'src')}${git('status', '--porcelain', '--', 'src') ? '+changes' : ''}`;
  } catch {
    return null;
  }
}

/** Warns when a file under src/ changed after the build: the eval would measure an older engine. */
function warnIfStale() {
  const built = statSync(ENTRY).mtimeMs;
  const newer = readdirSync(resolve(root, 'src'), { recursive: true, withFileTypes: true }).find(
    (entry) =>
      entry.isFile() && statSync(resolve(entry.parentPath ?? entry.path, entry.name)).mtimeMs > built,
  );
  if (newer)
    console.warn(
      `warning: src/ changed after the build (${relative(root, resolve(newer.parentPath ?? newer.path, newer.name))}); the eval measures dist/: run \`npm run build\` first\n`,
    );
}

const SUITES = ['intent', 'discovery', 'knowledge'];

function options() {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string', default: 'all' },
      lang: { type: 'string' },
      limit: { type: 'string' },
      sample: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '4' },
      locale: { type: 'string', default: 'auto' },
      services: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      check: { type: 'boolean', default: false },
      'write-baseline': { type: 'boolean', default: false },
      en: { type: 'string', default: SETS.en },
      de: { type: 'string', default: SETS.de },
      discovery: { type: 'string', default: DISCOVERY_FILE },
      knowledge: { type: 'string', default: KNOWLEDGE_FILE },
    },
  });
  const suites = values.suite === 'all' ? SUITES : values.suite.split(',');
  if (suites.length === 0 || !suites.every((suite) => SUITES.includes(suite)))
    throw new CannotRun(`--suite must be all or one or more of ${SUITES.join(', ')} (comma-separated)`);
  if (values.lang !== undefined && !LANGUAGES.includes(values.lang))
    throw new CannotRun(`--lang must be one of ${LANGUAGES.join(', ')}`);
  const whole = (name, text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new CannotRun(`--${name} must be a whole number of at least 1`);
    return n;
  };
  const limit = values.limit === undefined ? undefined : whole('limit', values.limit);
  const concurrency = whole('concurrency', values.concurrency);
  const services = Math.min(whole('services', values.services), concurrency);
  if (!/^(auto|none|[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)$/.test(values.locale))
    throw new CannotRun('--locale must be auto, none or a language tag like de or en-GB');
  const partial = values.sample || limit !== undefined || values.locale !== 'auto';
  // A subset's rates are not the baseline's rates: comparing them would pass or fail by chance.
  if (values.check && partial)
    throw new CannotRun('--check compares full runs: drop --sample, --limit and --locale');
  if (values['write-baseline'] && (partial || values.lang))
    throw new CannotRun(
      '--write-baseline needs a full run of both languages: drop --lang, --sample, --limit and --locale',
    );
  return {
    suites,
    langs: values.lang ? [values.lang] : LANGUAGES,
    sample: values.sample,
    limit,
    concurrency,
    services,
    locale: values.locale,
    check: values.check,
    writeBaseline: values['write-baseline'],
    files: { en: resolve(values.en), de: resolve(values.de) },
    discoveryFile: resolve(values.discovery),
    knowledgeFile: resolve(values.knowledge),
  };
}

/** The store widget's catalog, downloaded now by each service process; stops the run unless all 194 products are in. */
async function loadStoreCatalog(services, expected) {
  for (const service of services) {
    const res = await request(`${service.url}/v0/admin/widgets/${STORE_WIDGET}/feeds/refresh`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const report = res.status === 200 ? JSON.parse(res.text) : null;
    const accepted = report?.feeds?.reduce((sum, feed) => sum + feed.accepted, 0);
    if (report?.status !== 'applied' || accepted !== expected)
      throw new CannotRun(
        `the store's feed was not applied whole (${accepted ?? 0} of ${expected} products): HTTP ${res.status} ${res.text.slice(0, 600)}`,
      );
  }
}

/** The intent suite (issue 19): each message plain and wrapped, scored by what the service did. */
async function runIntentSuite(opts, services, endpoint, tick) {
  const utterances = opts.langs.flatMap((lang) =>
    select(readSet(lang, opts.files[lang]), 'intent', INTENTS, opts),
  );
  const jobs = utterances.flatMap((u) => [
    { ...u, variant: 'plain', sent: u.text },
    { ...u, variant: 'wrapped', sent: wrapUtterance(u.text, u.lang, SEED).text },
  ]);
  const results = [];
  let events = 0;
  await runPool(jobs, opts.concurrency, async (job, worker) => {
    const base = services[worker % services.length].url;
    const record = await runTurn(base, endpoint, job.sent, localeOf(opts.locale, job.lang));
    const { hit, why } = scoreTurn(job, record, { contactEmails: CONTACT_EMAILS, handoff: true });
    results.push({ ...job, text: job.sent, hit, why, happened: describeTurn(record) });
    events += record.events ?? 0;
    tick();
  });
  return { rows: tally(results), conversations: jobs.length, messages: utterances.length, events };
}

async function main() {
  const opts = options();
  if (!existsSync(ENTRY))
    throw new CannotRun(
      'dist/server/eval-entry.js is missing: run `npm run build` first (the eval measures the build)',
    );
  warnIfStale();
  const want = (suite) => opts.suites.includes(suite);
  // Read and check every set before anything starts; the catalog once, for the store's feed and the discovery suite.
  const catalog = readCatalog();
  const discoveryQueries = want('discovery')
    ? select(readDiscoveryQueries(opts.discoveryFile, catalog, CannotRun), 'lang', opts.langs, opts)
    : [];
  const knowledgeQuestions = want('knowledge')
    ? select(readKnowledgeQuestions(opts.knowledgeFile, CannotRun), 'lang', opts.langs, opts)
    : [];
  if (want('intent')) for (const lang of opts.langs) readSet(lang, opts.files[lang]);
  const store = want('discovery') || want('knowledge');

  console.log(
    `eval: suites ${opts.suites.join(', ')} on ${opts.services} service process${opts.services > 1 ? 'es' : ''}…`,
  );
  const began = performance.now();
  const endpoint = await startEndpoint(catalog);
  const services = [];
  const results = {};
  const seconds = {};
  let serviceCpuMs = 0;
  let done = 0;
  const tick = () => done++;
  const progress = process.stderr.isTTY
    ? setInterval(() => process.stderr.write(`\r  ${done} turns`), 1000)
    : undefined;
  try {
    // The service's cost per turn is mostly its embedded database, one core per process: one process per core.
    services.push(
      ...(await Promise.all(
        Array.from({ length: opts.services }, () => startServiceChild(configFor(endpoint.url, { store }))),
      )),
    );
    if (want('discovery')) await loadStoreCatalog(services, catalog.length);
    const runStoreSuite = (messages, judging) =>
      runJudged({
        bases: services.map((service) => service.url),
        widget: STORE_WIDGET,
        messages,
        concurrency: opts.concurrency,
        locale: (lang) => localeOf(opts.locale, lang),
        progress: tick,
        ...judging,
      });
    for (const suite of opts.suites) {
      const at = performance.now();
      if (suite === 'intent') results.intent = await runIntentSuite(opts, services, endpoint, tick);
      if (suite === 'discovery')
        results.discovery = await runStoreSuite(discoveryQueries, discoveryJudging(catalog));
      if (suite === 'knowledge')
        results.knowledge = await runStoreSuite(knowledgeQuestions, KNOWLEDGE_JUDGING);
      seconds[suite] = (performance.now() - at) / 1000;
    }
  } finally {
    clearInterval(progress);
    if (progress) process.stderr.write('\r\x1b[K');
    closeWire();
    serviceCpuMs = (await Promise.all(services.map((service) => service.close()))).reduce(
      (sum, ms) => sum + (ms ?? 0),
      0,
    );
    await endpoint.close();
  }
  const total = (performance.now() - began) / 1000;
  const stored = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, 'utf8')) : null;
  const runNote =
    `local engine, ${opts.concurrency} at once on ${opts.services} service process${opts.services > 1 ? 'es' : ''}` +
    ` (Node ${process.version}, ${availableParallelism()} CPUs), locale ${opts.locale === 'auto' ? "the message's language" : opts.locale}` +
    `${opts.sample ? ', --sample' : ''}${opts.limit ? `, --limit ${opts.limit}` : ''}`;
  console.log(
    `\nAssistant eval: ${opts.suites.map((suite) => `${suite} ${seconds[suite]?.toFixed(1)} s`).join(', ')}; ${total.toFixed(1)} s in all; ${runNote}`,
  );
  console.log(
    `(service CPU after start: ${(serviceCpuMs / 1000).toFixed(1)} s for ${done} conversations, ${(serviceCpuMs / Math.max(done, 1)).toFixed(0)} ms per conversation)`,
  );

  if (results.intent) {
    const { rows, conversations, messages, events } = results.intent;
    console.log(
      `\n== intent: ${messages} messages × plain and wrapped = ${conversations} conversations (${(events / conversations).toFixed(1)} events per reply)\n`,
    );
    report(rows, stored?.rates);
    if (endpoint.unattributed.length)
      console.log(`\nthe endpoint got ${endpoint.unattributed.length} requests without a conversation id`);
  }
  if (results.discovery) {
    console.log(
      `\n== discovery: ${discoveryQueries.length} product requests to the DummyJSON catalog (${catalog.length} products, feed downloaded ${endpoint.feedDownloads()} times)\n`,
    );
    reportDiscovery(results.discovery, stored?.discovery?.rates);
  }
  if (results.knowledge) {
    console.log(`\n== knowledge: ${knowledgeQuestions.length} store questions\n`);
    reportMeasures('knowledge', results.knowledge.rows, {
      goals: KNOWLEDGE_GOALS,
      baseline: stored?.knowledge?.rates,
    });
  }

  const written = { date: new Date().toISOString().slice(0, 10), src: srcCommit() };
  let code = 0;
  if (opts.writeBaseline) {
    const next = { ...(stored ?? {}) };
    if (results.intent) {
      next.about =
        'The rates (%) `npm run eval -- --check` holds the assistant to, per language, intent and variant: written by ' +
        '`npm run eval -- --write-baseline` (rounded down to one decimal) and raised as the engine improves, up to ' +
        `the goals (${Object.entries(GOALS)
          .map(([intent, goal]) => `${intent} ${goal}`)
          .join(', ')}). The discovery and knowledge suites have their own sections below.`;
      next.written = written;
      next.rates = baselineRates(results.intent.rows);
    }
    const section = (suite, goals) => ({
      about: `The ${suite} suite's rates (%) per language and measure, rounded down; goals ${Object.entries(
        goals,
      )
        .map(([measure, goal]) => `${measure} ${goal}`)
        .join(', ')}.`,
      written,
      rates: measureBaseline(results[suite].rows),
    });
    if (results.discovery) next.discovery = section('discovery', DISCOVERY_GOALS);
    if (results.knowledge) next.knowledge = section('knowledge', KNOWLEDGE_GOALS);
    writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`\nwrote ${relative(root, BASELINE)} (${opts.suites.join(', ')})`);
  }
  if (opts.check) {
    if (!stored)
      throw new CannotRun(`${relative(root, BASELINE)} is missing: write it with --write-baseline`);
    const drops = [];
    if (results.intent)
      for (const d of belowBaseline(results.intent.rows, stored.rates))
        drops.push(`intent ${d.lang} ${d.intent} ${d.variant}: ${pct(d.rate)} % < ${pct(d.baseline)} %`);
    for (const suite of ['discovery', 'knowledge']) {
      if (!results[suite]) continue;
      if (!stored[suite])
        throw new CannotRun(
          `${relative(root, BASELINE)} has no ${suite} section: write it with --write-baseline --suite ${suite}`,
        );
      for (const d of belowMeasureBaseline(results[suite].rows, stored[suite].rates))
        drops.push(`${suite} ${d.lang} ${d.measure}: ${pct(d.rate)} % < ${pct(d.baseline)} %`);
    }
    if (drops.length) {
      console.log('\neval ratchet: below the baseline:');
      for (const drop of drops) console.log(`  ${drop}`);
      code = 1;
    } else console.log('\neval ratchet: no rate below the baseline');
  }
  const unmet = [];
  if (results.intent)
    for (const row of unmetGoals(results.intent.rows))
      unmet.push(
        `intent ${row.lang} ${row.intent} ${row.variant}: ${pct(row.rate)} % (goal ${GOALS[row.intent]} %)`,
      );
  for (const [suite, goals] of [
    ['discovery', DISCOVERY_GOALS],
    ['knowledge', KNOWLEDGE_GOALS],
  ])
    if (results[suite])
      for (const row of unmetMeasureGoals(results[suite].rows, goals))
        unmet.push(`${suite} ${row.lang} ${row.measure}: ${pct(row.rate)} % (goal ${goals[row.measure]} %)`);
  if (unmet.length === 0) console.log('\nall goals met');
  else {
    console.log('\ngoals not yet met:');
    for (const line of unmet) console.log(`  ${line}`);
  }
  return code;
}

if (process.argv.includes('--service-child')) {
  serviceChild().catch((error) => {
    console.error(`eval service process: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
} else {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(`\neval: could not run: ${error instanceof Error ? error.message : error}`);
      process.exit(2);
    },
  );
}
