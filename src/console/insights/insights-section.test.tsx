import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { DayTable, plotSummary } from './day-plot';
import { RANGE_MESSAGES } from './insights-format';
import { InsightsSection } from './insights-section';
import { INSIGHTS_MESSAGES } from './insights-store';
import { daysOf, EMPTY, INSIGHTS, json, setupInsights } from './insights-test-kit';

// The Insights page in the DOM against the fake admin API: the figures as a merchant reads them, every day in a real
// table, the states (loading, empty, failed) with what to do, and the buttons.

afterEach(cleanup);

async function renderPage(setup = setupInsights(), added: string[] = []) {
  const view = render(
    <InsightsSection store={setup.store} widgetId="demo" onAddToKnowledge={(q) => added.push(q)} />,
  );
  return { ...setup, ...view, added };
}

/** The figure tiles as label → [value, note]. */
const figures = (container: Element) =>
  Object.fromEntries(
    [...container.querySelectorAll('.figure')].map((f) => [
      f.querySelector('dt')?.textContent,
      [f.querySelector('.figure-value')?.textContent, f.querySelector('.figure-note')?.textContent],
    ]),
  );

/** A table's body as rows of cell texts (row header first). */
const rows = (table: Element) =>
  [...table.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));

describe('<InsightsSection>', () => {
  it('shows the figures: counts, shares of the conversations, pending ones, the rating, thumbs, reply time', async () => {
    const { container } = await renderPage();
    await screen.findByRole('heading', { level: 2, name: /^May 2\s–\s31, 2026$/ });
    expect(figures(container)).toEqual({
      Conversations: ['42', 'in which the shopper wrote'],
      'Resolved by the assistant': [
        '30',
        '71% of conversations; 3 more pending (answered under 24\u00a0h ago)',
      ],
      'Handed over to a person': ['8', '19% of conversations'],
      'Rating of a person’s help': ['4.3 of 5', 'from 6 ratings'],
      'Thumbs on answers': ['12 up · 3 down', 'under the assistant’s answers'],
      'Median first human reply': ['1 h 12 min', 'from asking for a person to their first message'],
      'Added to cart': ['17', 'from the assistant’s product cards'],
    });
    expect(container.querySelector('.time-zone')?.textContent).toBe('Days in Europe/Berlin');
  });

  it('says "—" for the rating and the reply time when there are none', async () => {
    const setup = setupInsights();
    setup.service.insights = () =>
      json(200, { ...INSIGHTS, ratings: { count: 0, average: null }, medianFirstHumanReplySeconds: null });
    const { container } = await renderPage(setup);
    await screen.findByRole('heading', { name: 'By day' });
    const shown = figures(container);
    expect(shown['Rating of a person’s help']).toEqual(['—', 'No ratings yet']);
    expect(shown['Median first human reply']).toEqual([
      '—',
      'No one who asked for a person has had an answer yet',
    ]);
  });

  it('puts every day in a table with a caption and headers beside each plot, which is an image with a summary', async () => {
    await renderPage();
    const table = await screen.findByRole('table', { name: /^Conversations per day, May 2\s–\s31, 2026$/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Day', 'Conversations']);
    const body = rows(table);
    expect(body).toHaveLength(30);
    expect(body[0]).toEqual(['Sat May 2', '0']);
    expect(body[12]).toEqual(['Thu May 14', '7']);
    expect(table.querySelector('tr[data-date="2026-05-14"] time')?.getAttribute('datetime')).toBe(
      '2026-05-14',
    );

    const resolved = screen.getByRole('table', { name: /^Resolved by the assistant per day/ });
    expect(rows(resolved)[12]).toEqual(['Thu May 14', '5', '71%']);
    // A day without conversations has no share.
    expect(rows(resolved)[0]).toEqual(['Sat May 2', '0', '—']);
    expect(rows(screen.getByRole('table', { name: /^Handed over to a person per day/ }))[18]).toEqual([
      'Wed May 20',
      '6',
      '17%',
    ]);

    const plot = screen.getByRole('img', { name: /^Bar plot of conversations per day/ });
    expect(plot.getAttribute('aria-label')).toMatch(
      /^Bar plot of conversations per day, May 2\s–\s31, 2026: 42 in all, most on May 20 \(35\)\. The table beside it lists every day\.$/,
    );
    // The table scrolls by itself: it can take the focus, and is named by its caption.
    expect(
      screen.getByRole('region', { name: /^Conversations per day, May 2/ }).getAttribute('tabindex'),
    ).toBe('0');
  });

  it('lists the top questions and the knowledge gaps with their counts; "Add to knowledge" hands on the question', async () => {
    const { added } = await renderPage();
    const top = within(await screen.findByRole('region', { name: 'Top questions' }));
    expect(top.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Where is my order?9 conversations',
      'Do you ship to Austria?5 conversations',
    ]);
    const gaps = within(screen.getByRole('region', { name: 'Knowledge gaps' }));
    expect(gaps.getByText(/Questions the assistant could not answer/)).toBeTruthy();
    const button = gaps.getByRole('button', { name: 'Add to knowledge: Do you sell gift cards?' });
    expect(gaps.getByText('1 conversation')).toBeTruthy();
    fireEvent.click(button);
    expect(added).toEqual(['Do you sell gift cards?']);
  });

  it('shows the questions as text, never as markup', async () => {
    const setup = setupInsights();
    setup.service.insights = () =>
      json(200, { ...INSIGHTS, unanswered: [{ text: '<img src=x onerror=alert(1)>', count: 2 }] });
    const { container } = await renderPage(setup);
    await screen.findByText('<img src=x onerror=alert(1)>');
    expect(container.querySelector('.question-list img')).toBeNull();
  });

  it('says so when the range has no conversations, and what to do', async () => {
    const setup = setupInsights();
    setup.service.insights = () => json(200, EMPTY);
    const { container } = await renderPage(setup);
    await screen.findByRole('heading', { name: /^No conversations in May 2\s–\s31, 2026$/ });
    expect(container.querySelector('[data-state="empty"]')?.textContent).toContain('Pick a longer range');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('says it is loading, then shows the figures', async () => {
    const setup = setupInsights();
    let release: (r: Response) => void = () => {};
    setup.service.insights = () => new Promise<Response>((ok) => (release = ok));
    const { container } = await renderPage(setup);
    await screen.findByText('Loading the insights…');
    release(json(200, INSIGHTS));
    await screen.findByRole('heading', { name: 'By day' });
    expect(screen.queryByText('Loading the insights…')).toBeNull();
    expect(container.querySelector('[data-live="insights"]')?.textContent).toMatch(/42 conversations\.$/);
  });

  it('tells an agent’s key it needs an admin’s (403), without a button that cannot help', async () => {
    const setup = setupInsights();
    setup.service.insights = () => json(403, { error: { code: 'forbidden', message: 'Admins only.' } });
    await renderPage(setup);
    expect((await screen.findByRole('alert')).textContent).toBe(INSIGHTS_MESSAGES.forbidden);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('after a network failure, "Try again" reads again', async () => {
    const setup = setupInsights();
    setup.fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await renderPage(setup);
    expect((await screen.findByRole('alert')).textContent).toContain(INSIGHTS_MESSAGES.network);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'By day' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('checks the dates on "Show": the message tied to both inputs, nothing asked until they make a range', async () => {
    const { requests } = await renderPage();
    await screen.findByRole('heading', { name: 'By day' });
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    expect([from.value, to.value]).toEqual(['2026-05-02', '2026-05-31']);
    fireEvent.input(from, { target: { value: '2026-06-15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe(RANGE_MESSAGES.backwards);
    for (const input of [from, to]) {
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(input.getAttribute('aria-describedby')).toBe(message.id);
    }
    fireEvent.input(from, { target: { value: '2026-05-20' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1].query).toEqual({ from: '2026-05-20', to: '2026-05-31' });
  });

  it('says a date is missing in its own words, the form not left to the browser’s checks', async () => {
    await renderPage();
    await screen.findByRole('heading', { name: 'By day' });
    const to = screen.getByLabelText('To') as HTMLInputElement;
    expect(to.closest('form')?.noValidate).toBe(true);
    fireEvent.input(to, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect((await screen.findByRole('alert')).textContent).toBe(RANGE_MESSAGES.missing);
  });

  it('"Download CSV" saves the file of the range shown and says so', async () => {
    const { saved, container } = await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('insights-demo-2026-05-02-2026-05-31.csv');
    expect(container.querySelector('[data-live="insights"]')?.textContent).toBe(
      'Downloaded insights-demo-2026-05-02-2026-05-31.csv.',
    );
  });
});

describe('<DayTable>', () => {
  it('has a row for every day, zeros included, each headed by its date', () => {
    const days = daysOf('2026-02-27', '2026-03-02', { '2026-03-01': { conversations: 3, handedOver: 1 } });
    render(<DayTable metric="handedOver" days={days} caption="Handed over" captionId="c" />);
    const table = screen.getByRole('table', { name: 'Handed over' });
    expect(rows(table)).toEqual([
      ['Fri Feb 27', '0', '—'],
      ['Sat Feb 28', '0', '—'],
      ['Sun Mar 1', '1', '33%'],
      ['Mon Mar 2', '0', '—'],
    ]);
    expect(within(table).getAllByRole('rowheader')).toHaveLength(4);
  });
});

describe('plotSummary()', () => {
  it('says the total and the busiest day, or only the total when there is none', () => {
    const days = daysOf('2026-05-01', '2026-05-03', { '2026-05-02': { conversations: 4 } });
    expect(plotSummary('Conversations per day', 'conversations', days)).toMatch(
      /^Bar plot of conversations per day, May 1\s–\s3, 2026: 4 in all, most on May 2 \(4\)\./,
    );
    expect(plotSummary('Handed over to a person per day', 'handedOver', days)).toMatch(
      /: 0 in all\. The table beside it lists every day\.$/,
    );
  });
});
