import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

// Test helpers for /sdk/: a built-like dist/ folder and a request sent byte for byte as written (fetch would
// normalise `..`, `\` and `//` before they reach the service). Not part of the service.

export const LOADER = '/* loader */ console.log("loader");';
export const WIDGET = `/* widget */ import "./chunks/mount-BXb58IcT.js"; ${'export const x = "widget";\n'.repeat(50)}`;
export const CHUNK = `/* chunk */ ${'export const y = "chunk";\n'.repeat(50)}`;
export const SERVER_BUNDLE = '/* the service itself */ process.env.SECRET;';

/** A dist/ as `npm run build` leaves it: browser files with their `.br` and `.gz`, and the server bundle beside. */
export function makeTestDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'sdk-dist-'));
  const put = (rel: string, text: string, precompress = false) => {
    const path = join(dist, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    if (precompress) {
      writeFileSync(`${path}.br`, brotliCompressSync(text));
      writeFileSync(`${path}.gz`, gzipSync(text));
    }
  };
  put('loader.js', LOADER, true);
  put('widget.js', WIDGET, true);
  put('chunks/mount-BXb58IcT.js', CHUNK, true);
  put('index.js', 'export * from "./chunks/mount-BXb58IcT.js";');
  put('server/cli.js', SERVER_BUNDLE);
  put('server/chunks/app-Ab12Cd34.js', SERVER_BUNDLE);
  put('console/assets/console.js', '/* console */');
  put('notes.txt', 'not a script');
  return dist;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GET `path` exactly as written (no normalisation, no decoding) from `baseUrl`. */
export function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((ok, fail) => {
    const req = http.request({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}
