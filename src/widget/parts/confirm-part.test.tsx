import { signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pickStrings } from '../locales/all';
import { ConfirmPart } from './confirm-part';
import { PartView } from './part-view';
import { expectInert, HOSTILE_STRINGS } from './test-support';

afterEach(cleanup);

type States = ReadonlyMap<string, 'yes' | 'no' | 'closed'>;
const link = { linkTarget: '_self' as const, onLinkClick: () => {} };

function renderConfirm(locale = 'en', text = 'Cancel order 1003?') {
  const confirmations = signal<States>(new Map());
  const onAnswer = vi.fn();
  const { container } = render(
    <ConfirmPart
      {...link}
      part={{ type: 'confirm', id: 'p1', text }}
      strings={pickStrings(locale)}
      confirmations={confirmations}
      onAnswer={onAnswer}
    />,
  );
  return { container, confirmations, onAnswer };
}

describe('<ConfirmPart>', () => {
  it('asks the question as a named group with Yes and No buttons, and answers with its id', () => {
    const { onAnswer } = renderConfirm();
    expect(screen.getByRole('group', { name: 'Cancel order 1003?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(onAnswer.mock.calls).toEqual([
      ['p1', 'yes'],
      ['p1', 'no'],
    ]);
  });

  it('says Ja and Nein in German', () => {
    renderConfirm('de');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Ja', 'Nein']);
  });

  it('disables both buttons once answered, keeping them focusable, and marks the answer; a later message closes it unanswered', async () => {
    const { confirmations, onAnswer } = renderConfirm();
    confirmations.value = new Map([['p1', 'no']]);
    await Promise.resolve();
    const [yes, no] = screen.getAllByRole('button') as HTMLButtonElement[];
    // aria-disabled rather than disabled: the focus stays on the button the shopper pressed (keyboard users).
    expect([yes.getAttribute('aria-disabled'), no.getAttribute('aria-disabled')]).toEqual(['true', 'true']);
    expect([yes.disabled, no.disabled]).toEqual([false, false]);
    fireEvent.click(yes);
    expect(onAnswer).not.toHaveBeenCalled();
    expect([yes.getAttribute('aria-pressed'), no.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
    confirmations.value = new Map([['p1', 'closed']]);
    await Promise.resolve();
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-pressed'))).toEqual([
      'false',
      'false',
    ]);
    expect(screen.getAllByRole('button').every((b) => b.getAttribute('aria-disabled') === 'true')).toBe(true);
  });

  it('shows hostile text as text', () => {
    for (const text of HOSTILE_STRINGS) {
      const { container } = renderConfirm('en', text);
      expect(container.querySelector('legend')?.textContent).toBe(text);
      expectInert(container);
      cleanup();
    }
  });

  it('is the registry entry for confirm parts: the question at once, the buttons when its chunk is there', async () => {
    render(
      <PartView
        {...link}
        part={{ type: 'confirm', id: 'p2', text: 'Return an item (order_id: 1003)?' }}
        strings={pickStrings('en')}
        confirmations={signal<States>(new Map())}
        onAnswer={() => {}}
      />,
    );
    expect(screen.getByText('Return an item (order_id: 1003)?')).toBeTruthy();
    expect(await screen.findByRole('group', { name: 'Return an item (order_id: 1003)?' })).toBeTruthy();
  });
});
