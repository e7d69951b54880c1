// The discovery suite of `npm run eval` (issue 31 item 8): product requests in English and German sent to the eval's
// store widget, whose catalog is DummyJSON's 194 products downloaded as a schema.org feed (scripts/eval-catalog.mjs);
// each reply's cards and first sentence judged against the query's computed expectation
// (scripts/eval-discovery-queries.mjs makes the queries, scripts/eval-discovery-score.mjs judges).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productIndex } from './eval-catalog.mjs';
import {
  DISCOVERY_GOALS,
  DISCOVERY_MEASURES,
  describeDiscoveryTurn,
  judgeDiscovery,
} from './eval-discovery-score.mjs';
import { pct, readJsonl, reportMeasures, table } from './eval-measures.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DISCOVERY_FILE = resolve(root, 'test-data/eval-discovery-queries.jsonl');

/** The committed queries, checked: each names a language, a text and the ids of `catalog` that fit (possibly none). */
export function readDiscoveryQueries(file, catalog, CannotRun = Error) {
  const ids = new Set(catalog.map((p) => p.id));
  return readJsonl(
    file,
    CannotRun,
    (row, where) => {
      if (!['en', 'de'].includes(row?.lang)) throw new CannotRun(`${where}: lang must be en or de`);
      if (typeof row.text !== 'string' || !row.text.trim())
        throw new CannotRun(`${where}: text must be a string`);
      if (!Array.isArray(row.fits) || !row.fits.every((id) => ids.has(id)))
        throw new CannotRun(`${where}: fits must list catalog product ids`);
      return row;
    },
    `the discovery queries ${file} are missing`,
  );
}

/** How runJudged (scripts/eval-wire.mjs) judges a discovery reply: its cards matched to `catalog`'s products. */
export function discoveryJudging(catalog) {
  const match = productIndex(catalog);
  return {
    measures: DISCOVERY_MEASURES,
    judge: (query, record) => judgeDiscovery(query, record, match),
    describe: (query, record) => describeDiscoveryTurn(record, query.fits, match),
  };
}

/** The rows' table, a breakdown by kind of query, then each row's misses. */
export function reportDiscovery({ rows, judged }, baseline) {
  // Which wishes go wrong: per kind of query (scripts/eval-discovery-queries.mjs), the mean of each measure.
  const kinds = new Map();
  for (const { message: query, verdicts } of judged) {
    const key = `${query.lang} ${query.kind}`;
    const kind = kinds.get(key) ?? { lang: query.lang, kind: query.kind, n: 0, sums: {}, counts: {} };
    kind.n++;
    for (const v of verdicts) {
      kind.sums[v.measure] = (kind.sums[v.measure] ?? 0) + v.value;
      kind.counts[v.measure] = (kind.counts[v.measure] ?? 0) + 1;
    }
    kinds.set(key, kind);
  }
  const cell = (kind, measure) =>
    kind.counts[measure] ? pct((kind.sums[measure] * 100) / kind.counts[measure]) : '';
  const byKind = table(
    ['lang', 'kind', 'n', 'fit3 %', 'found %', 'none %'],
    [...kinds.values()]
      .sort((a, b) => a.lang.localeCompare(b.lang) * -1 || a.kind.localeCompare(b.kind))
      .map((kind) => [
        kind.lang,
        kind.kind,
        kind.n,
        cell(kind, 'fit3'),
        cell(kind, 'found'),
        cell(kind, 'none'),
      ]),
  );
  reportMeasures('discovery', rows, {
    goals: DISCOVERY_GOALS,
    baseline,
    more: `\nby kind of query:\n${byKind}`,
  });
}
