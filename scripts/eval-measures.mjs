// How the discovery and knowledge suites of `npm run eval` (issue 31 item 8) add their judgements up: one row per
// language and measure, each judged item worth 0 to 1 (a hit is 1, a miss 0; "of the first three cards, the share that
// fit" is its share), the row's rate the mean in %. The rows' baseline, its ratchet and the goals work as the intent
// suite's do (scripts/eval-score.mjs): rates rounded down to one decimal, so the run that wrote them passes its check.
// Also what every suite's report is made of (quote, pct, table) and the two suites' report (reportMeasures). No I/O
// here but readJsonl's reading and reportMeasures's printing.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * The rows of a JSONL set, blank lines skipped, each as `check(row, where)` returns it (`where` names the file and
 * line for its errors). A missing file (saying `missing`) or a line that is no JSON throws `CannotRun`.
 */
export function readJsonl(file, CannotRun, check, missing = `${file} is missing`) {
  if (!existsSync(file)) throw new CannotRun(missing);
  const shown = relative(process.cwd(), file);
  const name = shown.startsWith('..') ? file : shown;
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (!line.trim()) return [];
      const where = `${name}:${i + 1}`;
      let row;
      try {
        row = JSON.parse(line);
      } catch (error) {
        throw new CannotRun(`${where}: not JSON (${error.message})`);
      }
      return [check(row, where)];
    });
}

/** A reply's text on one line for a miss's report, cut to `max` characters, in quotes. */
export const quote = (text, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
};

/** How many misses of a row the report lists. */
export const MEASURE_MISSES_SHOWN = Number(process.env.EVAL_MISSES_SHOWN) || 10;

/** A rate (%) as the reports print it: one decimal. */
export const pct = (rate) => rate.toFixed(1);

/** A fixed-width table: the first two columns left-aligned, the rest right-aligned. */
export function table(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (row) =>
    row
      .map((cell, i) => (i < 2 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i])))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * Adds judged items up into rows, in the order of `languages` × `measures`. An item is `{ lang, measure, value, text,
 * why, happened }`; `value` is 1 for a hit, 0 for a miss, or a share in between (a partial miss, listed with its why).
 */
export function tallyMeasures(items, { languages, measures }) {
  const rows = new Map();
  for (const lang of languages) for (const measure of measures) rows.set(`${lang}/${measure}`, null);
  for (const item of items) {
    const key = `${item.lang}/${item.measure}`;
    if (!rows.has(key)) throw new Error(`unknown row ${key}`);
    if (!(item.value >= 0 && item.value <= 1))
      throw new Error(`${key}: value ${item.value} is not within 0 to 1`);
    const row = rows.get(key) ?? {
      lang: item.lang,
      measure: item.measure,
      n: 0,
      sum: 0,
      missCount: 0,
      misses: [],
    };
    row.n++;
    row.sum += item.value;
    if (item.value < 1) {
      row.missCount++;
      if (row.misses.length < MEASURE_MISSES_SHOWN)
        row.misses.push({ text: item.text, why: item.why, happened: item.happened });
    }
    rows.set(key, row);
  }
  return [...rows.values()]
    .filter(Boolean)
    .map((row) => ({ ...row, rate: row.n === 0 ? 0 : (row.sum * 100) / row.n }));
}

/** A rate as the baseline stores it: rounded down to one decimal (with a hair of slack for floating sums). */
export const floorMeasure = (rate) => Math.floor(rate * 10 + 1e-7) / 10;

/** The baseline's figures from a run: `{ en: { measure: rate, … }, de: … }`. */
export function measureBaseline(rows) {
  const rates = {};
  for (const row of rows) {
    rates[row.lang] ??= {};
    rates[row.lang][row.measure] = floorMeasure(row.rate);
  }
  return rates;
}

/** The rows below the baseline's figure; rows the baseline does not have are not judged. */
export function belowMeasureBaseline(rows, rates) {
  const drops = [];
  for (const row of rows) {
    const floor = rates?.[row.lang]?.[row.measure];
    if (typeof floor !== 'number') continue;
    if (row.rate < floor - 1e-6) drops.push({ ...row, baseline: floor });
  }
  return drops;
}

/** The rows below their measure's goal. */
export const unmetMeasureGoals = (rows, goals) => rows.filter((row) => row.rate < goals[row.measure]);

/**
 * Prints a suite's rows: their table (rate, goal and baseline per language and measure), then `more` (a breakdown of
 * the suite's own, when it has one), then each row's misses, headed `misses <suite> <lang> <measure>`.
 */
export function reportMeasures(suite, rows, { goals, baseline, more }) {
  console.log(
    table(
      ['lang', 'measure', 'n', 'rate %', 'goal %', 'baseline %'],
      rows.map((row) => [
        row.lang,
        row.measure,
        row.n,
        pct(row.rate),
        goals[row.measure],
        typeof baseline?.[row.lang]?.[row.measure] === 'number' ? pct(baseline[row.lang][row.measure]) : '–',
      ]),
    ),
  );
  if (more) console.log(more);
  for (const row of rows) {
    if (!row.missCount) continue;
    const shown = row.missCount > row.misses.length ? ` (first ${MEASURE_MISSES_SHOWN})` : '';
    console.log(`\nmisses ${suite} ${row.lang} ${row.measure}: ${row.missCount} of ${row.n}${shown}`);
    for (const miss of row.misses)
      console.log(`  ${JSON.stringify(miss.text)}\n      ${miss.why}: ${miss.happened}`);
  }
}
