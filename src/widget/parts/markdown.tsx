import { type MdBlock, type MdInline, type MdList, parseMarkdown } from '../../cards/markdown-parse';
import { Pure } from '../pure';
import { Link, type LinkOptions } from './link';
import css from './markdown.css?inline';
import type { PartProps } from './part-props';

/** The stylesheet of text parts, adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

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
 * One stretch of a reply between blank lines. A blank line ends every paragraph and list, so each stretch parses on
 * its own to the same blocks as in the whole text; memoized on its source, a streaming reply parses and diffs only its
 * last stretch per delta, however long it has grown, and a finished one never again.
 */
class Stretch extends Pure<MarkdownProps> {
  override render({ text, ...link }: MarkdownProps) {
    return parseMarkdown(text).map((b) => block(b, link));
  }
}

/**
 * A text part: markdown → Preact elements, never HTML strings. Only the stretches that changed are parsed again
 * (a streaming reply grows at its end), so re-rendering a long conversation or a long answer costs little parsing.
 *
 * @example
 * <Markdown text="See **[our returns](https://shop.example/returns)**" linkTarget="_blank" onLinkClick={report} />
 */
export function Markdown({ text, ...link }: MarkdownProps) {
  return (
    <div class="md">
      {text.split('\n\n').map((stretch) => (
        <Stretch text={stretch} {...link} />
      ))}
    </div>
  );
}

/** The `text` part (part-view.tsx). */
export const TextPart = ({ part, strings, ...link }: PartProps<'text'>) => (
  <Markdown text={part.text} {...link} />
);
