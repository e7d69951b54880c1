import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CatalogProduct } from '../../../protocol/catalog';

/** A feed's products on disk, read back one at a time; `dispose` removes the file, read or not. */
export interface SpooledFeed extends AsyncIterable<CatalogProduct> {
  readonly count: number;
  dispose(): Promise<void>;
}

/**
 * Writes a feed's products to a temporary file as they are downloaded and normalized, one JSON line each, and
 * gives them back one at a time. The store opens its transaction (and takes the widget's lock) only once the whole
 * feed is in: a slow or stalled feed server then holds no connection and no lock, so pushes to the widget go on
 * meanwhile, and a feed of 100,000 products never sits in memory (DESIGN: feeds are streamed). A source that throws
 * (a feed that breaks off) leaves no file behind and its error passes through.
 *
 * @example
 * const spooled = await spoolFeed(products);
 * try { for await (const product of spooled) write(product); } finally { await spooled.dispose(); }
 */
export async function spoolFeed(products: AsyncIterable<CatalogProduct>): Promise<SpooledFeed> {
  const dir = await mkdtemp(join(tmpdir(), 'service-feed-'));
  const file = join(dir, 'products.jsonl');
  const dispose = () => rm(dir, { recursive: true, force: true });
  let count = 0;
  try {
    const out = createWriteStream(file);
    const failed = once(out, 'error').then(([error]) => Promise.reject(error));
    failed.catch(() => {});
    try {
      for await (const product of products) {
        // JSON text has no raw line breaks (they are escaped in strings), so one product is exactly one line.
        if (!out.write(`${JSON.stringify(product)}\n`)) await Promise.race([once(out, 'drain'), failed]);
        count++;
      }
    } finally {
      out.end();
    }
    await Promise.race([once(out, 'finish'), failed]);
  } catch (error) {
    await dispose();
    throw error;
  }
  return {
    count,
    dispose,
    async *[Symbol.asyncIterator]() {
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
      try {
        for await (const line of lines) if (line) yield JSON.parse(line) as CatalogProduct;
      } finally {
        lines.close();
      }
    },
  };
}
