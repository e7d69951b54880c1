import { err, ok, type Result } from '../../protocol/result';
import { guardedFetch } from '../platform/net/guarded-fetch';
import type { KnowledgeSection } from './knowledge-index';
import { documentTitleOf, splitMarkdown } from './markdown-sections';

// One `knowledgeUrls` document, fetched as feeds are (DESIGN "Store knowledge"): through the SSRF guard (loopback only
// with `allowHttpLoopback`), with a deadline and a byte cap, and only when it says it is markdown or plain text.

/** A knowledge document larger than this is refused whole: 500 sections of 20,000 characters are about 10 MB. */
export const KNOWLEDGE_DOCUMENT_MAX_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
/** `text/plain` too: a markdown file served by a plain web server often is. */
const MEDIA_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain']);

export interface KnowledgeFetchOptions {
  allowHttpLoopback: boolean;
  /** Default {@link KNOWLEDGE_DOCUMENT_MAX_BYTES}. */
  maxBytes?: number;
  /** One deadline for the request and the whole body; default 30 s. */
  timeoutMs?: number;
  /** An extra trusted CA (PEM), for tests with a self-signed server. */
  ca?: string;
  /** Ends the fetch early (the service stopping). */
  signal?: AbortSignal;
}

/** A fetched document: its sections, in order, and its text (to tell an unchanged document on the next refresh). */
export interface KnowledgeDocument {
  sections: KnowledgeSection[];
  body: string;
}

/**
 * Fetches a markdown document and splits it into sections at its headings (markdown-sections.ts), each clipped to
 * the config's 20,000 characters. Never throws: every failure is an error value that names what was wrong, for the
 * log.
 *
 * @example
 * const doc = await fetchKnowledgeDocument('https://shop.example/help.md', { allowHttpLoopback: false });
 * if (doc.ok) doc.value.sections.map((s) => s.title); // → ['Shipping', 'Returns', …]
 * else doc.error; // → 'the document is text/html, not markdown or plain text'
 */
export async function fetchKnowledgeDocument(
  url: string,
  options: KnowledgeFetchOptions,
): Promise<Result<KnowledgeDocument, string>> {
  const maxBytes = options.maxBytes ?? KNOWLEDGE_DOCUMENT_MAX_BYTES;
  const response = await guardedFetch(url, {
    method: 'GET',
    headers: { accept: 'text/markdown, text/plain;q=0.9' },
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
    maxBytes,
    allowHttpLoopback: options.allowHttpLoopback,
    ca: options.ca,
    signal: options.signal,
  });
  if (!response.ok) return err(`${response.error.code}: ${response.error.message}`);
  const { status, headers, body, truncated } = response.value;
  if (status < 200 || status > 299) return err(`the document answered HTTP ${status}`);
  // Half a document would silently lose its last sections: refused whole, the last good copy stays.
  if (truncated) return err(`the document is larger than ${maxBytes} bytes`);
  const contentType = headers['content-type'];
  if (!contentType) return err('the document has no content type (serve it as text/markdown or text/plain)');
  const [mediaType, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (!MEDIA_TYPES.has(mediaType)) {
    return err(
      `the document is ${mediaType || 'of no type'}, not markdown or plain text (text/markdown or text/plain)`,
    );
  }
  // The body is read as UTF-8; another charset would turn every "ü" into nonsense the shopper then reads.
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
    return err(`the document's charset is ${charset}; serve it as UTF-8`);
  }
  const sections = splitMarkdown(body, documentTitleOf(url)).map((section) => ({
    title: section.title,
    text: section.text,
    source: url,
    ...(section.context ? { context: section.context } : {}),
  }));
  return ok({ sections, body });
}
