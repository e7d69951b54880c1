import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FollowScroll, NEAR_END_PX } from './follow-scroll';

// happy-dom lays nothing out: the region's geometry is the test's, as a browser would report it. Chromium proves the
// same on the real console in e2e/console.e2e.ts.
const geometry = { scrollHeight: 0, clientHeight: 300, scrollTop: 0 };
const isRegion = (el: HTMLElement) => el.classList.contains('follow-scroll');
const originals = (['scrollHeight', 'clientHeight', 'scrollTop'] as const).map(
  (name) => [name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)] as const,
);

beforeEach(() => {
  Object.assign(geometry, { scrollHeight: 1000, clientHeight: 300, scrollTop: 0 });
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isRegion(this) ? geometry.scrollHeight : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isRegion(this) ? geometry.clientHeight : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
    configurable: true,
    get(this: HTMLElement) {
      return isRegion(this) ? geometry.scrollTop : 0;
    },
    set(this: HTMLElement, value: number) {
      // As a browser clamps it.
      if (isRegion(this))
        geometry.scrollTop = Math.max(0, Math.min(value, geometry.scrollHeight - geometry.clientHeight));
    },
  });
});

afterEach(() => {
  cleanup();
  for (const [name, descriptor] of originals) {
    if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
});

const view = (props: { openKey?: string; lastKey: string; sentCount?: number }) => (
  <>
    <h3 id="t">Transcript</h3>
    <FollowScroll
      openKey={props.openKey ?? 'c1'}
      lastKey={props.lastKey}
      sentCount={props.sentCount ?? 0}
      labelledBy="t"
    >
      <ol>
        <li>{props.lastKey}</li>
      </ol>
    </FollowScroll>
  </>
);

/** The reader scrolls the region to `top`, as a wheel or a key would. */
function scrollTo(top: number) {
  geometry.scrollTop = top;
  fireEvent.scroll(screen.getByRole('region', { name: 'Transcript' }));
}

const newMessages = () => screen.queryByRole('button', { name: /New messages/ });

describe('<FollowScroll>', () => {
  it('opens a conversation at its newest message', () => {
    render(view({ lastKey: 'm1' }));
    expect(geometry.scrollTop).toBe(700);
    expect(screen.getByRole('region', { name: 'Transcript' }).tabIndex).toBe(0);
  });

  it('follows a new message while the agent reads at (or near) the end', () => {
    const { rerender } = render(view({ lastKey: 'm1' }));
    scrollTo(700 - NEAR_END_PX);
    geometry.scrollHeight = 1200;
    rerender(view({ lastKey: 'm2' }));
    expect(geometry.scrollTop).toBe(900);
    expect(newMessages()).toBeNull();
  });

  it('leaves an agent who scrolled up where they read, with a "New messages" button that jumps to the end', () => {
    const { rerender } = render(view({ lastKey: 'm1' }));
    scrollTo(100);
    geometry.scrollHeight = 1400;
    rerender(view({ lastKey: 'm2' }));
    expect(geometry.scrollTop).toBe(100);
    const button = newMessages();
    expect(button).not.toBeNull();

    button?.focus();
    fireEvent.click(button as HTMLElement);
    expect(geometry.scrollTop).toBe(1100);
    expect(newMessages()).toBeNull();
    // The button is gone; the focus stays in the transcript rather than falling back to the page.
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Transcript' }));
  });

  it('drops the button once the agent scrolls down to the end themselves', () => {
    const { rerender } = render(view({ lastKey: 'm1' }));
    scrollTo(0);
    geometry.scrollHeight = 1400;
    rerender(view({ lastKey: 'm2' }));
    expect(newMessages()).not.toBeNull();
    scrollTo(1100);
    expect(newMessages()).toBeNull();
  });

  it("shows the agent's own message even when they had scrolled up, and a newly opened conversation at its end", () => {
    const { rerender } = render(view({ lastKey: 'm1' }));
    scrollTo(0);
    geometry.scrollHeight = 1300;
    rerender(view({ lastKey: 'mine', sentCount: 1 }));
    expect(geometry.scrollTop).toBe(1000);
    expect(newMessages()).toBeNull();

    scrollTo(0);
    geometry.scrollHeight = 800;
    rerender(view({ openKey: 'c2', lastKey: 'other' }));
    expect(geometry.scrollTop).toBe(500);
  });
});
