import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { parseAccept } from 'hono/utils/accept';
import { errorResponse } from './error-response';

/** The encodings the build writes beside each file (`scripts/build.mjs`), in the order preferred on a tie of `q`. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'] | 'identity';

/** A content hash in the name (`chunks/mount-BXb58I.js`, six characters: vite.config.ts): the bytes behind that name never change. */
const HASHED_NAME = /^chunks\/[A-Za-z0-9_.-]+-[A-Za-z0-9_-]{6,}\.(js|css)$/;

interface SdkFile {
  immutable: boolean;
  /** A strong ETag for each form the build wrote: each is a different representation of the file. */
  etags: Partial<Record<Encoding, string>>;
}

/**
 * What `/sdk/` serves: the loader, the widget and its chunks, as built into `distDir` (the agents' inbox has its own
 * route; the npm entry, the schemas and the server bundle are never served). Listed once, at start: a request can
 * only name one of these, never a path of its own.
 */
export function sdkFileList(distDir: string): Map<string, SdkFile> {
  const chunksDir = join(distDir, 'chunks');
  const chunks = existsSync(chunksDir) ? readdirSync(chunksDir).filter((f) => /\.(js|css)$/.test(f)) : [];
  const list = new Map<string, SdkFile>();
  for (const rel of ['loader.js', 'widget.js', ...chunks.map((f) => `chunks/${f}`)]) {
    const path = join(distDir, rel);
    if (!existsSync(path)) continue;
    const etags: SdkFile['etags'] = { identity: etagOf(path) };
    for (const e of ENCODINGS) if (existsSync(path + e.suffix)) etags[e.name] = etagOf(path + e.suffix);
    list.set(rel, { immutable: HASHED_NAME.test(rel), etags });
  }
  return list;
}

function etagOf(path: string): string {
  return `"${createHash('sha256').update(readFileSync(path)).digest('base64url').slice(0, 27)}"`;
}

/**
 * The best encoding the client takes and the build wrote: the highest `q` wins (`q=0` refuses), brotli on a tie.
 * Hono's `serveStatic` matches `Accept-Encoding` tokens without their `q`, so it is handed the choice made here.
 */
function chooseEncoding(acceptEncoding: string | undefined, available: SdkFile['etags']): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = parseAccept(acceptEncoding);
  const q = (name: string) =>
    accepted.find((a) => a.type.toLowerCase() === name)?.q ?? accepted.find((a) => a.type === '*')?.q ?? 0;
  let best: { name: Encoding; q: number } = { name: 'identity', q: 0 };
  for (const e of ENCODINGS) {
    const qe = q(e.name);
    if (available[e.name] && qe > best.q) best = { name: e.name, q: qe };
  }
  return best.name;
}

/**
 * Serves the built browser files under `/sdk/`, from the list `sdkFileList` makes at start, with Hono's
 * `serveStatic` (`precompressed`) for the file itself and its `etag` middleware for `If-None-Match` → `304`.
 * They are public and loaded from merchants' pages on other origins; module scripts are fetched in CORS mode, so
 * they carry `Access-Control-Allow-Origin: *`. Content-hashed chunks are cached for a year (`immutable`); the stable
 * names (`loader.js`, `widget.js`) are revalidated on each use (`no-cache`), which costs a `304` and no body.
 */
export function sdkRoutes(distDir: string): Hono {
  const files = sdkFileList(distDir);
  // serveStatic behind a fixed name from the list (it joins `root` and the path it is given) and one encoding.
  const inner = new Hono();
  inner.on(['GET', 'HEAD'], '*', serveStatic({ root: distDir, precompressed: true }));
  const app = new Hono();
  app.use(etag());
  app.on(['GET', 'HEAD'], '/*', async (c) => {
    // The raw path as sent, not decoded: `%2F`, `%2e%2e`, `\` or `//` name nothing in the list.
    const rel = new URL(c.req.url).pathname.replace(/^\/sdk\//, '');
    const entry = files.get(rel);
    if (!entry) return errorResponse(c, 404, 'not_found', 'No such file.');
    const encoding = chooseEncoding(c.req.header('accept-encoding'), entry.etags);
    const headers = new Headers({ 'accept-encoding': encoding });
    const range = c.req.header('range');
    if (range) headers.set('range', range);
    const res = await inner.request(`/${rel}`, { method: c.req.method, headers });
    if (res.status === 404) return errorResponse(c, 404, 'not_found', 'No such file.');
    const out = new Response(res.body, res);
    out.headers.set('etag', entry.etags[encoding] ?? '');
    out.headers.set('vary', 'Accept-Encoding');
    out.headers.set('access-control-allow-origin', '*');
    out.headers.set('cross-origin-resource-policy', 'cross-origin');
    out.headers.set('x-content-type-options', 'nosniff');
    out.headers.set(
      'cache-control',
      entry.immutable ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    );
    return out;
  });
  return app;
}
