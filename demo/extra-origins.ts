import { err, ok, type Result } from '../src/protocol/result';

/**
 * `EXTRA_ORIGINS` for `npm start` (issue 36): comma-separated origins added to every demo widget's `allowedOrigins`,
 * so a storefront on another origin (Next on :3000, Vite on :5174) can try the demo's service. Each must be an origin
 * as the service config wants it (scheme, host, port; no path, no trailing slash); an empty value adds none.
 */
export function parseExtraOrigins(value: string | undefined): Result<string[]> {
  const origins = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {}
    if (parsed !== origin || !/^https?:/.test(origin))
      return err(
        `EXTRA_ORIGINS: ${JSON.stringify(origin)} is not an origin like http://localhost:3000 (scheme, host and port only, no trailing slash)`,
      );
  }
  return ok(origins);
}
