import { signal } from '@preact/signals';
import { cleanup, render } from '@testing-library/preact';
import axe from 'axe-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findOrder, orderCard } from '../../../demo/integrator/orders';
import fixture from '../../cards/fixtures/order.json';
import type { OrderCard } from '../../protocol';
import { pickStrings } from '../locales/all';
import { prefetchParts } from './lazy-part';
import { PartView } from './part-view';

afterEach(cleanup);
// The parts themselves, not their placeholders (lazy-part.tsx).
beforeAll(() => prefetchParts());

// axe-core runs in happy-dom for the structural rules (roles, lists, names, alt text). happy-dom has no layout, so
// `color-contrast` comes back "incomplete" here: contrast needs Chromium (an e2e run over the real panel; these parts
// rendered there in the widget's shadow root with styles.css and the parts' CSS passed axe's color-contrast when written).
describe('message parts under axe-core', () => {
  it('have no violations: text, a product list, a single card, full and minimal order cards, confirm parts', async () => {
    const strings = pickStrings('en');
    const p = {
      strings,
      linkTarget: '_blank' as const,
      onLinkClick: () => {},
      confirmations: signal(new Map([['answered', 'yes' as const]])),
      onAnswer: () => {},
    };
    render(
      <main>
        <PartView
          {...p}
          part={{ type: 'text', text: '## Hi\n**x** [a](https://a.example)\n- one\n  1. two\n\n`c`' }}
        />
        <PartView
          {...p}
          part={{
            type: 'products',
            cards: [
              {
                url: 'https://a.example',
                name: 'A',
                price: '1 €',
                image: 'https://a.example/a.png',
                description: 'd',
              },
              { url: 'https://b.example', name: 'B', price: '2 €' },
            ],
          }}
        />
        <PartView
          {...p}
          part={{ type: 'product-card', card: { url: 'javascript:x', name: 'C', price: '3 €' } }}
        />
        <PartView {...p} part={{ type: 'order-card', card: fixture as OrderCard }} />
        <PartView
          {...p}
          part={{ type: 'order-card', card: orderCard(findOrder('6666')!, 'http://127.0.0.1:4100') }}
        />
        <PartView
          {...p}
          part={{
            type: 'order-card',
            card: { order_id_value: '1', timeline: { step: [{ label: 'x', status: 'failed' }] } },
          }}
        />
        <PartView {...p} part={{ type: 'confirm', id: 'open', text: 'Cancel order 1003?' }} />
        <PartView {...p} part={{ type: 'confirm', id: 'answered', text: 'Cancel order 1004?' }} />
      </main>,
    );
    const result = await axe.run(document.body);
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
    // It really checked what matters here.
    const passed = result.passes.map((r) => r.id);
    for (const rule of [
      'list',
      'listitem',
      'link-name',
      'image-alt',
      'aria-allowed-attr',
      'aria-valid-attr-value',
      'button-name',
    ]) {
      expect(passed).toContain(rule);
    }
  });
});
