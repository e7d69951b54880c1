import { KNOWLEDGE_SECTION_CHARS_MAX } from '../config/service-config';

// A `knowledgeUrls` document becomes sections at its headings (DESIGN "Store knowledge"): a store's help page is
// written as "## Shipping … ## Returns …", and the assistant answers with one section, not the whole page.

/** A section of a markdown document: its heading, its markdown, and the headings it sits under. */
export interface MarkdownSection {
  title: string;
  text: string;
  /** The enclosing headings ("Shipping" for `### Austria` under `## Shipping`), joined by " › "; empty at the top. */
  context: string;
}

/** The widget config's limit on a section title, kept for titles taken from a document's headings. */
export const SECTION_TITLE_MAX = 200;

/** `#` to `###` start a section; `####` and deeper stay inside it (a store's sub-points, not topics of their own). */
const HEADING = /^ {0,3}(#{1,3})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits a markdown document into sections at its ATX headings `#`..`###`. The heading is the section's title; the
 * text before the first heading is a section titled `documentTitle`; sections with no text are dropped; a `#` inside a
 * fenced code block is not a heading. Each text is clipped to `maxChars` (the config's 20,000 by default), each title
 * to 200 characters.
 *
 * @example
 * splitMarkdown('Welcome.\n\n## Shipping\nWithin 2 days.\n## Returns\n30 days.', 'help');
 * // → [{ title: 'help', text: 'Welcome.', context: '' },
 * //    { title: 'Shipping', text: 'Within 2 days.', context: '' },
 * //    { title: 'Returns', text: '30 days.', context: '' }]
 */
export function splitMarkdown(
  markdown: string,
  documentTitle: string,
  maxChars = KNOWLEDGE_SECTION_CHARS_MAX,
): MarkdownSection[] {
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const sections: MarkdownSection[] = [];
  /** The open headings by level (index 0: `#`), for the context of deeper ones. */
  const open: (string | undefined)[] = [];
  let title = documentTitle;
  let context = '';
  let body: string[] = [];
  let fence: { char: string; length: number } | null = null;
  const flush = () => {
    const text = body.join('\n').trim();
    if (text) sections.push({ title: clip(title, SECTION_TITLE_MAX), text: clip(text, maxChars), context });
    body = [];
  };
  for (const line of lines) {
    if (fence) {
      const close = FENCE_OPEN.exec(line);
      if (
        close &&
        close[1][0] === fence.char &&
        close[1].length >= fence.length &&
        /^[`~]+\s*$/.test(line.trim())
      )
        fence = null;
      body.push(line);
      continue;
    }
    const opening = FENCE_OPEN.exec(line);
    // A backtick fence's info string may not hold a backtick (CommonMark 4.5); such a line is inline code instead.
    if (
      opening &&
      !(opening[1][0] === '`' && line.slice(line.indexOf('`') + opening[1].length).includes('`'))
    ) {
      fence = { char: opening[1][0], length: opening[1].length };
      body.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (!heading) {
      body.push(line);
      continue;
    }
    flush();
    const level = heading[1].length;
    // The optional closing sequence: `## Shipping ##` is titled "Shipping" (CommonMark 4.2).
    const name = (heading[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
    title = name || documentTitle;
    open.length = level - 1;
    context = open.filter((h): h is string => Boolean(h)).join(' › ');
    open[level - 1] = name || undefined;
  }
  flush();
  return sections;
}

/**
 * A text cut to at most `max` characters: at the last line break or space of its final 200 characters when there is
 * one, never inside a surrogate pair, and ending in "…" so that a reader sees it goes on.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const space = Math.max(text.lastIndexOf('\n', end), text.lastIndexOf(' ', end));
  if (space > end - 200 && space > 0) end = space;
  // A high surrogate at the cut would leave half a character.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * The title of a document's text before its first heading: its file name without the extension, words spaced
 * ("shipping-and-returns.md" → "shipping and returns"), or its host when the path names no file.
 */
export function documentTitleOf(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
  let name = '';
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  name = name
    .replace(/\.[A-Za-z0-9]{1,10}$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return clip(name || parsed.hostname, SECTION_TITLE_MAX);
}
