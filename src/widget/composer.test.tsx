import { type Signal, signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { createRef } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from './composer';
import { pickStrings } from './locales/all';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
// Signals bound to DOM properties are written after a couple of microtasks, batched.
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The composer over a draft (a signal the test may change) in a locale; `textarea` is found by its label. */
function renderComposer(draft: string | Signal<string> = 'Hello', locale = 'en') {
  const onSend = vi.fn();
  const onDraft = vi.fn();
  const strings = pickStrings(locale);
  render(
    <Composer
      draft={typeof draft === 'string' ? signal(draft) : draft}
      strings={strings}
      inputRef={createRef()}
      onDraft={onDraft}
      onSend={onSend}
    />,
  );
  return { onSend, onDraft, textarea: screen.getByLabelText(strings.inputLabel) as HTMLTextAreaElement };
}

describe('<Composer>', () => {
  it('sends on Enter', () => {
    const { onSend, textarea } = renderComposer();
    fireEvent.keyDown(textarea, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledOnce();
  });

  it('lets Shift+Enter through as a new line', () => {
    const { onSend, textarea } = renderComposer();
    expect(fireEvent.keyDown(textarea, { key: 'Enter', shiftKey: true })).toBe(true);
    expect(onSend).not.toHaveBeenCalled();
  });

  it('does not send the Enter that confirms an IME composition', () => {
    const { onSend, textarea } = renderComposer();
    fireEvent.keyDown(textarea, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('sends with the Send button', () => {
    const { onSend } = renderComposer();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledOnce();
  });

  it('reports every edit of the draft', () => {
    const { onDraft, textarea } = renderComposer('');
    fireEvent.input(textarea, { target: { value: 'Hi' } });
    expect(onDraft).toHaveBeenCalledWith('Hi');
  });

  it('shows its hint while the field is empty, as a placeholder would, without the placeholder attribute', async () => {
    const draft = signal('');
    const { textarea } = renderComposer(draft, 'de');
    const form = textarea.closest('form');
    expect(textarea.hasAttribute('placeholder')).toBe(false);
    expect(form?.getAttribute('data-hint')).toBe('Stellen Sie eine Frage…');
    draft.value = ' ';
    await settled();
    // Spaces hide it, as they hide a placeholder; the text itself is never rewritten.
    expect(form?.hasAttribute('data-hint')).toBe(false);
    draft.value = '';
    await settled();
    expect(form?.getAttribute('data-hint')).toBe('Stellen Sie eine Frage…');
  });

  it('follows the draft signal: the text shows and Send is enabled only for a draft with more than spaces', async () => {
    const draft = signal('');
    const { textarea } = renderComposer(draft);
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    draft.value = '   ';
    await settled();
    expect(send.disabled).toBe(true);
    draft.value = 'Blue, size 42?';
    await settled();
    expect([textarea.value, send.disabled]).toEqual(['Blue, size 42?', false]);
    draft.value = '';
    await settled();
    expect([textarea.value, send.disabled]).toEqual(['', true]);
  });

  it('writes a draft changed from outside into the field at once (a pre-filled openChat, a send, reset)', () => {
    const draft = signal('');
    const { textarea } = renderComposer(draft);
    draft.value = 'Blue, size 42?';
    expect(textarea.value).toBe('Blue, size 42?');
    draft.value = '';
    expect(textarea.value).toBe('');
  });

  it('writes nothing back into the field while the shopper types (typing budget)', async () => {
    const draft = signal('');
    const onDraft = vi.fn((text: string) => {
      draft.value = text;
    });
    const strings = pickStrings('en');
    render(
      <Composer draft={draft} strings={strings} inputRef={createRef()} onDraft={onDraft} onSend={vi.fn()} />,
    );
    const textarea = screen.getByLabelText(strings.inputLabel) as HTMLTextAreaElement;
    const value = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
    const writes: string[] = [];
    Object.defineProperty(textarea, 'value', {
      configurable: true,
      get: () => value?.get?.call(textarea),
      set: (text: string) => {
        writes.push(text);
        value?.set?.call(textarea, text);
      },
    });
    for (const text of ['B', 'Bl', 'Blu']) {
      value?.set?.call(textarea, text);
      fireEvent.input(textarea);
    }
    await settled();
    expect(onDraft.mock.calls.map(([text]) => text)).toEqual(['B', 'Bl', 'Blu']);
    expect(writes).toEqual([]);
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect([draft.value, send.disabled, textarea.closest('form')?.hasAttribute('data-hint')]).toEqual([
      'Blu',
      false,
      false,
    ]);
  });

  it('is labelled and shows the draft', () => {
    const { textarea } = renderComposer('Draft text');
    expect(textarea.value).toBe('Draft text');
    expect(textarea.closest('form')?.getAttribute('part')).toBe('composer');
  });
});
