// The eval's shopper on the wire (`npm run eval`, all suites): node:http with keep-alive, the widget's origin on every
// request, each reply's event stream read to its end (SPEC/docs/service.md "Chat protocol (v0)"). Only the public
// interface: what a widget on a store page sends and sees.
import http from 'node:http';
import { tallyMeasures } from './eval-measures.mjs';

/** The store page the eval's widgets allow. */
export const ORIGIN = 'http://eval-shop.test';
/** One request (a turn's whole reply stream included) that takes longer than this is a failed turn. */
const REQUEST_DEADLINE_MS = 60_000;

const agent = new http.Agent({ keepAlive: true });

/** Closes the kept-alive sockets: the process can then exit. */
export const closeWire = () => agent.destroy();

/** One HTTP request; resolves with `{ status, type, text }` whatever the status. */
export function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(url, { method, headers: { origin: ORIGIN, ...headers }, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        ok({ status: res.statusCode, type: String(res.headers['content-type'] ?? ''), text }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.setTimeout(REQUEST_DEADLINE_MS, () => req.destroy(new Error('timed out')));
    req.end(body);
  });
}

/** The events of a complete `text/event-stream` body, as `{ event, data }`. */
function eventsOf(text) {
  const events = [];
  for (const block of text.split('\n\n')) {
    let event = 'message';
    let data;
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:'))
        data = (data === undefined ? '' : `${data}\n`) + line.slice(5).trimStart();
    }
    if (data !== undefined) events.push({ event, data: JSON.parse(data) });
  }
  return events;
}

/**
 * POSTs JSON and reads the reply stream: what the turn showed (`text`, `cards` of `products` and `product-card` parts
 * in the order shown, `confirms`, `modes`, `events`), or `{ failure }`.
 */
export async function streamTurn(url, token, body) {
  const payload = JSON.stringify(body);
  let res;
  try {
    res = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        authorization: `Bearer ${token}`,
      },
      body: payload,
    });
  } catch (error) {
    return { failure: error.message };
  }
  if (res.status !== 200 || !res.type.startsWith('text/event-stream'))
    return { failure: `HTTP ${res.status} ${res.text.slice(0, 200)}` };
  const events = eventsOf(res.text);
  const turn = { text: '', cards: [], confirms: [], modes: [], events: events.length };
  for (const { event, data } of events) {
    if (event === 'message.delta') turn.text += data.text;
    else if (event === 'message.part' && data.part?.type === 'text') turn.text += data.part.text;
    else if (event === 'message.part' && data.part?.type === 'confirm') turn.confirms.push(data.part);
    else if (event === 'message.part' && data.part?.type === 'products')
      turn.cards.push(...(data.part.cards ?? []));
    else if (event === 'message.part' && data.part?.type === 'product-card' && data.part.card)
      turn.cards.push(data.part.card);
    else if (event === 'conversation.mode') turn.modes.push(data.mode);
    else if (event === 'error') return { failure: `error event ${data.code}: ${data.message}` };
  }
  if (events.at(-1)?.event !== 'message.done') return { failure: 'the stream ended before message.done' };
  return turn;
}

let messageCount = 0;

/**
 * Opens a conversation on `widget` and sends `text` as its first message, as the widget does (the page's locale with
 * the conversation and the message). Resolves with `{ conversationId, token, conversation (its URL), turn }`, or
 * `{ turn: { failure } }` when the conversation could not be opened.
 */
export async function firstMessage(base, widget, text, locale) {
  const context = locale ? { locale } : {};
  const created = await request(`${base}/v0/widget/${widget}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(context),
  }).catch((error) => ({ status: 0, text: error.message }));
  if (created.status !== 201) return { turn: { failure: `new conversation: ${created.status}` } };
  const { conversationId, token } = JSON.parse(created.text);
  const conversation = `${base}/v0/widget/${widget}/conversations/${conversationId}`;
  const turn = await streamTurn(`${conversation}/messages`, token, {
    clientMessageId: `e${++messageCount}`,
    text,
    ...context,
  });
  return { conversationId, token, conversation, turn };
}

/** Runs `work(job, worker)` over `jobs` with `concurrency` workers; resolves when all are done. */
export async function runPool(jobs, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, jobs.length) }, async (_, worker) => {
      while (next < jobs.length) await work(jobs[next++], worker);
    }),
  );
}

/**
 * The discovery and knowledge suites' run: sends each message (`{ lang, text }`) in a new conversation on `widget`
 * (spread over `bases`, `concurrency` at once) and judges the reply: `judge(message, record)` gives its verdicts (`{
 * measure, value, why }`), `describe(message, record)` what happened, in a few words. Resolves with the rows per
 * language and measure (their misses in the messages' order) and each message with its verdicts.
 */
export async function runJudged({
  bases,
  widget,
  messages,
  concurrency,
  locale,
  progress,
  measures,
  judge,
  describe,
}) {
  const items = [];
  const judged = [];
  await runPool(messages, concurrency, async (message, worker) => {
    const { turn } = await firstMessage(
      bases[worker % bases.length],
      widget,
      message.text,
      locale(message.lang),
    );
    const record = { text: '', cards: [], ...turn };
    const happened = describe(message, record);
    const verdicts = judge(message, record);
    for (const verdict of verdicts)
      items.push({ lang: message.lang, text: message.text, happened, ...verdict });
    judged.push({ message, verdicts });
    progress?.();
  });
  // Items arrive in completion order; the misses are listed in the messages' order.
  const order = new Map(messages.map((m, i) => [m.text, i]));
  items.sort((a, b) => order.get(a.text) - order.get(b.text));
  return { rows: tallyMeasures(items, { languages: ['en', 'de'], measures }), judged };
}
