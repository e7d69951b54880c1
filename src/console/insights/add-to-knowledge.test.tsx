import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { createConsoleApi } from '../api';
import { App } from '../app';
import { createSettingsStandIn } from '../settings/settings-test-kit';
import { type ConsoleStore, createConsoleStore } from '../store';
import { fakeInsightsService, TODAY } from './insights-test-kit';

// "Add to knowledge" (issue 35) through the whole console in the DOM: Insights → Settings → Knowledge for the same
// widget, a new section titled with the question and the focus in its text; the admin's stored draft (the chat
// preview's) is put back first and kept, never written over. The settings routes are the stand-in's, the insights
// routes the fake's, both at the fetch boundary.

const LIVE: EditableWidgetSettings = {
  allowedOrigins: ['https://shop.example'],
  title: 'Demo shop',
  knowledge: [{ title: 'Shipping', text: 'We ship in 2 days.' }],
};

const ADMIN = { id: 'admin', name: 'Admin', role: 'admin' } as const;
const ANNA = { id: 'anna', name: 'Anna', role: 'agent' } as const;

let signedIn: ConsoleStore | null = null;
afterEach(() => {
  signedIn?.signOut();
  signedIn = null;
  cleanup();
});

async function openConsole(key: string, drafts: Record<string, EditableWidgetSettings> = {}) {
  const settings = createSettingsStandIn({
    keys: { 'admin-key': ADMIN, 'anna-key': ANNA },
    widgets: { demo: LIVE, outlet: { ...LIVE, title: 'Outlet', knowledge: [] } },
    drafts,
  });
  const insights = fakeInsightsService();
  const fetchFn = (input: RequestInfo | URL, init?: RequestInit) =>
    /\/insights(\.csv)?$/.test(new URL(String(input), 'http://console.test').pathname)
      ? insights.fetchFn(input, init)
      : settings.fetch(input, init);
  const store = createConsoleStore(createConsoleApi(fetchFn as typeof fetch), {
    storage: null,
    now: () => TODAY,
    pollMs: 60_000,
    presenceMs: 60_000,
  });
  await store.signIn(key);
  signedIn = store;
  render(<App store={store} />);
  return { store, settings, insights };
}

const link = (name: string) => screen.getByRole('link', { name });

describe('"Add to knowledge"', () => {
  it('opens the knowledge editor with a section titled with the question and the focus in its text', async () => {
    const { store, settings } = await openConsole('admin-key');
    fireEvent.click(link('Insights'));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to knowledge: Can I pay by invoice?' }));

    await screen.findByRole('heading', { level: 2, name: 'Knowledge' });
    expect(link('Settings').getAttribute('aria-current')).toBe('page');
    const title = screen.getByLabelText('Title', { selector: '[data-path="knowledge[1].title"]' });
    expect((title as HTMLInputElement).value).toBe('Can I pay by invoice?');
    const text = screen.getByLabelText('Text (Markdown)', { selector: '[data-path="knowledge[1].text"]' });
    await waitFor(() => expect(document.activeElement).toBe(text));
    // The section says what it is about, and what it still needs.
    expect(text.closest('fieldset')?.querySelector('legend')?.textContent).toBe(
      'Section 2: Can I pay by invoice?',
    );
    expect(store.settings.isDirty.value).toBe(true);
    // Nothing is saved until the merchant writes the answer and saves.
    expect(settings.requests.some((r) => r.method === 'PUT' && r.url.includes('/settings'))).toBe(false);

    fireEvent.input(text, { target: { value: 'Yes, for orders over €50.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved as version 2. It is live now.');
    expect(settings.latest('demo').settings.knowledge).toEqual([
      { title: 'Shipping', text: 'We ship in 2 days.' },
      { title: 'Can I pay by invoice?', text: 'Yes, for orders over €50.' },
    ]);
  });

  it('adds to the widget shown on Insights', async () => {
    const { store } = await openConsole('admin-key');
    store.selectWidget('outlet');
    fireEvent.click(link('Insights'));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to knowledge: Do you sell gift cards?' }));
    await screen.findByRole('heading', { level: 2, name: 'Knowledge' });
    expect(store.settings.widgetId.value).toBe('outlet');
    expect(store.settings.draft.value?.knowledge).toEqual([{ title: 'Do you sell gift cards?', text: '' }]);
  });

  it('puts the admin’s stored draft back first and adds to it, without writing over it', async () => {
    const draft = { ...LIVE, title: 'Summer sale shop' };
    const { store, settings } = await openConsole('admin-key', { demo: draft });
    fireEvent.click(link('Insights'));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to knowledge: Can I pay by invoice?' }));
    await screen.findByRole('heading', { level: 2, name: 'Knowledge' });
    await waitFor(() =>
      expect(store.settings.draft.value?.knowledge?.map((k) => k.title)).toEqual([
        'Shipping',
        'Can I pay by invoice?',
      ]),
    );
    expect(store.settings.draft.value?.title).toBe('Summer sale shop');
    // An empty answer is not a valid draft: the stored one stays as it was until the text is written.
    expect(settings.draft('demo')).toEqual(draft);
    fireEvent.input(
      screen.getByLabelText('Text (Markdown)', { selector: '[data-path="knowledge[1].text"]' }),
      {
        target: { value: 'Yes.' },
      },
    );
    await waitFor(
      () =>
        expect(settings.draft('demo')?.knowledge?.[1]).toEqual({
          title: 'Can I pay by invoice?',
          text: 'Yes.',
        }),
      {
        timeout: 3000,
      },
    );
    expect(settings.draft('demo')?.title).toBe('Summer sale shop');
  });

  it('goes to the section a question has already, rather than adding a twin', async () => {
    const { store } = await openConsole('admin-key', {
      demo: { ...LIVE, knowledge: [{ title: 'Can I pay by invoice?', text: 'Not yet.' }] },
    });
    fireEvent.click(link('Insights'));
    fireEvent.click(await screen.findByRole('button', { name: 'Add to knowledge: Can I pay by invoice?' }));
    const text = await screen.findByLabelText('Text (Markdown)', {
      selector: '[data-path="knowledge[0].text"]',
    });
    await waitFor(() => expect(document.activeElement).toBe(text));
    expect(store.settings.draft.value?.knowledge).toEqual([
      { title: 'Can I pay by invoice?', text: 'Not yet.' },
    ]);
  });
});

describe('the Insights section', () => {
  it('is not offered to an agent, and cannot be entered by one', async () => {
    const { store } = await openConsole('anna-key');
    expect(screen.queryByRole('link', { name: 'Insights' })).toBeNull();
    store.showSection('insights');
    expect(store.section.value).toBe('conversations');
    store.addToKnowledge('Can I pay by invoice?');
    expect(store.section.value).toBe('conversations');
  });

  it('comes second in an admin’s navigation', async () => {
    const { store } = await openConsole('admin-key');
    expect(store.sections().map((s) => s.label)).toEqual([
      'Conversations',
      'Insights',
      'Settings',
      'Catalog',
      'Events',
    ]);
  });
});
