import type { ComponentChildren } from 'preact';
import { safeHref } from '../../cards/safe-link';
import type { WidgetConfig } from '../../protocol';

/** How every link in a message behaves: the widget config's target, and the click report (`service:link-click`). */
export interface LinkOptions {
  linkTarget: WidgetConfig['linkTarget'];
  /** Called with the checked href on every click; the browser then follows the link as usual. */
  onLinkClick: (url: string) => void;
}

export interface LinkProps extends LinkOptions {
  href: string | undefined;
  /** Cards link to web pages only: no `mailto:`/`tel:`. */
  httpOnly?: boolean;
  class?: string;
  part?: string;
  children: ComponentChildren;
}

/** An `<a>` when `href` passes {@link safeHref}; otherwise its content alone, in a `<span>` with the same class. */
export function Link({ href, httpOnly, linkTarget, onLinkClick, children, ...rest }: LinkProps) {
  const url = safeHref(href, httpOnly);
  return url ? (
    <a
      {...rest}
      href={url}
      target={linkTarget}
      rel={linkTarget === '_blank' ? 'noopener noreferrer' : undefined}
      onClick={() => onLinkClick(url)}
    >
      {children}
    </a>
  ) : (
    <span {...rest}>{children}</span>
  );
}
