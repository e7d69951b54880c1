import { signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedbackRating, WidgetConfig } from '../../protocol';
import { LOCALES } from '../i18n';
import { pickStrings } from '../locales/all';
import { Panel } from '../panel';
import { createStore, type WidgetMessage } from '../store';
import { createChatAddons, isRateable } from './chat-addons';
import { contactState } from './contact-offer';
import { HANDOFF_STRINGS } from './handoff-strings';

afterEach(cleanup);
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
  handoff: true,
};

const answer: WidgetMessage = {
  id: '8d0f6c1e-answer',
  role: 'assistant',
  parts: [{ type: 'text', text: 'The shoe comes in blue.' }],
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'done',
};

/** The addons over a store, inside a real panel header (as chat-view.tsx renders them). */
function renderAddons({
  config = CONFIG,
  locale = 'en',
  rate = vi.fn(async (_id: string, _rating: FeedbackRating) => true),
  message = answer,
  leave = vi.fn(async (_email: string, _purpose: string): Promise<'ok' | 'invalid' | 'failed'> => 'ok'),
  transcript = vi.fn(),
  canEmail = Boolean(config.email),
} = {}) {
  const store = createStore({ config, status: 'online', isHidden: false, isOpen: true });
  const strings = pickStrings(locale);
  const contact = contactState();
  const addons = createChatAddons({
    store,
    strings,
    rate,
    contact: { state: contact, leave, transcript, canEmail: signal(canEmail) },
  });
  const onClose = vi.fn();
  render(
    <Panel
      isOpen
      title="Shop"
      strings={strings}
      panelRef={{ current: null }}
      onClose={onClose}
      tools={<addons.Header />}
    >
      <addons.Status />
      <div class={`bubble ${message.role}`}>
        <addons.Before message={message} />
        <addons.After message={message} />
      </div>
    </Panel>,
  );
  return { store, rate, onClose, contact, leave, transcript };
}

describe('the "More options" menu (WAI-ARIA menu button)', () => {
  const button = () => screen.getByRole('button', { name: 'More options' });
  const item = () => screen.getByRole('menuitem', { name: 'Talk to a person', hidden: true });

  it('is there only when the widget config says handoff', () => {
    renderAddons({ config: { ...CONFIG, handoff: undefined } });
    expect(screen.queryByRole('button', { name: 'More options' })).toBeNull();
  });

  it.each(['Enter', ' ', 'ArrowDown'])(
    'opens with %j on its first item, and says it is expanded',
    async (key) => {
      renderAddons();
      button().focus();
      expect(button().getAttribute('aria-expanded')).toBe('false');
      expect(button().getAttribute('aria-haspopup')).toBe('menu');
      // Enter and Space press a button (a click); ArrowDown is the menu button's own key.
      if (key === 'ArrowDown') fireEvent.keyDown(button(), { key });
      else fireEvent.click(button());
      await settled();
      expect(button().getAttribute('aria-expanded')).toBe('true');
      expect(screen.getByRole('menu')).toBeTruthy();
      expect(document.activeElement).toBe(item());
    },
  );

  it('Escape closes the menu, returns focus to the button and leaves the panel open', async () => {
    const { onClose } = renderAddons();
    fireEvent.keyDown(button(), { key: 'ArrowDown' });
    await settled();
    fireEvent.keyDown(item(), { key: 'Escape' });
    await settled();
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('menu', { hidden: true }).hidden).toBe(true);
    expect(document.activeElement).toBe(button());
    expect(onClose).not.toHaveBeenCalled();
  });

  it('arrows wrap around the items and keep focus in the menu', async () => {
    renderAddons();
    fireEvent.keyDown(button(), { key: 'ArrowUp' });
    await settled();
    expect(document.activeElement).toBe(item());
    fireEvent.keyDown(item(), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(item());
  });

  it('"Talk to a person" (Enter) asks for a person and closes the menu', async () => {
    const { store } = renderAddons();
    fireEvent.keyDown(button(), { key: 'ArrowDown' });
    await settled();
    fireEvent.keyDown(item(), { key: 'Enter' });
    await settled();
    expect(store.isHumanAsked.value).toBe(true);
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button());
  });

  it('while a person is asked for, the item is disabled and does nothing', async () => {
    const { store } = renderAddons();
    store.mode.value = 'waiting';
    fireEvent.click(button());
    await settled();
    expect(item().getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(item());
    expect(store.isHumanAsked.value).toBe(false);
  });

  it('speaks German for a German shopper', () => {
    renderAddons({ locale: 'de' });
    expect(screen.getByRole('button', { name: 'Weitere Optionen' })).toBeTruthy();
  });
});

describe('the status line', () => {
  it('says who answers, in a polite live region that is always there', async () => {
    const { store } = renderAddons();
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    store.mode.value = 'waiting';
    await settled();
    expect(status.textContent).toBe('Waiting for a person…');
    store.agent.value = 'Anna';
    store.mode.value = 'agent';
    await settled();
    expect(screen.getByRole('status')).toBe(status);
    expect(status.textContent).toBe('You’re chatting with Anna');
  });

  it('after a hand-back, says the assistant answers again until the shopper writes', async () => {
    const { store } = renderAddons();
    const status = screen.getByRole('status');
    const from = (role: WidgetMessage['role'], id: string): WidgetMessage => ({ ...answer, id, role });
    store.messages.value = [from('user', 'u1'), from('agent', 'a1')];
    store.agent.value = 'Anna';
    store.mode.value = 'agent';
    await settled();
    store.agent.value = undefined;
    store.mode.value = 'assistant';
    await settled();
    expect(status.textContent).toBe('You’re back with the assistant');
    store.messages.value = [...store.messages.value, from('user', 'u2')];
    await settled();
    expect(status.textContent).toBe('');
  });
});

describe("an agent's message", () => {
  it("shows the agent's name as text beside it, and no thumbs", () => {
    renderAddons({
      message: { ...answer, id: 'a1', role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Hi' }] },
    });
    expect(screen.getByText('Anna')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
  });
});

describe('the thumbs', () => {
  const up = () => screen.getByRole('button', { name: 'Helpful' });
  const down = () => screen.getByRole('button', { name: 'Not helpful' });

  it('go under a finished answer the service stored, and under nothing else', () => {
    expect(isRateable(answer)).toBe(true);
    expect(isRateable({ ...answer, status: 'streaming' })).toBe(false);
    expect(isRateable({ ...answer, status: 'failed' })).toBe(false);
    expect(isRateable({ ...answer, role: 'user', status: 'sent' })).toBe(false);
    expect(isRateable({ ...answer, role: 'agent' })).toBe(false);
    expect(isRateable({ ...answer, id: 'proactive-c1' })).toBe(false);
    expect(isRateable({ ...answer, id: 'reply-c1' })).toBe(false);
  });

  it('go under no Yes/No question and no handoff notice: neither is an answer to rate', () => {
    const question: WidgetMessage = {
      ...answer,
      parts: [{ type: 'confirm', id: 'p1', text: 'Cancel order 1003?' }],
    };
    expect(isRateable(question)).toBe(false);
    renderAddons({ message: question });
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
    cleanup();
    const notice: WidgetMessage = {
      ...answer,
      parts: [{ type: 'text', text: 'A person from our team will answer you here.' }],
      isNotice: true,
    };
    expect(isRateable(notice)).toBe(false);
    renderAddons({ message: notice });
    expect(screen.queryByRole('button', { name: 'Helpful' })).toBeNull();
  });

  it('post the rating, show it pressed, and a later press replaces it', async () => {
    const { rate } = renderAddons();
    expect(up().getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(up());
    await settled();
    expect(rate).toHaveBeenLastCalledWith(answer.id, 'up');
    expect(up().getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(down());
    await settled();
    expect(rate).toHaveBeenLastCalledWith(answer.id, 'down');
    expect([up().getAttribute('aria-pressed'), down().getAttribute('aria-pressed')]).toEqual([
      'false',
      'true',
    ]);
    // The one pressed already: nothing to send again.
    fireEvent.click(down());
    await settled();
    expect(rate).toHaveBeenCalledTimes(2);
  });

  it('a rating the service did not take: the buttons return to what they were', async () => {
    let isTaken = true;
    const { rate } = renderAddons({ rate: vi.fn(async () => isTaken) });
    fireEvent.click(up());
    await settled();
    isTaken = false;
    fireEvent.click(down());
    await settled();
    expect(rate).toHaveBeenCalledTimes(2);
    expect([up().getAttribute('aria-pressed'), down().getAttribute('aria-pressed')]).toEqual([
      'true',
      'false',
    ]);
  });
});

describe('the handoff strings', () => {
  it('exist in every language of the widget, each one filled', () => {
    expect(Object.keys(HANDOFF_STRINGS).sort()).toEqual(['en', ...Object.keys(LOCALES)].sort());
    for (const table of Object.values(HANDOFF_STRINGS)) {
      for (const text of Object.values(table)) expect(text.trim()).not.toBe('');
      expect(table.chattingWith).toContain('{name}');
    }
  });
});

describe('the offer to leave an address (issue 33)', () => {
  it('is not there until the handoff offers it, and then asks for an address with the privacy line', () => {
    const { contact } = renderAddons({ config: { ...CONFIG, email: true } });
    expect(screen.queryByLabelText('Get the reply by email')).toBeNull();
    contact.value = { step: 'offered', purpose: 'contact', privacyUrl: 'https://shop.example/privacy' };
    return settled().then(() => {
      const field = screen.getByLabelText('Get the reply by email') as HTMLInputElement;
      expect(field.type).toBe('email');
      expect(field.autocomplete).toBe('email');
      expect(field.getAttribute('aria-describedby')).toBe('service-contact-note');
      expect(screen.getByText(/only to send you the reply/).textContent).toContain('Privacy policy');
      expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
        'https://shop.example/privacy',
      );
    });
  });

  it('says what is wrong with an address that is not one, and sends nothing', async () => {
    const { contact, leave } = renderAddons({ config: { ...CONFIG, email: true } });
    contact.value = { step: 'offered', purpose: 'contact' };
    await settled();
    const field = screen.getByLabelText('Get the reply by email') as HTMLInputElement;
    fireEvent.input(field, { target: { value: 'not an address' } });
    fireEvent.submit(field.form!);
    await settled();
    expect(leave).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe(
      'Please enter an email address like name@example.com.',
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');
  });

  it('leaves a good address and then says where the reply will go', async () => {
    const { contact, leave } = renderAddons({ config: { ...CONFIG, email: true } });
    contact.value = { step: 'offered', purpose: 'contact' };
    await settled();
    const field = screen.getByLabelText('Get the reply by email') as HTMLInputElement;
    fireEvent.input(field, { target: { value: ' ann@example.com ' } });
    fireEvent.submit(field.form!);
    await settled();
    expect(leave).toHaveBeenCalledWith('ann@example.com', 'contact');
    const done = screen.getByText('We’ll email the reply to ann@example.com.');
    expect(done.getAttribute('role')).toBe('status');
    expect(screen.queryByLabelText('Get the reply by email')).toBeNull();
  });

  it('keeps the form, says so and keeps the address when the service does not take it', async () => {
    const leave = vi.fn(async () => 'failed' as const);
    const { contact } = renderAddons({ config: { ...CONFIG, email: true }, leave });
    contact.value = { step: 'offered', purpose: 'contact' };
    await settled();
    const field = screen.getByLabelText('Get the reply by email') as HTMLInputElement;
    fireEvent.input(field, { target: { value: 'ann@example.com' } });
    fireEvent.submit(field.form!);
    await settled();
    expect(screen.getByRole('alert').textContent).toBe('That didn’t work. Please try again in a moment.');
    expect((screen.getByLabelText('Get the reply by email') as HTMLInputElement).value).toBe(
      'ann@example.com',
    );
  });

  it('goes away with "No thanks", in German too', async () => {
    const { contact } = renderAddons({ config: { ...CONFIG, email: true }, locale: 'de' });
    contact.value = { step: 'offered', purpose: 'contact' };
    await settled();
    expect(screen.getByLabelText('Antwort per E-Mail erhalten')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Nein danke' }));
    await settled();
    expect(screen.queryByLabelText('Antwort per E-Mail erhalten')).toBeNull();
  });
});

describe('"Email me this conversation" (issue 33)', () => {
  it('is in the menu only when the service sends email and there is a conversation, and asks for it', async () => {
    const { store, transcript } = renderAddons({ config: { ...CONFIG, email: true } });
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    expect(screen.queryByRole('menuitem', { name: 'Email me this conversation' })).toBeNull();
    store.messages.value = [answer];
    await settled();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Email me this conversation' }));
    expect(transcript).toHaveBeenCalledTimes(1);
  });

  it('has a menu without handoff, and none without either', async () => {
    const { store } = renderAddons({ config: { ...CONFIG, handoff: false, email: true } });
    store.messages.value = [answer];
    await settled();
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Email me this conversation']);
    cleanup();
    renderAddons({ config: { ...CONFIG, handoff: false } });
    expect(screen.queryByRole('button', { name: 'More options' })).toBeNull();
  });

  it('asks where to, sends there, and says it was sent', async () => {
    const { contact, leave } = renderAddons({ config: { ...CONFIG, email: true } });
    contact.value = { step: 'offered', purpose: 'transcript' };
    await settled();
    const field = screen.getByLabelText('Email this conversation to') as HTMLInputElement;
    expect(screen.getByText('We use your address only to send you this conversation.')).toBeTruthy();
    fireEvent.input(field, { target: { value: 'ann@example.com' } });
    fireEvent.submit(field.form!);
    await settled();
    expect(leave).toHaveBeenCalledWith('ann@example.com', 'transcript');
    expect(screen.getByText('We’ve emailed this conversation to ann@example.com.').getAttribute('role')).toBe(
      'status',
    );
  });
});
