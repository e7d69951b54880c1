import { fireEvent, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_CHAT_CLOSE, type ServiceApi } from '../protocol';
import {
  flush,
  hostElement,
  json,
  mountWidget as mountWidgetAt,
  nextFrame,
  part,
  recordEvents,
  resetPage,
  spyConsoleError,
  startTestService,
  TEST_CONFIG,
  type TestService,
  untilPanel,
} from './test-support';

let service: TestService;

beforeAll(async () => {
  service = await startTestService(json(TEST_CONFIG));
});
afterAll(() => service.close());
beforeEach(() => {
  spyConsoleError();
});
afterEach(resetPage);

const mountWidget = (): Promise<ServiceApi> => mountWidgetAt(service.baseUrl, { locale: 'en' });

/** Testing Library queries scoped to the widget's shadow root. */
const widget = () => within(part('.root'));
const shadowFocus = (): Element | null | undefined => hostElement()?.shadowRoot?.activeElement;

describe('launcher', () => {
  it('is a button named "Open chat" that controls the panel once the panel is built', async () => {
    await mountWidget();
    expect(part('[part="launcher"]').hasAttribute('aria-controls')).toBe(false);
    await untilPanel();
    const launcher = widget().getByRole('button', { name: 'Open chat' });
    expect(launcher.getAttribute('part')).toBe('launcher');
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(launcher.getAttribute('aria-haspopup')).toBe('dialog');
    expect(part(`#${launcher.getAttribute('aria-controls')}`).getAttribute('part')).toBe('panel');
  });

  it('opens the chat, then closes it, and says which it will do', async () => {
    const api = await mountWidget();
    fireEvent.click(part('[part="launcher"]'));
    await flush();
    expect(api.isOpen).toBe(true);
    const launcher = part('[part="launcher"]');
    expect(launcher.getAttribute('aria-expanded')).toBe('true');
    expect(launcher.getAttribute('aria-label')).toBe('Close chat');
    fireEvent.click(launcher);
    await flush();
    expect(api.isOpen).toBe(false);
  });
});

describe('panel', () => {
  it('is a dialog labelled by its title, hidden while closed', async () => {
    await mountWidget();
    const panel = await untilPanel();
    expect(panel.getAttribute('role')).toBe('dialog');
    expect(part(`#${panel.getAttribute('aria-labelledby')}`).textContent).toBe('Acme helper');
    expect(panel.hidden).toBe(true);
  });

  it('has a labelled composer and a messages region', async () => {
    const api = await mountWidget();
    api.openChat();
    await flush();
    expect(widget().getByRole('dialog', { name: 'Acme helper' })).toBeTruthy();
    expect(widget().getByLabelText('Message').tagName).toBe('TEXTAREA');
    expect(widget().getByRole('log', { name: 'Conversation' }).getAttribute('part')).toBe('messages');
    expect(part('[part="composer"]').tagName).toBe('FORM');
    expect(widget().getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('closes with its close button and gives focus back to the launcher', async () => {
    const api = await mountWidget();
    fireEvent.click(part('[part="launcher"]'));
    await flush();
    // The focus moves in the frame that shows the panel, not inside the click.
    await nextFrame();
    expect(shadowFocus()).toBe(part('textarea'));
    const events = recordEvents(EVENT_CHAT_CLOSE);
    // The launcher is named "Close chat" now too; this is the panel's own button.
    fireEvent.click(within(part('[part="panel"]')).getByRole('button', { name: 'Close chat' }));
    events.stop();
    await flush();
    expect(api.isOpen).toBe(false);
    expect(events.events).toHaveLength(1);
    expect(shadowFocus()).toBe(part('[part="launcher"]'));
  });
});

describe('Escape', () => {
  it('closes the panel from anywhere inside it, and does not reach the page', async () => {
    const api = await mountWidget();
    const pageSawEscape: Event[] = [];
    const pageListener = (event: Event): void => {
      pageSawEscape.push(event);
    };
    document.addEventListener('keydown', pageListener);
    api.openChat();
    await flush();
    fireEvent.keyDown(part('textarea'), { key: 'Escape', bubbles: true, composed: true });
    await flush();
    // Closed before the frame that would have focused the composer: the focus stays on the launcher.
    await nextFrame();
    document.removeEventListener('keydown', pageListener);
    expect(api.isOpen).toBe(false);
    expect(pageSawEscape).toHaveLength(0);
    expect(shadowFocus()).toBe(part('[part="launcher"]'));
  });

  it('on a touch device, focuses the panel in the frame after the open, and not when it closed before that frame', async () => {
    // A phone: the panel itself takes the focus (no keyboard pops up), in the frame that paints it.
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: query === '(pointer: coarse)',
    })) as typeof matchMedia;
    try {
      const api = await mountWidget();
      api.openChat();
      await flush();
      await nextFrame();
      expect(shadowFocus()).toBe(part('[part="panel"]'));
      api.closeChat();
      await flush();
      api.openChat();
      // The render is a microtask; it asks for the frame that moves the focus. The close comes before that frame.
      for (let i = 0; i < 5; i++) await Promise.resolve();
      api.closeChat();
      await flush();
      await nextFrame();
      expect(api.isOpen).toBe(false);
      expect(shadowFocus()).not.toBe(part('[part="panel"]'));
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('returns focus to what had it before when the launcher is hidden', async () => {
    const api = await mountWidget();
    const ownButton = document.createElement('button');
    document.body.append(ownButton);
    ownButton.focus();
    api.hideLauncher();
    api.openChat();
    await flush();
    fireEvent.keyDown(part('[part="panel"]'), { key: 'Escape' });
    await flush();
    expect(document.activeElement).toBe(ownButton);
    ownButton.remove();
  });
});

describe('composer', () => {
  it('Enter sends the draft as a pending message; Shift+Enter does not', async () => {
    const api = await mountWidget();
    api.openChat();
    await flush();
    const textarea = part<HTMLTextAreaElement>('textarea');
    fireEvent.input(textarea, { target: { value: 'line one' } });
    await flush();
    expect(fireEvent.keyDown(textarea, { key: 'Enter', shiftKey: true })).toBe(true);
    await flush();
    expect(part('[part="messages"]').querySelectorAll('.user')).toHaveLength(0);
    expect(fireEvent.keyDown(textarea, { key: 'Enter' })).toBe(false);
    await flush();
    const sent = part('[part="messages"]').querySelectorAll('.user');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.textContent).toBe('line oneSending…');
    expect(part<HTMLTextAreaElement>('textarea').value).toBe('');
  });

  it('keeps the draft in the store: closing and reopening keeps it', async () => {
    const api = await mountWidget();
    api.openChat();
    await flush();
    fireEvent.input(part('textarea'), { target: { value: 'half a thought' } });
    api.closeChat();
    api.openChat();
    await flush();
    expect(part<HTMLTextAreaElement>('textarea').value).toBe('half a thought');
  });

  it('disables Send while the draft is blank', async () => {
    const api = await mountWidget();
    api.openChat();
    await flush();
    const send = widget().getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.input(part('textarea'), { target: { value: 'hi' } });
    await flush();
    expect(send.disabled).toBe(false);
  });
});
