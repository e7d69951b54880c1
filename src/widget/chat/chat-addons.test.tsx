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
import type { EarlierConversation } from './earlier-conversations';
import { HANDOFF_ENGLISH, type HandoffStrings } from './handoff-strings';
import { ratingState } from './rating-card';

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
  identityToken = undefined as string | undefined,
  earlier = earlierDouble(),
  sendRating = vi.fn(async (_score: number, _comment: string) => true),
} = {}) {
  const store = createStore({ config, status: 'online', isHidden: false, isOpen: true, identityToken });
  const strings = pickStrings(locale);
  const contact = contactState();
  const rating = ratingState();
  const typing = signal<string | null>(null);
  const addons = createChatAddons({
    store,
    strings,
    rate,
    contact: { state: contact, leave, transcript, canEmail: signal(canEmail) },
    earlier,
    rating: { state: rating, send: sendRating },
    typing,
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
  return { store, rate, onClose, contact, leave, transcript, earlier, rating, sendRating, typing };
}

const EARLIER: EarlierConversation[] = [
  {
    id: 'c-now',
    createdAt: '2026-11-28T21:00:00.000Z',
    updatedAt: '2026-11-28T21:05:00.000Z',
    mode: 'waiting',
    firstQuestion: 'Where is order 1042?',
    lastMessage: { role: 'user', text: 'It was due Friday.', at: '2026-11-28T21:05:00.000Z' },
  },
  {
    id: 'c-old',
    createdAt: '2026-10-02T09:00:00.000Z',
    updatedAt: '2026-10-02T09:10:00.000Z',
    mode: 'assistant',
    firstQuestion: 'Can I return the jacket?',
    lastMessage: { role: 'agent', text: 'Your refund is on its way.', at: '2026-10-02T09:10:00.000Z' },
  },
];

/** What the conversation gives the list: the customer's conversations and what reopening one does. */
function earlierDouble(conversations = EARLIER) {
  return {
    list: vi.fn(async () => conversations),
    open: vi.fn(async (_id: string) => true),
    startNew: vi.fn(),
    currentId: () => 'c-now',
  };
}

/** A token the widget accepts as a JWT (three base64url parts); the widget never verifies it. */
const IDENTITY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXN0LTEifQ.c2ln';

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
  it("exist in every language of the widget (in its locale's chunk), each one filled", () => {
    const tables = [HANDOFF_ENGLISH, ...Object.keys(LOCALES).map((tag) => pickStrings(tag).chat)];
    expect(tables.every(Boolean)).toBe(true);
    for (const table of tables as HandoffStrings[]) {
      expect(Object.keys(table).sort()).toEqual(Object.keys(HANDOFF_ENGLISH).sort());
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

describe('"Your conversations" (issue 33, other devices)', () => {
  const openList = async () => {
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Your conversations' }));
    return screen.findByRole('dialog', { name: 'Your conversations' });
  };

  it('is in the menu only for a signed-in customer (the page gave an identity token)', async () => {
    const { store } = renderAddons();
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    expect(screen.queryByRole('menuitem', { name: 'Your conversations' })).toBeNull();
    store.setIdentityToken(IDENTITY);
    await settled();
    expect(screen.getByRole('menuitem', { name: 'Your conversations' })).toBeTruthy();
  });

  it('lists them newest first, each by its first question and its last message, marks the open one, and shuts the chat under it', async () => {
    const { earlier } = renderAddons({ identityToken: IDENTITY });
    const dialog = await openList();
    const items = await screen.findAllByRole('button', { name: /Refund|order 1042/i });
    // Each row: what it was about (the shopper's first message), then its last message.
    expect(items.map((b) => b.querySelector('.earlier-title')?.textContent)).toEqual([
      'Where is order 1042?',
      'Can I return the jacket?',
    ]);
    expect(items.map((b) => b.querySelector('.earlier-text')?.textContent)).toEqual([
      'You: It was due Friday.',
      'Your refund is on its way.',
    ]);
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    expect(items[1]!.getAttribute('aria-current')).toBeNull();
    expect(earlier.list).toHaveBeenCalledTimes(1);
    // The header's menu and the close button under the list cannot be reached.
    expect((dialog.parentElement as HTMLElement).querySelector<HTMLElement>('.header')?.inert).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back to the chat' }));
  });

  it('reopens the one chosen and goes back to the chat', async () => {
    const { earlier } = renderAddons({ identityToken: IDENTITY });
    await openList();
    fireEvent.click(await screen.findByRole('button', { name: /refund/i }));
    await settled();
    expect(earlier.open).toHaveBeenCalledWith('c-old');
    expect(screen.queryByRole('dialog', { name: 'Your conversations' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'More options' }));
  });

  it('choosing the open one just goes back, asking the service nothing', async () => {
    const { earlier } = renderAddons({ identityToken: IDENTITY });
    await openList();
    fireEvent.click(await screen.findByRole('button', { name: /order 1042/i }));
    await settled();
    expect(earlier.open).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'Your conversations' })).toBeNull();
  });

  it('says so and stays when one cannot be opened', async () => {
    const earlier = earlierDouble();
    earlier.open.mockResolvedValue(false);
    renderAddons({ identityToken: IDENTITY, earlier });
    await openList();
    fireEvent.click(await screen.findByRole('button', { name: /refund/i }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That didn’t work. Please try again in a moment.',
    );
    expect(screen.getByRole('dialog', { name: 'Your conversations' })).toBeTruthy();
  });

  it('says when the list could not be read, and "Try again" reads it again', async () => {
    const earlier = earlierDouble();
    earlier.list.mockRejectedValueOnce(new Error('HTTP 503'));
    renderAddons({ identityToken: IDENTITY, earlier });
    await openList();
    expect((await screen.findByRole('alert')).textContent).toContain('That didn’t work.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: /refund/i })).toBeTruthy();
    expect(earlier.list).toHaveBeenCalledTimes(2);
  });

  it('says there are none yet, and "Start a new conversation" starts one', async () => {
    const earlier = earlierDouble([]);
    renderAddons({ identityToken: IDENTITY, earlier });
    await openList();
    expect(await screen.findByText('No earlier conversations yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start a new conversation' }));
    expect(earlier.startNew).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Your conversations' })).toBeNull();
  });

  it('Escape goes back to the chat without closing the panel, and the chat can be reached again', async () => {
    const { onClose } = renderAddons({ identityToken: IDENTITY });
    const dialog = await openList();
    const header = dialog.parentElement!.querySelector<HTMLElement>('.header')!;
    fireEvent.keyDown(screen.getByRole('button', { name: 'Back to the chat' }), { key: 'Escape' });
    await settled();
    expect(screen.queryByRole('dialog', { name: 'Your conversations' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(header.inert).toBe(false);
  });

  it('speaks German for a German shopper', async () => {
    renderAddons({ identityToken: IDENTITY, locale: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Weitere Optionen' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Ihre Gespräche' }));
    expect(await screen.findByRole('button', { name: 'Zurück zum Chat' })).toBeTruthy();
    expect(await screen.findByText('Sie: It was due Friday.')).toBeTruthy();
  });
});

describe('"How did we do?" after a person helped (issue 34)', () => {
  it('is not there until a hand-back or a close asks, then takes 1 to 5 stars and a comment, and thanks', async () => {
    const { rating, sendRating } = renderAddons();
    expect(screen.queryByRole('radiogroup', { name: 'How did we do?' })).toBeNull();
    rating.value = { step: 'asked' };
    await screen.findByRole('radiogroup', { name: 'How did we do?' });
    // Each star is a radio named by its number (a screen reader adds "of 5"); the comment is optional.
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    fireEvent.click(screen.getByRole('radio', { name: '4' }));
    fireEvent.input(screen.getByLabelText('Anything to add? (optional)'), {
      target: { value: '  Quick, thanks  ' },
    });
    fireEvent.submit(screen.getByRole('radio', { name: '4' }).closest('form') as HTMLFormElement);
    expect(sendRating).toHaveBeenCalledWith(4, 'Quick, thanks');
    await screen.findByText('Thank you for your rating.');
  });

  it('sends nothing without a star, keeps the card when the service does not take it, and goes with "No thanks"', async () => {
    const sendRating = vi.fn(async () => false);
    const { rating } = renderAddons({ sendRating });
    rating.value = { step: 'asked' };
    const form = (await screen.findByRole('radiogroup', { name: 'How did we do?' })).closest(
      'form',
    ) as HTMLFormElement;
    fireEvent.submit(form);
    expect(sendRating).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    fireEvent.submit(form);
    await screen.findByRole('alert');
    expect(screen.getByRole('radiogroup', { name: 'How did we do?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'No thanks' }));
    await vi.waitFor(() => expect(screen.queryByRole('radiogroup', { name: 'How did we do?' })).toBeNull());
  });

  it('asks in German for a German shopper', async () => {
    const { rating } = renderAddons({ locale: 'de' });
    rating.value = { step: 'asked' };
    await screen.findByRole('radiogroup', { name: 'Wie war unsere Hilfe?' });
    expect(screen.getByLabelText('Noch etwas? (optional)')).toBeTruthy();
  });
});

describe('the agent typing (issue 34)', () => {
  it('says who is typing while they are, and nothing otherwise', async () => {
    const { typing } = renderAddons();
    expect(screen.queryByText(/is typing/)).toBeNull();
    typing.value = 'Anna';
    await screen.findByText('Anna is typing…');
    typing.value = null;
    await vi.waitFor(() => expect(screen.queryByText(/is typing/)).toBeNull());
  });
});
