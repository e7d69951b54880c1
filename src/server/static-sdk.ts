import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Hono } from 'hono';
import { errorResponse } from './error-response';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Serves the built browser files (`dist/loader.js`, `dist/widget.js`, `dist/chunks/*`) under `/sdk/`.
 * They are public and loaded from merchants' pages on other origins; module scripts are fetched in CORS mode, so
 * they carry `Access-Control-Allow-Origin: *`. Chunks have content hashes and are immutable; the entry files are not.
 */
export function sdkRoutes(distDir: string): Hono {
  const root = resolve(distDir);
  const app = new Hono();
  app.get('/*', async (c) => {
    const rel = decodeURIComponent(c.req.path.replace(/^\/sdk\//, ''));
    const type = TYPES[extname(rel)];
    const file = resolve(root, rel);
    // Only files of known types inside dist/, never the server bundle or anything reached with `..`.
    if (!type || !file.startsWith(root + sep) || rel.startsWith('server/') || rel.includes('\0')) {
      return errorResponse(c, 404, 'not_found', 'No such file.');
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return errorResponse(c, 404, 'not_found', 'No such file.');
    }
    const immutable = rel.startsWith('chunks/');
    return c.body(new Uint8Array(body), 200, {
      'content-type': type,
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    });
  });
  return app;
}
