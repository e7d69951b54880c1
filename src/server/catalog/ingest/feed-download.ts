import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { GuardedStreamError, guardedStream } from '../../platform/net/guarded-fetch';

/** How one feed is fetched: its url and optional token (SPEC: the whole `Authorization` header value). */
export interface FeedRequest {
  url: string;
  token?: string;
}

export interface FeedDownloadOptions {
  allowHttpLoopback: boolean;
  /** A body larger than this fails the download (nothing of it is used). */
  maxBytes: number;
  /** One deadline for the request and the whole body. */
  timeoutMs: number;
  ca?: string;
}

/** The body is in `file`, whole; or why the feed cannot be used at all (the text a feed report shows). */
export type FeedDownload = { ok: true } | { ok: false; error: string };

/**
 * Downloads a feed's body, as it comes (never decompressed, never parsed), to `file`, through the SSRF guard with
 * its byte cap and deadline. Nothing is done with the body until it is complete: the refresh parses it from the
 * file afterwards, inside its transaction, so a slow or stalled feed server holds no database connection and no lock,
 * and the parsing overlaps the database's writes instead of running before them (issue #5: a 100,000-product feed
 * spent a third of its time being parsed while the database waited). A failed download leaves a partial file, which
 * the caller removes with its folder.
 *
 * @example
 * const got = await downloadFeed({ url, token }, join(dir, '0.json'), { allowHttpLoopback: false, maxBytes, timeoutMs });
 * if (!got.ok) report.error = got.error;
 */
export async function downloadFeed(
  feed: FeedRequest,
  file: string,
  { allowHttpLoopback, maxBytes, timeoutMs, ca }: FeedDownloadOptions,
): Promise<FeedDownload> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // SPEC: the token is the whole header value, no scheme in front of it.
  if (feed.token) headers.authorization = feed.token;
  const response = await guardedStream(feed.url, {
    method: 'GET',
    headers,
    timeoutMs,
    maxBytes,
    allowHttpLoopback,
    ca,
  });
  if (!response.ok) {
    return response.error.code === 'too_large'
      ? { ok: false, error: tooLarge(maxBytes) }
      : { ok: false, error: `${response.error.code}: ${response.error.message}` };
  }
  const { status, body } = response.value;
  if (status < 200 || status > 299) {
    body.destroy();
    return { ok: false, error: `the feed answered HTTP ${status}` };
  }
  try {
    await pipeline(body, createWriteStream(file));
  } catch (error) {
    body.destroy();
    if (error instanceof GuardedStreamError) {
      return error.code === 'too_large'
        ? { ok: false, error: tooLarge(maxBytes) }
        : { ok: false, error: `${error.code}: ${error.message}` };
    }
    return { ok: false, error: `the feed could not be stored (${String(error)})` };
  }
  return { ok: true };
}

const tooLarge = (maxBytes: number) => `the feed is larger than ${maxBytes} bytes`;
