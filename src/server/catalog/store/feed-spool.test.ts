// @vitest-environment node
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../protocol/catalog';
import { spoolFeed } from './feed-spool';

// Every spool file goes to a folder of this test's own, so "nothing left behind" can be checked exactly.
let folder: string;
let tmpBefore: string | undefined;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'spool-test-'));
  tmpBefore = process.env.TMPDIR;
  process.env.TMPDIR = folder;
});
afterAll(async () => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  await rm(folder, { recursive: true, force: true });
});

const product = (i: number, name = `Product ${i}`): CatalogProduct => ({
  identifier: `p${i}`,
  productData: {
    displayText: name,
    url: `https://shop.example/p/${i}`,
    price: '1.00',
    attributes: { n: String(i) },
  },
});

async function* streamOf(products: CatalogProduct[], end?: () => never) {
  for (const p of products) {
    await Promise.resolve();
    yield p;
  }
  end?.();
}

async function readBack(products: AsyncIterable<CatalogProduct>): Promise<CatalogProduct[]> {
  const all: CatalogProduct[] = [];
  for await (const p of products) all.push(p);
  return all;
}

describe('spoolFeed()', () => {
  it('gives back every product as it was, line breaks of every kind and hostile strings included', async () => {
    const products = [
      product(1, 'new\nline, carriage\rreturn, both\r\n, and U+2028 \u2028 U+2029 \u2029 NEL \u0085'),
      product(2, '<script>alert(1)</script> \\N \t "quoted" 🧪 \u0000'),
      ...Array.from({ length: 3000 }, (_, i) => product(i + 3)),
    ];
    const spooled = await spoolFeed(streamOf(products));
    expect(spooled.count).toBe(3002);
    expect(await readBack(spooled)).toEqual(products);
    // Read twice: the file stays until it is disposed of.
    expect(await readBack(spooled)).toHaveLength(3002);
    await spooled.dispose();
    expect(await readdir(folder)).toEqual([]);
  });

  it('leaves no file behind when the feed breaks off, and passes its error through', async () => {
    const broken = streamOf([product(1), product(2)], () => {
      throw new Error('the feed stops after 123 bytes');
    });
    await expect(spoolFeed(broken)).rejects.toThrow('the feed stops after 123 bytes');
    expect(await readdir(folder)).toEqual([]);
  });

  it('removes the file when disposed of unread, and an empty feed is an empty spool', async () => {
    const unread = await spoolFeed(streamOf([product(1)]));
    await unread.dispose();
    const empty = await spoolFeed(streamOf([]));
    expect([empty.count, await readBack(empty)]).toEqual([0, []]);
    await empty.dispose();
    expect(await readdir(folder)).toEqual([]);
  });
});
