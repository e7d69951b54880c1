// A widget's script time on a page until it is ready, from a Chrome trace: what scripts/bench-vendor.mjs measures
// for this widget and for the vendor's alike (its header gives the definition and why it holds on those pages).
import { completeSlices, rendererMainThreads } from './bench-helpers.mjs';

/** The user-timing mark the page sets at ready; the trace records it on the page's main thread. */
export const READY_MARK = 'bench:ready';
/** The trace's JavaScript entry points: compile, evaluation, calls from Blink, microtask checkpoints. */
const ENTRY_POINTS = new Set([
  'EvaluateScript',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'v8.run',
  'v8.callFunction',
  'FunctionCall',
  'RunMicrotasks',
]);
/** A long task, as the Long Tasks API counts one. */
const LONG_TASK_US = 50_000;

const urlOf = (e) => e.args?.data?.url ?? e.args?.data?.fileName ?? e.args?.fileName ?? '';
const originOf = (url) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The widget's script time on the page's main thread from navigation to the ready mark, and the long tasks until
 * then. The JavaScript entry points, outermost only and each with what is nested in it, that start before the mark:
 * - a call of a function of the bench's probe (`probeUrl`) is no one's;
 * - otherwise one is the widget's when a URL on it or on an event nested in it is from `origin` (the probe's listeners
 *   nested in it do not count), or when none has a URL (promise continuations, module evaluation): on the bench's
 *   pages nothing else runs script without one;
 * - otherwise its first URL says whose: the page's (`pageUrl`), or another script's ("foreign", reported).
 * With `origin` null (a page without a widget) the entries without a URL are counted: the check that there are none.
 *
 * @example
 * const figures = scriptTimeUntilReady(events, { origin: 'http://127.0.0.1:8787', pageUrl, probeUrl: 'probe.js' });
 * figures.scriptCpuMs; // CPU ms of the widget's script until ready
 */
export function scriptTimeUntilReady(events, { origin, pageUrl, probeUrl }) {
  const threads = rendererMainThreads(events);
  const readyMark = events.find((e) => e.name === READY_MARK && threads.has(`${e.pid}:${e.tid}`));
  if (!readyMark)
    throw new Error(`script-time: the trace has no ${READY_MARK} mark on a renderer's main thread`);
  const slices = completeSlices(threads.get(`${readyMark.pid}:${readyMark.tid}`));
  const readyTs = readyMark.ts;
  // The mark's `startTime` is ms from navigation start: where navigation starts on the trace's clock.
  const navigationTs = readyTs - readyMark.args.data.startTime * 1000;
  const whose = (url) => {
    if (origin && originOf(url) === origin) return 'widget';
    return url.startsWith(pageUrl) ? 'page' : 'foreign';
  };

  const totals = { widgetUs: 0, widgetWallUs: 0, unlabelledUs: 0, allUs: 0, allWallUs: 0 };
  const longTasks = [];
  const steps = [];
  const foreign = new Set();
  let taskEnd = -1;
  let task = null;
  let entryEnd = -1;
  for (const [i, e] of slices.entries()) {
    if (e.ts >= readyTs) break;
    if (e.name === 'RunTask' && e.ts >= taskEnd) {
      task = { dur: e.dur, isWidget: false };
      taskEnd = e.ts + e.dur;
      if (e.dur >= LONG_TASK_US) longTasks.push(task);
    }
    if (!ENTRY_POINTS.has(e.name) || e.ts < entryEnd) continue;
    entryEnd = e.ts + e.dur;
    const cpu = e.tdur ?? e.dur;
    totals.allUs += cpu;
    totals.allWallUs += e.dur;
    const nested = [];
    for (let j = i + 1; j < slices.length && slices[j].ts < entryEnd; j++) nested.push(slices[j]);
    const called = e.name === 'v8.callFunction' ? nested.find((n) => n.name === 'FunctionCall') : e;
    if (called && urlOf(called) === probeUrl) continue;
    const urls = [e, ...nested].map(urlOf).filter((u) => u && u !== probeUrl);
    const url = urls.find((u) => whose(u) === 'widget') ?? urls[0] ?? '';
    const owner = url ? whose(url) : 'widget';
    if (owner === 'foreign') foreign.add(url);
    if (owner !== 'widget') continue;
    totals.widgetUs += cpu;
    totals.widgetWallUs += e.dur;
    if (!url) totals.unlabelledUs += cpu;
    if (task && e.ts < taskEnd) task.isWidget = true;
    steps.push({
      atMs: Math.round((e.ts - navigationTs) / 100) / 10,
      name: e.name,
      script: url ? new URL(url).pathname : '(no URL)',
      cpuMs: Math.round(cpu / 100) / 10,
      wallMs: Math.round(e.dur / 100) / 10,
    });
  }
  const ms = (us) => us / 1000;
  const widgetTasks = longTasks.filter((t) => t.isWidget);
  return {
    scriptCpuMs: ms(totals.widgetUs),
    scriptWallMs: ms(totals.widgetWallUs),
    unlabelledCpuMs: ms(totals.unlabelledUs),
    allScriptCpuMs: ms(totals.allUs),
    allScriptWallMs: ms(totals.allWallUs),
    longTasks: longTasks.length,
    longestTaskMs: ms(Math.max(0, ...longTasks.map((t) => t.dur))),
    widgetLongTasks: widgetTasks.length,
    longestWidgetTaskMs: ms(Math.max(0, ...widgetTasks.map((t) => t.dur))),
    steps,
    foreign: [...foreign],
  };
}
