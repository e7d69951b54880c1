// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyBinaryRows, tsPosition } from '../../platform/database/copy-binary';
import type { Db } from '../../platform/database/db';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { tsvectorLiteral } from '../search/search-text';
import { tsvectorPositions } from './product-row';

// Every value the binary COPY writes, read back by the database and compared with what the same value gives through
// its text form (`$1::type`), on each backend: the server checks the binary form as it reads it, so a mistake fails
// loudly or shows here as a difference.

const DECIMALS = [
  '0',
  '0.00',
  '-0.5',
  '12.50',
  '89.95',
  '1299.00',
  '10000',
  '007.10',
  '0.0001',
  '0.00001',
  '100000000.0001',
  '-12345678901234567890.123456789',
  '99999999',
  '5',
];

const HOSTILE = [
  '',
  'tab\there, line\nbreak, return\r, back\\slash',
  '<script>alert("x")</script>',
  'javascript:alert(1)',
  "Robert'); DROP TABLE products;--",
  'caf\u00e9 \u2615 \u6771\u4eac \ud83d\udc5f',
  'x'.repeat(70_000),
];

describe.each(backends)('CopyBinaryRows on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await db.exec(
      `CREATE TABLE copied (n text, t text, j jsonb, b boolean, a text[], d numeric, v tsvector)`,
    );
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const copy = (rows: CopyBinaryRows) =>
    db.copyFrom('copied', ['n', 't', 'j', 'b', 'a', 'd', 'v'], rows.content, { format: 'binary' });

  it('stores text, jsonb, booleans, text arrays and NULLs as their text forms give them, hostile strings included', async () => {
    const rows = new CopyBinaryRows();
    HOSTILE.forEach((text, n) => {
      const json = JSON.stringify({ text, nested: [{ deep: text }], n });
      rows
        .row(7)
        .text(String(n))
        .text(text)
        .jsonb(json)
        .bool(n % 2 === 0)
        .textArray(n === 0 ? [] : [text, 'abc 123', text])
        .null()
        .lexemes([]);
    });
    rows.row(7).text('100').null().jsonb('[]').bool(false).textArray([]).null().tsvector(new Map());
    expect(rows.count).toBe(HOSTILE.length + 1);
    await copy(rows);
    const stored = await db.query<{
      n: number;
      t: string | null;
      j: unknown;
      b: boolean;
      a: string[];
      v: string;
    }>('SELECT n::int AS n, t, j, b, a, d, v::text AS v FROM copied ORDER BY n::int');
    expect(stored).toEqual([
      ...HOSTILE.map((text, n) => ({
        n,
        t: text,
        j: { text, nested: [{ deep: text }], n },
        b: n % 2 === 0,
        a: n === 0 ? [] : [text, 'abc 123', text],
        d: null,
        v: '',
      })),
      { n: 100, t: null, j: [], b: false, a: [], d: null, v: '' },
    ]);
    await db.exec('DELETE FROM copied');
  });

  it('stores numerics exactly as their decimal text reads, and refuses a text that is no decimal', async () => {
    const rows = new CopyBinaryRows();
    DECIMALS.forEach((decimal, n) => {
      rows.row(7).text(String(n)).null().jsonb('{}').bool(true).textArray([]).numeric(decimal).lexemes([]);
    });
    await copy(rows);
    for (const [n, decimal] of DECIMALS.entries()) {
      const [row] = await db.query<{ same: boolean; d: string }>(
        'SELECT d::text AS d, d::text = $2::numeric::text AS same FROM copied WHERE n = $1',
        [String(n), decimal],
      );
      expect(row, decimal).toEqual({ d: expect.any(String), same: true });
    }
    for (const bad of ['1e5', '12,50', 'NaN', '', '--1', '1.2.3']) {
      expect(() => new CopyBinaryRows().row(1).numeric(bad)).toThrow(/not a decimal number/);
    }
    await db.exec('DELETE FROM copied');
  });

  it('stores a tsvector exactly as its literal reads: weights, non-ASCII lexemes, 256 positions at most, the last position held', async () => {
    const many = Array.from({ length: 17_000 }, (_, i) => `w${i}`);
    const cases: Array<[string[], string[]]> = [
      [
        ['trail', 'runner', 'acme'],
        ['trail', 'runner', 'shoe', 'shoes', 'acme'],
      ],
      [
        ['caf\u00e9', '\u6771\u4eac'],
        ['\u00fcber', 'stra\u00dfe', 'caf\u00e9', '\u0437\u0438\u043c\u0430'],
      ],
      // JS's string order and UTF-8's byte order disagree beyond U+FFFF: U+20000 sorts before U+FF21 in JS only.
      [['\u{20000}'], ['\uff21', 'z', '\u{20000}b']],
      // One word over and over: PostgreSQL keeps its first 256 positions.
      [['echo'], Array.from({ length: 400 }, () => 'echo')],
      // Past position 16,383 every word is held there, once.
      [['first'], [...many, 'first', 'w5', 'last', 'last']],
      [[], []],
    ];
    const rows = new CopyBinaryRows();
    cases.forEach(([name, text], n) => {
      rows
        .row(7)
        .text(String(n))
        .null()
        .jsonb('{}')
        .bool(true)
        .textArray([])
        .null()
        .tsvector(tsvectorPositions(name, text));
    });
    await copy(rows);
    for (const [n, [name, text]] of cases.entries()) {
      const [row] = await db.query<{ same: boolean }>(
        'SELECT v = $2::tsvector AND v::text = $2::tsvector::text AS same FROM copied WHERE n = $1',
        [String(n), tsvectorLiteral(name, text)],
      );
      expect(row.same, `case ${n}`).toBe(true);
    }
    const [weights] = await db.query<{ v: string }>("SELECT v::text AS v FROM copied WHERE n = '0'");
    expect(weights.v).toBe("'acme':3A,8 'runner':2A,5 'shoe':6 'shoes':7 'trail':1A,4");
    expect(tsPosition(2, 'A')).toBe(0xc002);
    await db.exec('DELETE FROM copied');
  });

  it('fails the whole COPY on a tuple the server refuses, and stores nothing of it', async () => {
    const rows = new CopyBinaryRows();
    rows.row(7).text('1').text('fine').jsonb('{}').bool(true).textArray([]).null().lexemes([]);
    rows.row(7).text('2').text('broken').jsonb('{"not json').bool(true).textArray([]).null().lexemes([]);
    await expect(copy(rows)).rejects.toThrow(/json/i);
    expect(await db.query('SELECT n FROM copied')).toEqual([]);
  });
});
