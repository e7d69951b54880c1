import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogProductView, matchText } from './catalog-product';
import { CatalogSection } from './catalog-section';
import { FAILED, FEED_URL, json, product, SUMMARY, setupCatalog } from './catalog-test-kit';

afterEach(cleanup);

const XSS = '<img src=x onerror=alert(1)>';

async function renderPage(setup = setupCatalog()) {
  const view = render(<CatalogSection store={setup.store} widgetId="demo" />);
  await screen.findByRole('heading', { name: 'Feeds' });
  return { ...setup, ...view };
}

describe('<CatalogSection>', () => {
  it("shows the product count and each feed's last run: counts, accepted, rejected items with their reasons", async () => {
    const { container } = await renderPage();
    expect(container.querySelector('[data-count="products"]')?.textContent).toBe('12 products');
    expect(container.querySelector('.product-count')?.textContent).toContain('(1 hidden from shoppers)');
    const run = container.querySelector('.last-run');
    expect(run?.getAttribute('data-status')).toBe('applied');
    expect(run?.textContent).toContain('Applied');
    expect(run?.textContent).toContain('2 added, 1 updated, 0 removed, 7 unchanged.');
    const feed = within(screen.getByRole('heading', { name: FEED_URL }).closest('article') as HTMLElement);
    expect(feed.getByText('10 products accepted, 6 rejected')).toBeTruthy();
    const rows = [...container.querySelectorAll('.rejected tbody tr')].map((r) =>
      [...r.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ['#4', 'https://shop.example/p/3', 'name is required'],
      ['#8', '—', 'item must be an object'],
    ]);
    expect(feed.getByText('and 4 more items not listed here.')).toBeTruthy();
  });

  it('says plainly that a failed feed was not applied and the catalog kept its products', async () => {
    const setup = setupCatalog();
    setup.service.status = FAILED;
    const { container } = await renderPage(setup);
    expect(container.querySelector('.last-run')?.textContent).toContain('Not applied');
    expect(container.querySelector('.last-run .error')?.textContent).toBe(
      'A feed could not be used, so nothing of this refresh was applied. The catalog keeps the products it had.',
    );
    expect(container.querySelector('.feed-error')?.textContent).toBe(
      'This feed could not be used: the feed answered 503.',
    );
  });

  it('says when no refresh has finished, and offers no refresh for a widget without feeds', async () => {
    const setup = setupCatalog();
    setup.service.status = { status: 'never-run' };
    await renderPage(setup);
    expect(screen.getByText('No refresh has finished since the service started.')).toBeTruthy();
    expect(screen.getByText('Not read yet.')).toBeTruthy();
    cleanup();

    const plain = setupCatalog();
    plain.service.summary = { ...SUMMARY, feeds: [] };
    await renderPage(plain);
    expect(
      screen.getByText('This widget has no feeds: its products come from the push API alone.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refresh now' })).toBeNull();
  });

  it('refreshes on "Refresh now" with a progress bar, the button staying focusable, then shows the new run', async () => {
    const setup = setupCatalog();
    let release: (r: Response) => void = () => {};
    setup.service.refresh = () => new Promise<Response>((ok) => (release = ok));
    const { container } = await renderPage(setup);
    const button = screen.getByRole('button', { name: 'Refresh now' });
    button.focus();
    fireEvent.click(button);
    await screen.findByRole('progressbar', { name: 'Refreshing the feeds' });
    expect(button.textContent).toBe('Refreshing…');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button);
    release(json(200, FAILED));
    await waitFor(() =>
      expect(container.querySelector('.last-run')?.getAttribute('data-status')).toBe('failed'),
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(container.querySelector('[data-live="catalog"]')?.textContent).toBe(
      'Refresh failed: a feed could not be used. The catalog was left as it was.',
    );
  });

  it('looks a product up from the box and shows it as a card with its details', async () => {
    const setup = setupCatalog();
    setup.service.lookup = (q) =>
      json(200, {
        widgetId: 'demo',
        products: q.get('id') === 'TR-100' ? [product()] : [],
        counts: SUMMARY.counts,
      });
    await renderPage(setup);
    const box = screen.getByLabelText('Id, sku, url or words');
    fireEvent.input(box, { target: { value: 'TR-100' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await screen.findByRole('heading', { name: '1 product with the id “TR-100”' });
    const card = within(screen.getByRole('article', { name: 'Trail Runner' }));
    expect(card.getByRole('link', { name: 'Trail Runner' }).getAttribute('href')).toBe(
      'https://shop.example/p/trail',
    );
    expect(card.getByText('€89.95')).toBeTruthy();
    expect(card.getByText('in stock')).toBeTruthy();
    const facts = Object.fromEntries(
      [...document.querySelectorAll('.catalog-facts > div')].map((d) => [
        d.querySelector('dt')?.textContent,
        d.querySelector('dd')?.textContent,
      ]),
    );
    expect(facts).toMatchObject({
      Identifier: 'P-1',
      'Found by': 'its sku',
      Source: FEED_URL,
      SKU: 'TR-100',
    });
    expect(card.getByRole('rowheader', { name: 'colour' }).nextElementSibling?.textContent).toBe('blue');
  });

  it('says when nothing was found, and shows the refused reason next to the box', async () => {
    const setup = setupCatalog();
    await renderPage(setup);
    const box = screen.getByLabelText('Id, sku, url or words');
    fireEvent.input(box, { target: { value: 'nothing like it' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await screen.findByRole('heading', { name: 'Nothing found for “nothing like it”' });
    fireEvent.input(box, { target: { value: ' ' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Enter an id, a sku, a url or some words.');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toContain(alert.id);
  });
});

describe('<CatalogProductView>', () => {
  it('shows hostile product data as text, links only http(s), and flags a hidden product without a card', () => {
    const { container } = render(
      <CatalogProductView
        product={product({
          identifier: XSS,
          productData: {
            displayText: XSS,
            url: 'javascript:alert(1)',
            imageUrl: 'javascript:alert(2)',
            description: `${XSS} ${'long words '.repeat(40)}`,
            attributes: { [XSS]: XSS },
            visible: false,
          },
          card: null,
          visible: false,
          source: 'push',
          feedUrl: undefined,
          pushedFields: ['price', 'visible'],
          match: { by: 'search', exactCode: false, allTerms: true, rank: 0.0607927 },
        })}
      />,
    );
    expect(container.querySelectorAll('a, img, [onerror]').length).toBe(0);
    expect(screen.getByRole('heading', { name: XSS })).toBeTruthy();
    expect(screen.getByText('Hidden from shoppers')).toBeTruthy();
    expect(screen.getByText('No card: needs a price and an http(s) url')).toBeTruthy();
    expect(screen.getByText('No price')).toBeTruthy();
    const facts = Object.fromEntries(
      [...container.querySelectorAll('.catalog-facts > div')].map((d) => [
        d.querySelector('dt')?.textContent,
        d.querySelector('dd')?.textContent,
      ]),
    );
    expect(facts).toMatchObject({
      Identifier: XSS,
      'Found by': 'search: every word, rank 0.061',
      Source: 'Added by the push API',
      'Changed by push': 'price, visible',
      'Product url': 'javascript:alert(1)',
    });
    // A long description shows its start, the whole one a click away.
    expect(container.querySelector('.description summary')?.textContent?.endsWith('…')).toBe(true);
  });

  it('names how a product was matched', () => {
    expect(matchText({ by: 'gtin' })).toBe('its gtin');
    expect(matchText({ by: 'search', exactCode: true, allTerms: false, rank: 0.1 })).toBe(
      'search: its code is in the words, rank 0.100',
    );
    expect(matchText({ by: 'search', exactCode: false, allTerms: false, rank: 0 })).toBe(
      'search: some of the words, rank 0.000',
    );
  });
});
