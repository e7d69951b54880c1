// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { READY_MARK, scriptTimeUntilReady } from './script-time.mjs';

const WIDGET = 'http://127.0.0.1:8787';
const PAGE = 'http://127.0.0.1:5173/';
const PROBE = 'probe.js';
const options = { origin: WIDGET, pageUrl: PAGE, probeUrl: PROBE };

/** A trace of one renderer's main thread (pid 1) and another renderer's (pid 2); times in µs, navigation at 0. */
const trace = (...events) => [
  { name: 'thread_name', ph: 'M', pid: 1, tid: 1, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', pid: 2, tid: 2, args: { name: 'CrRendererMain' } },
  ...events,
];
/** A complete event on the page's main thread; `tdur` (CPU) is half the wall time unless given. */
const x = (name, ts, dur, data = {}, tdur = dur / 2) => ({
  name,
  ph: 'X',
  pid: 1,
  tid: 1,
  ts,
  dur,
  tdur,
  args: { data },
});
const ready = (ts) => ({
  name: READY_MARK,
  ph: 'I',
  pid: 1,
  tid: 1,
  ts,
  args: { data: { startTime: ts / 1000 } },
});

describe('scriptTimeUntilReady', () => {
  it("counts the widget's compile, module evaluation and promise continuations, and not the page's own script", () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 1_000, 4_000),
        x('EvaluateScript', 1_000, 4_000, { url: PAGE }),
        x('RunTask', 10_000, 2_000),
        x('v8.compileModule', 10_000, 2_000, { url: `${WIDGET}/sdk/chunks/mount.js` }),
        x('RunTask', 20_000, 30_000),
        x('v8.evaluateModule', 20_000, 30_000),
        x('RunTask', 60_000, 8_000),
        x('RunMicrotasks', 60_000, 8_000),
        ready(100_000),
      ),
      options,
    );
    expect(figures.scriptWallMs).toBe(40);
    expect(figures.scriptCpuMs).toBe(20);
    expect(figures.unlabelledCpuMs).toBe(19);
    expect(figures.allScriptWallMs).toBe(44);
    expect(figures.steps.map((s) => [s.name, s.script, s.atMs])).toEqual([
      ['v8.compileModule', '/sdk/chunks/mount.js', 10],
      ['v8.evaluateModule', '(no URL)', 20],
      ['RunMicrotasks', '(no URL)', 60],
    ]);
  });

  it('counts an entry point once, with what is nested in it, and a callback by the URL of the function it calls', () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 1_000, 10_000),
        x('v8.callFunction', 1_000, 10_000),
        x('FunctionCall', 1_000, 4_000, { url: `${WIDGET}/sdk/loader.js` }),
        x('v8.compile', 2_000, 1_000, { url: `${WIDGET}/sdk/loader.js` }),
        x('RunMicrotasks', 6_000, 5_000),
        x('Layout', 7_000, 2_000),
        ready(50_000),
      ),
      options,
    );
    expect(figures.scriptWallMs).toBe(10);
    expect(figures.steps).toHaveLength(1);
    expect(figures.steps[0].script).toBe('/sdk/loader.js');
  });

  it("keeps a continuation the widget's when the probe's ready listener runs inside it, and counts no call of the probe", () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 1_000, 20_000),
        x('RunMicrotasks', 1_000, 20_000),
        x('FunctionCall', 19_000, 500, { url: PROBE }),
        x('RunTask', 30_000, 6_000),
        x('v8.callFunction', 30_000, 6_000),
        x('FunctionCall', 30_000, 6_000, { url: PROBE }),
        x('UpdateLayoutTree', 31_000, 4_000),
        ready(36_000),
      ),
      options,
    );
    expect(figures.scriptWallMs).toBe(20);
    expect(figures.allScriptWallMs).toBe(26);
  });

  it('stops at the ready mark, and reads only the main thread that has it', () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 1_000, 3_000),
        x('v8.evaluateModule', 1_000, 3_000),
        ready(5_000),
        x('RunTask', 6_000, 9_000),
        x('RunMicrotasks', 6_000, 9_000),
        { ...x('EvaluateScript', 1_000, 7_000, { url: `${WIDGET}/sdk/loader.js` }), pid: 2, tid: 2 },
      ),
      options,
    );
    expect(figures.scriptWallMs).toBe(3);
  });

  it("counts long tasks until ready, and as the widget's those in which its script ran", () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 0, 120_000),
        x('Layout', 0, 120_000),
        x('RunTask', 200_000, 70_000),
        x('v8.evaluateModule', 210_000, 10_000),
        x('RunTask', 300_000, 30_000),
        x('RunMicrotasks', 300_000, 30_000),
        ready(400_000),
        x('RunTask', 500_000, 90_000),
      ),
      options,
    );
    expect(figures.longTasks).toBe(2);
    expect(figures.longestTaskMs).toBe(120);
    expect(figures.widgetLongTasks).toBe(1);
    expect(figures.longestWidgetTaskMs).toBe(70);
  });

  it("reports a script of another origin, and does not take a port's prefix for the widget's origin", () => {
    const figures = scriptTimeUntilReady(
      trace(
        x('RunTask', 1_000, 2_000),
        x('EvaluateScript', 1_000, 2_000, { url: 'http://127.0.0.1:41000/tag.js' }),
        ready(10_000),
      ),
      { ...options, origin: 'http://127.0.0.1:4100' },
    );
    expect(figures.scriptWallMs).toBe(0);
    expect(figures.foreign).toEqual(['http://127.0.0.1:41000/tag.js']);
  });

  it('on a page without a widget, counts the entry points without a URL: the check that there are none', () => {
    const events = trace(
      x('RunTask', 1_000, 2_000),
      x('EvaluateScript', 1_000, 2_000, { url: PAGE }),
      x('RunTask', 5_000, 1_000),
      x('RunMicrotasks', 5_000, 1_000),
      ready(10_000),
    );
    expect(scriptTimeUntilReady(events, { ...options, origin: null }).scriptWallMs).toBe(1);
  });

  it('refuses a trace without the ready mark', () => {
    expect(() => scriptTimeUntilReady(trace(x('RunTask', 0, 1_000)), options)).toThrow(READY_MARK);
  });
});
