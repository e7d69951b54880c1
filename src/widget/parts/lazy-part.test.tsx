import { cleanup, render } from '@testing-library/preact';
import { render as renderInto } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPart } from './lazy-part';

afterEach(cleanup);

interface Props {
  label: string;
}

/** A part module whose chunk arrives when the test says so. */
function deferredModule(css?: string) {
  let arrive!: () => void;
  let fail!: (error: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<{ Part: (props: Props) => preact.JSX.Element; css?: string }>((resolve, reject) => {
        arrive = () => resolve({ Part: ({ label }) => <b class="part">{label}</b>, css });
        fail = reject;
      }),
  );
  return { load, arrive: () => arrive(), fail: (error: Error) => fail(error) };
}

const Waiting = ({ label }: Props) => <i class="waiting">{label}</i>;

describe('lazyPart', () => {
  it('shows the placeholder, loads the chunk once for every part on screen, then shows them all', async () => {
    const chunk = deferredModule();
    const Part = lazyPart(chunk.load, 'Part', Waiting);
    const { container } = render(
      <div>
        <Part label="one" />
        <Part label="two" />
      </div>,
    );
    expect([...container.querySelectorAll('.waiting')].map((el) => el.textContent)).toEqual(['one', 'two']);
    expect(chunk.load).toHaveBeenCalledTimes(1);
    chunk.arrive();
    await vi.waitFor(() =>
      expect([...container.querySelectorAll('.part')].map((el) => el.textContent)).toEqual(['one', 'two']),
    );
    expect(container.querySelector('.waiting')).toBeNull();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it('renders an empty box without a placeholder of its own', () => {
    const Part = lazyPart(deferredModule().load, 'Part');
    const { container } = render(<Part label="x" />);
    expect(container.innerHTML).toBe('<div aria-busy="true"></div>');
  });

  it('keeps the placeholder and logs one [service] error when the chunk fails, and loads it on the next render', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = deferredModule();
    const second = deferredModule();
    const load = vi
      .fn<typeof first.load>()
      .mockImplementationOnce(first.load)
      .mockImplementationOnce(second.load);
    const Part = lazyPart(load, 'Part', Waiting);
    const { container, rerender } = render(<Part label="a" />);
    first.fail(new Error('offline'));
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(String(error.mock.calls[0]?.[0])).toMatch(/^\[service\] /);
    expect(container.querySelector('.waiting')?.textContent).toBe('a');

    rerender(<Part label="b" />);
    expect(load).toHaveBeenCalledTimes(2);
    second.arrive();
    await vi.waitFor(() => expect(container.querySelector('.part')?.textContent).toBe('b'));
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('prefetchParts() loads a part no message showed yet, which then renders at once', async () => {
    // A fresh registry: the earlier tests' parts (one never loads) are not this one's to wait for.
    vi.resetModules();
    const { lazyPart, prefetchParts } = await import('./lazy-part');
    const chunk = deferredModule();
    const Part = lazyPart(chunk.load, 'Part', Waiting);
    const prefetched = prefetchParts();
    expect(chunk.load).toHaveBeenCalledTimes(1);
    chunk.arrive();
    await prefetched;
    const { container } = render(<Part label="now" />);
    expect(container.innerHTML).toBe('<b class="part">now</b>');
    await prefetchParts();
    expect(chunk.load).toHaveBeenCalledTimes(1);
  });

  it("adopts the part's stylesheet into the shadow root it renders in, once, after the widget's own", async () => {
    const chunk = deferredModule('.part { color: red; }');
    const Part = lazyPart(chunk.load, 'Part', Waiting);
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const own = new CSSStyleSheet();
    shadow.adoptedStyleSheets = [own];
    renderInto(
      <div>
        <Part label="a" />
        <Part label="b" />
      </div>,
      shadow,
    );
    chunk.arrive();
    await vi.waitFor(() => expect(shadow.querySelectorAll('.part')).toHaveLength(2));
    expect(shadow.adoptedStyleSheets).toHaveLength(2);
    expect(shadow.adoptedStyleSheets[0]).toBe(own);
    expect([...shadow.adoptedStyleSheets[1]!.cssRules].map((rule) => rule.cssText).join('')).toMatch(
      /\.part/,
    );
    renderInto(null, shadow);
    host.remove();
  });
});
