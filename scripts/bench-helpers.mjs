// What the browser benches share (scripts/bench.mjs, bench-chat.mjs, bench-vendor.mjs), so that a figure two of them
// print is measured one way: bytes as brotli q11, medians, and the main-thread CPU a keystroke costs, from a trace.
import { brotliCompressSync, constants as zlib } from 'node:zlib';

/** The bytes of `buffer` compressed as the size script and the service's /sdk/ files are: brotli, quality 11. */
export const brotliSize = (buffer) =>
  brotliCompressSync(buffer, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: buffer.length },
  }).length;

/** The middle value; the mean of the two middle ones for an even count. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The events of a trace as `browser.stopTracing()` hands it over. */
export const traceEventsOf = (buffer) => {
  const trace = JSON.parse(buffer.toString('utf8'));
  return trace.traceEvents ?? trace;
};

/** Each renderer main thread of a trace (`CrRendererMain`), as `pid:tid` → its events. */
export function rendererMainThreads(events) {
  const threads = new Map();
  for (const e of events) {
    if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain') threads.set(`${e.pid}:${e.tid}`, []);
  }
  for (const e of events) threads.get(`${e.pid}:${e.tid}`)?.push(e);
  return threads;
}

/** The complete (`X`) events of a thread by start, each one before the events nested in it. */
export const completeSlices = (thread) =>
  thread.filter((e) => e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur - a.dur);

/**
 * Main-thread CPU milliseconds per keystroke, from a Chrome trace of typing `text` (20 ms between keys) into the field
 * `selector`: the tasks that dispatch a keypress (handlers, the field's own editing) and the frames that follow (style,
 * layout, paint, commit). It is the thread's CPU time (a trace event's `tdur`), not wall-clock time: on a busy machine
 * it leaves out the time the thread waited for a core, so it is the steadiest of the typing figures. CPU throttling
 * does show in it. The field is emptied afterwards.
 */
export async function keystrokeCost(browser, page, selector, text) {
  await page.locator(selector).click();
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  await page.keyboard.type(text, { delay: 20 });
  await page.waitForTimeout(300);
  const events = traceEventsOf(await browser.stopTracing());
  await page.locator(selector).fill('');
  // The page's renderer: the main thread that dispatched the key events.
  const main = [...rendererMainThreads(events).values()].find((list) =>
    list.some((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keypress'),
  );
  if (!main) throw new Error('keystrokeCost: no keypress in the trace');
  const slices = completeSlices(main);
  let keys = 0;
  let keyUs = 0;
  let frameUs = 0;
  for (const [i, task] of slices.entries()) {
    if (task.name !== 'RunTask') continue;
    // The slices are sorted by start: what starts inside the task follows it.
    const end = task.ts + task.dur;
    const inside = [];
    for (let j = i + 1; j < slices.length && slices[j].ts < end; j++) inside.push(slices[j]);
    if (inside.some((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keypress')) {
      keys++;
      keyUs += task.tdur ?? task.dur;
    } else if (inside.some((e) => e.name === 'Paint' || e.name === 'Commit'))
      frameUs += task.tdur ?? task.dur;
  }
  if (keys !== text.length)
    throw new Error(`keystrokeCost: ${keys} keypress tasks traced, not ${text.length}`);
  return { key: keyUs / keys / 1000, frame: frameUs / keys / 1000 };
}
