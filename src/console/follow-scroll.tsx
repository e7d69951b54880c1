import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Within this many pixels of the end counts as at the end (a line of slack, so a pixel off still follows). */
export const NEAR_END_PX = 48;

export interface FollowScrollProps {
  /** Another conversation: start again at its end. */
  openKey: string;
  /** The last item's key: when it changes, something arrived at the end. */
  lastKey: string | null;
  /** Goes up when the agent sent a message: their own message is always shown. */
  sentCount: number;
  /** The id of the heading that names the region. */
  labelledBy: string;
  children: ComponentChildren;
}

const distanceToEnd = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight;

/**
 * A chat's scrolling region that opens at its end and follows what arrives while the reader is at (or near) the end;
 * a reader who scrolled up to read stays where they are and gets a "New messages" button that jumps to the end.
 * The region is focusable, so it scrolls with the keyboard; what arrives is announced by the console's live region.
 */
export function FollowScroll({ openKey, lastKey, sentCount, labelledBy, children }: FollowScrollProps) {
  const scroller = useRef<HTMLElement>(null);
  const content = useRef<HTMLDivElement>(null);
  /** Where the reader was before the latest change: at the end (follow) or up in the history (stay). */
  const isAtEnd = useRef(true);
  const [hasUnseen, setHasUnseen] = useState(false);

  const toEnd = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    isAtEnd.current = true;
    setHasUnseen(false);
  };

  // Opening a conversation: its newest messages, not its first.
  useLayoutEffect(() => {
    isAtEnd.current = true;
    toEnd();
  }, [openKey]);

  // Something arrived: follow it, or leave the reader where they read and say there is more below.
  useLayoutEffect(() => {
    if (isAtEnd.current) toEnd();
    else setHasUnseen(true);
  }, [lastKey]);

  useLayoutEffect(() => {
    if (sentCount > 0) toEnd();
  }, [sentCount]);

  // Content that grows without a new item (an answer being written, a picture loading) keeps a follower at the end.
  useEffect(() => {
    const el = content.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (isAtEnd.current && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div class="follow-frame">
      <section
        ref={scroller}
        class="follow-scroll"
        aria-labelledby={labelledBy}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
        onScroll={(event) => {
          isAtEnd.current = distanceToEnd(event.currentTarget) <= NEAR_END_PX;
          if (isAtEnd.current) setHasUnseen(false);
        }}
      >
        <div ref={content}>{children}</div>
      </section>
      {hasUnseen && (
        <button
          type="button"
          class="new-messages"
          onClick={() => {
            toEnd();
            // The button goes away: the region keeps the focus, not the page's start.
            scroller.current?.focus({ preventScroll: true });
          }}
        >
          New messages <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  );
}
