import type { ComponentChildren } from 'preact';
import { type MdBlock, type MdInline, type MdList, parseMarkdown } from '../cards/markdown-parse';
import { safeHref } from '../cards/safe-link';

// Issue 34: a text part as the shopper saw it (DESIGN "The support team's day": "the transcript renders markdown as
// the widget does"). The widget's parser (src/cards/markdown-parse.ts, shared), never HTML: raw HTML stays text, and a
// link whose URL is not http(s), mailto or tel stays text (the same `safeHref`). Links open in a new tab: the console
// is a working page an agent should not lose.

function inline(nodes: MdInline[]): ComponentChildren[] {
  return nodes.map((n) => {
    if (typeof n === 'string') return n;
    if (n.type === 'br') return <br />;
    if (n.type === 'code') return <code>{n.text}</code>;
    if (n.type === 'link') {
      const href = safeHref(n.href);
      const children = n.children.length ? inline(n.children) : n.href;
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      ) : (
        children
      );
    }
    return n.type === 'em' ? <em>{inline(n.children)}</em> : <strong>{inline(n.children)}</strong>;
  });
}

function list(l: MdList) {
  const L = l.type;
  return (
    <L start={l.start === 1 ? undefined : l.start}>
      {l.items.map((item, i) => (
        <li key={i}>
          {inline(item.children)}
          {item.list && list(item.list)}
        </li>
      ))}
    </L>
  );
}

const block = (b: MdBlock) =>
  b.type === 'p' ? (
    <p>{inline(b.children)}</p>
  ) : b.type === 'h' ? (
    <p>
      <strong>{inline(b.children)}</strong>
    </p>
  ) : (
    list(b)
  );

/**
 * @example
 * <MarkdownText text="See **[our returns](https://shop.example/returns)**" />
 */
export function MarkdownText({ text }: { text: string }) {
  return <div class="text md">{parseMarkdown(text).map(block)}</div>;
}
