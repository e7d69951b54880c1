/**
 * A small markdown parser for chat replies: text → a tree that `markdown.tsx` turns into Preact elements. Raw HTML is
 * never interpreted (it stays text: the tree has no HTML node), images become links, and hrefs are left raw here:
 * the renderer checks them (`safe-link.ts`).
 *
 * It runs on every streamed delta of a reply, so it must be cheap, total (any prefix of a reply parses, an unclosed
 * `**` is literal text) and linear: no backtracking regex over the text, every delimiter pushed and popped at most
 * once, nesting capped.
 */

export type MdInline =
  | string
  | { type: 'strong' | 'em'; children: MdInline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: MdInline[] }
  | { type: 'br' };

export interface MdItem {
  children: MdInline[];
  list?: MdList;
}

export interface MdList {
  type: 'ul' | 'ol';
  /** The first number of an ordered list. */
  start: number;
  items: MdItem[];
}

export type MdBlock = { type: 'p'; children: MdInline[] } | { type: 'h'; children: MdInline[] } | MdList;

// Open emphasis and link frames; deeper openers are literal text, which bounds both the work and the tree's depth.
const MAX_DEPTH = 8;
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const SPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;
const AUTOLINK = /https?:\/\/[^\s<>]+/y;
// A run of characters that mean nothing here, taken in one step.
const PLAIN = /[^\\\n`*_[\]!h]+/y;
// One line: only the short prefix is matched, never the rest of the line.
const LIST_ITEM = /^( *)(?:[-*+]|(\d{1,9})[.)]) +/;
const HEADING = /^#{1,6} +/;

interface Frame {
  /** The delimiter as written (`**`, `_`, `[`, `![`), put back as text when the frame never closes. */
  d: string;
  /** What a closer matches: the delimiter, `[` for both link openers, `` for a link opener that can no longer close. */
  k: string;
  c: MdInline[];
}

function append(list: MdInline[], node: MdInline): void {
  const last = list.length - 1;
  if (typeof node === 'string' && typeof list[last] === 'string') list[last] += node;
  else if (node !== '') list.push(node);
}

/** Inline markdown of one paragraph or list item; `\n` is a hard line break. */
export function parseInline(s: string): MdInline[] {
  const root: Frame = { d: '', k: '', c: [] };
  const stack = [root];
  const open: Record<string, number> = {};
  let text = '';
  // Where the last search for a link's `)` stopped: a later search starting before it stops there too.
  let urlEnd = -1;

  const top = () => stack[stack.length - 1]!;
  const flush = () => {
    append(top().c, text);
    text = '';
  };
  const push = (d: string, k: string) => {
    flush();
    stack.push({ d, k, c: [] });
    open[k] = (open[k] ?? 0) + 1;
  };
  // Pops frames down to the nearest one `accept`s (callers know one exists), unclosed ones back to text.
  const popTo = (accept: (f: Frame) => boolean): Frame => {
    flush();
    for (;;) {
      const f = stack.pop()!;
      open[f.k]!--;
      if (accept(f)) return f;
      append(top().c, f.d);
      for (const n of f.c) append(top().c, n);
    }
  };

  for (let i = 0; i < s.length; ) {
    PLAIN.lastIndex = i;
    const plain = PLAIN.exec(s);
    if (plain) {
      text += plain[0];
      i = PLAIN.lastIndex;
      continue;
    }
    const ch = s[i]!;
    const prev = s[i - 1] ?? ' ';
    if (ch === '\\' && PUNCTUATION.includes(s[i + 1] ?? 'a')) {
      text += s[i + 1];
      i += 2;
    } else if (ch === '\n') {
      flush();
      top().c.push({ type: 'br' });
      i++;
    } else if (ch === '`') {
      let r = 1;
      while (s[i + r] === '`') r++;
      // The closer is the next run of exactly r backticks; runs longer than 3 are never code (bounds the search).
      let end = r > 3 ? -1 : s.indexOf('`', i + r);
      while (end >= 0) {
        let e = 1;
        while (s[end + e] === '`') e++;
        if (e === r) break;
        end = s.indexOf('`', end + e);
      }
      if (end < 0) text += s.slice(i, i + r);
      else {
        flush();
        top().c.push({ type: 'code', text: s.slice(i + r, end) });
      }
      i = end < 0 ? i + r : end + r;
    } else if (ch === '*' || ch === '_') {
      let r = 1;
      while (s[i + r] === ch) r++;
      const next = s[i + r] ?? ' ';
      // Flanking, simplified: an opener is followed by a non-space, a closer preceded by one; `_` never inside words.
      const canOpen = !SPACE.test(next) && !(ch === '_' && WORD.test(prev));
      const canClose = !SPACE.test(prev) && !(ch === '_' && WORD.test(next));
      let n = r;
      while (canClose && n > 0 && (open[ch] || (n > 1 && open[ch + ch]))) {
        const f = popTo((f) => f.k === ch || (n > 1 && f.k === ch + ch));
        append(top().c, { type: f.k.length > 1 ? 'strong' : 'em', children: f.c });
        n -= f.k.length;
      }
      for (; canOpen && n > 0 && stack.length < MAX_DEPTH; n -= n > 1 ? 2 : 1) {
        const d = n > 1 ? ch + ch : ch;
        push(d, d);
      }
      text += ch.repeat(n);
      i += r;
    } else if ((ch === '[' || (ch === '!' && s[i + 1] === '[')) && stack.length < MAX_DEPTH) {
      const d = ch === '[' ? '[' : '![';
      push(d, '[');
      i += d.length;
    } else if (ch === ']' && open['['] && s[i + 1] === '(') {
      // The destination ends at the first `)` or line break; an optional title after a space is dropped.
      let end = urlEnd;
      if (end <= i) {
        for (end = i + 2; end < s.length && s[end] !== ')' && s[end] !== '\n'; ) end++;
        urlEnd = end;
      }
      if (s[end] === ')') {
        const f = popTo((f) => f.k === '[');
        append(top().c, {
          type: 'link',
          href: s
            .slice(i + 2, end)
            .trim()
            .split(SPACE)[0]!,
          children: f.c,
        });
        // No links inside links: the openers still waiting become text.
        for (const g of stack) if (g.k === '[') g.k = '';
        open['['] = 0;
        i = end + 1;
      } else {
        text += ch;
        i++;
      }
    } else {
      AUTOLINK.lastIndex = i;
      const m = ch === 'h' && !open['['] && !WORD.test(prev) ? AUTOLINK.exec(s) : null;
      if (m) {
        // Trailing punctuation belongs to the sentence, not the URL (an index loop: no regex over the match).
        let e = m[0].length;
        while (e > 8 && '.,;:!?\'")*_]'.includes(m[0][e - 1]!)) e--;
        const href = m[0].slice(0, e);
        flush();
        top().c.push({ type: 'link', href, children: [href] });
        i += e;
      } else {
        text += ch;
        i++;
      }
    }
  }
  flush();
  return popTo((f) => f === root).c;
}

/**
 * Markdown → blocks: paragraphs (a single newline is a line break, a blank line a new paragraph), `#` headings (shown
 * as a strong line), `-`/`*`/`+` and `1.`/`1)` lists with one level of nesting (indented by 2 spaces or more).
 *
 * @example
 * parseMarkdown('Hi **there**\n- one');
 * // → [{ type: 'p', children: ['Hi ', { type: 'strong', children: ['there'] }] },
 * //    { type: 'ul', start: 1, items: [{ children: ['one'] }] }]
 */
export function parseMarkdown(src: string): MdBlock[] {
  const blocks: MdBlock[] = [];
  let list: MdList | undefined;
  let indent = 0;
  // The paragraph or item whose lines are still being collected.
  let target: { children: MdInline[] } | undefined;
  let lines: string[] = [];
  const start = (t?: { children: MdInline[] }, first?: string) => {
    if (target) target.children = parseInline(lines.join('\n'));
    target = t;
    lines = first === undefined ? [] : [first];
  };

  for (const raw of src.split('\n')) {
    const line = raw.trim();
    const item = LIST_ITEM.exec(raw);
    const heading = HEADING.exec(line);
    if (!line) {
      start();
      list = undefined;
    } else if (item) {
      const type = item[2] ? 'ol' : 'ul';
      const next: MdItem = { children: [] };
      const parent = list && item[1]!.length >= indent + 2 ? list.items[list.items.length - 1] : undefined;
      const into = parent ? parent.list : list;
      // A nested item joins the sub-list whatever its marker: one level only.
      if (into && (parent || into.type === type)) into.items.push(next);
      else {
        const created: MdList = { type, start: Number(item[2] ?? 1), items: [next] };
        if (parent) parent.list = created;
        else {
          blocks.push(created);
          list = created;
          indent = item[1]!.length;
        }
      }
      start(next, raw.slice(item[0].length).trim());
    } else if (heading) {
      const h: MdBlock = { type: 'h', children: [] };
      blocks.push(h);
      start(h, line.slice(heading[0].length));
      start();
      list = undefined;
    } else if (target && (!list || raw[0] === ' ')) {
      // A paragraph's next line, or an indented line continuing a list item.
      lines.push(line);
    } else {
      const p: MdBlock = { type: 'p', children: [] };
      blocks.push(p);
      list = undefined;
      start(p, line);
    }
  }
  start();
  return blocks;
}
