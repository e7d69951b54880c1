import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fixture from '../../cards/fixtures/order.json';
import type { MessagePart, OrderCard } from '../../protocol';
import { pickStrings } from '../locales/all';
import { prefetchParts } from './lazy-part';
import { PartView } from './part-view';

afterEach(cleanup);
// The parts' chunks, loaded before these tests: how a part renders while its chunk loads is lazy-part.test.tsx's.
beforeAll(() => prefetchParts());

const strings = pickStrings('en');
const onLinkClick = vi.fn();
const PRODUCT = { url: 'https://shop.example/p/1', name: 'Tent', price: '199 €' };

function renderPart(part: MessagePart) {
  return render(<PartView part={part} strings={strings} linkTarget="_self" onLinkClick={onLinkClick} />);
}

describe('<PartView>', () => {
  it.each([
    [{ type: 'text', text: 'Hello **you**' }, '.md strong'],
    [{ type: 'product-card', card: PRODUCT }, 'a[part="product-card"]'],
    [{ type: 'products', cards: [PRODUCT, PRODUCT] }, 'ul.pcs > li > a[part="product-card"]'],
    [{ type: 'order-card', card: fixture as OrderCard }, 'article[part="order-card"]'],
  ] as [MessagePart, string][])('renders a %o part with its component', (part, selector) => {
    const { container } = renderPart(part);
    expect(container.querySelector(selector)).not.toBeNull();
  });

  it('renders nothing for a part type it does not know, without throwing', () => {
    const { container } = renderPart({ type: 'video', url: 'https://x.example' } as unknown as MessagePart);
    expect(container.innerHTML).toBe('');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'renders nothing for a part typed "%s", a name every object has, without throwing',
    (type) => {
      const { container } = renderPart({ type } as unknown as MessagePart);
      expect(container.innerHTML).toBe('');
    },
  );

  it.each([{ type: 'text', text: 42 }, { type: 'text' }, { type: 'text', text: { a: 1 } }])(
    'renders nothing for the malformed part %j, logs one [service] error, and the next part renders',
    (bad) => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { container, rerender } = renderPart(bad as unknown as MessagePart);
      expect(container.textContent).toBe('');
      expect(error.mock.calls.filter((call) => String(call[0]).startsWith('[service]'))).toHaveLength(1);
      error.mockRestore();
      rerender(
        <PartView
          part={{ type: 'text', text: 'Still here' }}
          strings={strings}
          linkTarget="_self"
          onLinkClick={onLinkClick}
        />,
      );
      expect(container.textContent).toBe('Still here');
    },
  );

  it('shows a text part as plain text while the markdown chunk loads, then formatted', async () => {
    vi.resetModules();
    const fresh = await import('./part-view');
    const { container } = render(
      <fresh.PartView
        part={{ type: 'text', text: 'Hello **you**' }}
        strings={strings}
        linkTarget="_self"
        onLinkClick={onLinkClick}
      />,
    );
    expect(container.querySelector('.md')?.textContent).toBe('Hello **you**');
    await vi.waitFor(() => expect(container.querySelector('.md strong')?.textContent).toBe('you'));
  });

  it('re-renders only when a prop changes identity: finished parts are immutable', () => {
    const part = { type: 'text' as const, text: 'first' };
    const { container, rerender } = renderPart(part);
    // Mutating in place is not a change (and never happens in the store): the render is skipped.
    part.text = 'mutated';
    rerender(<PartView part={part} strings={strings} linkTarget="_self" onLinkClick={onLinkClick} />);
    expect(container.textContent).toBe('first');
    const second = { type: 'text' as const, text: '[second](https://shop.example/)' };
    rerender(<PartView part={second} strings={strings} linkTarget="_self" onLinkClick={onLinkClick} />);
    expect(container.textContent).toBe('second');
    // The same part with another link target: a prop changed, so the link follows it.
    rerender(<PartView part={second} strings={strings} linkTarget="_blank" onLinkClick={onLinkClick} />);
    expect(container.querySelector('a')?.getAttribute('target')).toBe('_blank');
  });
});
