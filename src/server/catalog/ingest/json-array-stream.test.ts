// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  JsonArrayScanner,
  type JsonArrayStreamOptions,
  JsonStreamError,
  type StreamedItem,
  streamJsonArray,
} from './json-array-stream';

/** Runs the scanner over `chunks` (strings or bytes) and returns every item, or the error it ended with. */
function scan(chunks: Array<string | Buffer>, options: JsonArrayStreamOptions = {}): StreamedItem[] {
  const scanner = new JsonArrayScanner(options);
  const items: StreamedItem[] = [];
  for (const chunk of chunks)
    items.push(...scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  scanner.end();
  return items;
}

/** Every way of cutting `bytes` into two pieces, plus one byte at a time. */
function hostileChunkings(text: string): Buffer[][] {
  const bytes = Buffer.from(text, 'utf8');
  const cuts: Buffer[][] = [];
  for (let at = 0; at <= bytes.length; at++) cuts.push([bytes.subarray(0, at), bytes.subarray(at)]);
  cuts.push([...bytes].map((b) => Buffer.from([b])));
  return cuts;
}

const values = (items: StreamedItem[]) => items.map((item) => ('value' in item ? item.value : item));

const TRICKY = [
  { name: 'quote " inside', url: 'https://shop.example/p/"1"' },
  { path: 'C:\\shop\\', tail: '\\' },
  { unicode: '\u00e9\u4e2d\ud83d\ude00 caf\u00e9', escaped: 'snowman \u2603' },
  { nested: [[1, [2, [3, { deep: ['],}{['] }]]], {}], empty: [], obj: { a: { b: { c: null } } } },
  'a bare string, with a comma ] and brackets [',
  -12.5e3,
  true,
  null,
  [],
  {},
];

describe('JsonArrayScanner', () => {
  it('yields every element of an array, whatever the chunk boundaries (inside strings, escapes, characters)', () => {
    // Written with raw escapes so the wire text holds \", \\, \uXXXX and a surrogate pair as escapes.
    const text = ` \n[ ${JSON.stringify(TRICKY[0])} ,\t${JSON.stringify(TRICKY[1])},{"unicode":"é中😀 café","escaped":"snowman \\u2603"} ,
      ${TRICKY.slice(3)
        .map((v) => JSON.stringify(v))
        .join(' ,\r\n ')} ] \n`;
    expect(JSON.parse(text)).toEqual(TRICKY);
    for (const chunks of hostileChunkings(text)) {
      const items = scan(chunks);
      expect(items.map((i) => i.index)).toEqual(TRICKY.map((_, index) => index));
      expect(values(items)).toEqual(TRICKY);
    }
  });

  it('yields each element as soon as its closing byte arrives', () => {
    const scanner = new JsonArrayScanner();
    expect(scanner.push(Buffer.from('[{"a":1'))).toEqual([]);
    expect(scanner.push(Buffer.from('},{"b":'))).toEqual([{ index: 0, value: { a: 1 } }]);
    expect(scanner.push(Buffer.from('"]"}'))).toEqual([]);
    expect(scanner.push(Buffer.from(']'))).toEqual([{ index: 1, value: { b: ']' } }]);
    expect(() => scanner.end()).not.toThrow();
  });

  it('reads an empty array, and skips a UTF-8 byte order mark', () => {
    expect(scan(['[ ]'])).toEqual([]);
    expect(scan([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf, 0x5b, 0x31, 0x5d])])).toEqual([
      { index: 0, value: 1 },
    ]);
  });

  it('refuses a top-level value that is not an array', () => {
    for (const doc of ['{"a":1}', '"text"', '42', 'null', 'true']) {
      expect(() => scan([doc]), doc).toThrow(new JsonStreamError('feed must be a JSON array'));
    }
  });

  it.each([
    ['a broken token', '[{"a":1},{"b":tru}]'],
    ['a missing comma', '[{"a":1} {"b":2}]'],
    ['two scalars without a comma', '[1 2]'],
    ['a trailing comma', '[1,2,]'],
    ['an empty element', '[1,,2]'],
    ['a mismatched bracket', '[{"a":[1}]'],
    ['a stray closer', '[1]]'],
    ['text after the array', '[1] x'],
    ['a raw control character in a string', '["a\u0001b"]'],
    ['an invalid escape', '["\\x41"]'],
    ['an unquoted key', '[{a:1}]'],
  ])('fails the whole document on %s', (_, text) => {
    for (const chunks of hostileChunkings(text)) {
      expect(() => scan(chunks)).toThrow(JsonStreamError);
    }
  });

  it('fails a document that stops before its end, or never starts', () => {
    expect(() => scan(['[{"a":1},{"b":'])).toThrow(
      'the feed stops after 14 bytes, before its JSON is complete',
    );
    expect(() => scan(['[1,2'])).toThrow(/before its JSON is complete/);
    expect(() => scan(['["open string'])).toThrow(/before its JSON is complete/);
    expect(() => scan([])).toThrow('the feed is empty');
    expect(() => scan(['  \n'])).toThrow(/before its JSON is complete/);
  });

  it('names the byte where malformed JSON was found', () => {
    expect(() => scan(['[1,', '2]]'])).toThrow('the feed is not valid JSON (unexpected "]" at byte 5)');
  });

  it('rejects an element over the size cap as an item and reads on', () => {
    const big = { name: 'x'.repeat(300), list: ['],[', '\\"'] };
    const text = JSON.stringify([{ a: 1 }, big, { b: 2 }]);
    for (const chunks of [[text], ...hostileChunkings(text).filter((_, i) => i % 17 === 0)]) {
      expect(scan(chunks, { maxItemBytes: 100 })).toEqual([
        { index: 0, value: { a: 1 } },
        { index: 1, error: 'item is larger than 100 bytes' },
        { index: 2, value: { b: 2 } },
      ]);
    }
  });

  it('rejects an element nested deeper than the cap as an item and reads on', () => {
    const deep = `${'['.repeat(70)}1${']'.repeat(70)}`;
    const ok = `${'['.repeat(5)}${']'.repeat(5)}`;
    expect(scan([`[${ok},${deep},{"c":3}]`])).toEqual([
      { index: 0, value: [[[[[]]]]] },
      { index: 1, error: 'item is nested deeper than 64 levels' },
      { index: 2, value: { c: 3 } },
    ]);
    // Exactly 64 levels is fine.
    const at64 = `${'['.repeat(64)}${']'.repeat(64)}`;
    expect(scan([`[${at64}]`])[0]).toMatchObject({ index: 0, value: expect.any(Array) });
  });

  describe('with wrapperKeys (the third-party feed)', () => {
    const wrapperKeys = ['products', 'Products'];

    it('reads the products of { Timestamp, Products } in PascalCase and camelCase, whatever the chunks', () => {
      const items = [{ Identifier: 'A' }, { identifier: 'B', nested: { x: [1, '}'] } }];
      for (const doc of [
        { Timestamp: '2024-05-01T10:00:00Z', Products: items },
        { timestamp: 1714557600, meta: { a: [1, { b: '[' }] }, products: items, after: 'x' },
        { products: items },
      ]) {
        for (const chunks of hostileChunkings(JSON.stringify(doc, null, 1)).filter((_, i) => i % 7 === 0)) {
          expect(values(scan(chunks, { wrapperKeys }))).toEqual(items);
        }
      }
    });

    it('still reads a bare array', () => {
      expect(values(scan(['[{"Identifier":"A"}]'], { wrapperKeys }))).toEqual([{ Identifier: 'A' }]);
    });

    it('refuses an object without a products array, or with two', () => {
      const notFeed = new JsonStreamError('feed must be an array or an object with Products');
      expect(() => scan(['{"Timestamp":"x","Items":[]}'], { wrapperKeys })).toThrow(notFeed);
      expect(() => scan(['{"Products":null}'], { wrapperKeys })).toThrow(notFeed);
      expect(() => scan(['{}'], { wrapperKeys })).toThrow(notFeed);
      expect(() => scan(['"x"'], { wrapperKeys })).toThrow(notFeed);
      expect(() => scan(['{"products":[1],"Products":[2]}'], { wrapperKeys })).toThrow(/products twice/);
    });

    it('fails on malformed JSON in a member it ignores', () => {
      expect(() => scan(['{"Timestamp": 2024-05-01, "Products": []}'], { wrapperKeys })).toThrow(
        JsonStreamError,
      );
      expect(() => scan(['{"Products": [] "x": 1}'], { wrapperKeys })).toThrow(JsonStreamError);
      expect(() => scan(['{"Products": [],}'], { wrapperKeys })).toThrow(JsonStreamError);
    });
  });
});

describe('streamJsonArray()', () => {
  it('reads an async iterable of chunks and passes a source error through', async () => {
    async function* source() {
      yield '[{"a":';
      yield Buffer.from('1},2');
      throw new Error('connection reset');
    }
    const seen: StreamedItem[] = [];
    await expect(
      (async () => {
        for await (const item of streamJsonArray(source())) seen.push(item);
      })(),
    ).rejects.toThrow('connection reset');
    expect(seen).toEqual([{ index: 0, value: { a: 1 } }]);
  });
});
