import { useMemo } from 'preact/hooks';
import { Link, type LinkOptions } from './link';
import { type MdBlock, type MdInline, type MdList, parseMarkdown } from './markdown-parse';

export interface MarkdownProps extends LinkOptions {
  text: string;
}

function inline(nodes: MdInline[], link: LinkOptions) {
  return nodes.map((n) =>
    typeof n === 'string' ? (
      n
    ) : n.type === 'br' ? (
      <br />
    ) : n.type === 'code' ? (
      <code>{n.text}</code>
    ) : n.type === 'link' ? (
      <Link {...link} href={n.href}>
        {n.children.length ? inline(n.children, link) : n.href}
      </Link>
    ) : n.type === 'em' ? (
      <em>{inline(n.children, link)}</em>
    ) : (
      <strong>{inline(n.children, link)}</strong>
    ),
  );
}

function list(l: MdList, link: LinkOptions) {
  const L = l.type;
  return (
    <L start={l.start === 1 ? undefined : l.start}>
      {l.items.map((item) => (
        <li>
          {inline(item.children, link)}
          {item.list && list(item.list, link)}
        </li>
      ))}
    </L>
  );
}

function block(b: MdBlock, link: LinkOptions) {
  return b.type === 'p' ? (
    <p>{inline(b.children, link)}</p>
  ) : b.type === 'h' ? (
    <p>
      <strong>{inline(b.children, link)}</strong>
    </p>
  ) : (
    list(b, link)
  );
}

/**
 * A text part: markdown → Preact elements, never HTML strings. Parsed again only when `text` changes (a streaming
 * reply), so re-rendering a long conversation costs no parsing.
 *
 * @example
 * <Markdown text="See **[our returns](https://shop.example/returns)**" linkTarget="_blank" onLinkClick={report} />
 */
export function Markdown({ text, linkTarget, onLinkClick }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  const link = { linkTarget, onLinkClick };
  return <div class="md">{blocks.map((b) => block(b, link))}</div>;
}
