// `npm run bench`, bytes on the wire: what the running service sends for the widget's files to a browser that takes
// brotli, against the size script's brotli figure for the same files (scripts/size.mjs, whose compression this
// imports). Compared file by file, so the check holds whatever way the size script groups the files. Prints both and
// exits 1 when any file differs (the service sending uncompressed, or other bytes than the budgets count).

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { relative, resolve } from 'node:path';
import { compressBrotli } from './size.mjs';
import { widgetFiles } from './widget-files.mjs';

const dist = resolve(import.meta.dirname, '../dist');
const { parseConfig, startService } = await import(resolve(dist, 'server/bench-service-entry.js'));

const config = parseConfig({
  adminKey: 'bench-admin-key-not-secret',
  widgets: [{ id: 'demo', allowedOrigins: ['*'] }],
});
if (!config.ok) throw new Error(config.error);
const service = await startService({ config: config.value, port: 0, distDir: dist });

/** Body bytes as received (node:http does not decode; fetch would). */
const wireBytes = (path) =>
  new Promise((ok, fail) => {
    const req = http.get(`${service.url}${path}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
      let n = 0;
      res.on('data', (chunk) => {
        n += chunk.length;
      });
      res.on('end', () =>
        ok({ status: res.statusCode, encoding: res.headers['content-encoding'] ?? 'none', n }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
  });

// The loader and everything the widget can load (lazy parts and languages included), whatever the size script's groups.
const { everything, languages } = widgetFiles(dist).script;
const files = [resolve(dist, 'loader.js'), ...everything, ...Object.values(languages)];
let failed = false;
let wireTotal = 0;
let sizeTotal = 0;
console.log('wire: /sdk/ bytes with Accept-Encoding: br, against the size script (brotli q11)');
try {
  for (const file of files) {
    const rel = relative(dist, file);
    const wire = await wireBytes(`/sdk/${rel}`);
    const expected = compressBrotli(readFileSync(file)).length;
    const match = wire.status === 200 && wire.encoding === 'br' && wire.n === expected;
    failed ||= !match;
    wireTotal += wire.n;
    sizeTotal += expected;
    console.log(
      `  ${rel.padEnd(36)} wire ${String(wire.n).padStart(6)} (${wire.status}, ${wire.encoding})  size ${String(expected).padStart(6)}  ${match ? 'match' : 'DIFFER'}`,
    );
  }
  console.log(
    `  ${'total'.padEnd(36)} wire ${String(wireTotal).padStart(6)}${' '.repeat(12)}  size ${String(sizeTotal).padStart(6)}  ${failed ? 'DIFFER' : 'match'}`,
  );
} finally {
  await service.close();
}
process.exit(failed ? 1 : 0);
