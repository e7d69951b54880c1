import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { createSettingsApi } from './settings-api';
import { SettingsSection } from './settings-section';
import { createSettingsStore } from './settings-store';
import { createSettingsStandIn } from './settings-test-kit';

// The Settings section in the DOM against the stand-in service: fields with their messages tied to them, the
// parameter editor's check as the merchant types, the focus after a refused save, a conflict, a rollback.

afterEach(cleanup);

const DEMO: EditableWidgetSettings = {
  allowedOrigins: ['https://shop.example'],
  title: 'Demo shop',
  actions: [{ name: 'Order status', method: 'POST', url: 'https://shop.example/api/orders', parameters: [] }],
};

async function setup() {
  const service = createSettingsStandIn({
    keys: { 'admin-key': { id: 'admin', name: 'Admin', role: 'admin' } },
    widgets: { demo: DEMO },
  });
  const store = createSettingsStore(createSettingsApi(service.fetch), {
    key: () => 'admin-key',
    widgetId: () => 'demo',
    failed: (e) => e.message,
  });
  render(<SettingsSection store={store} />);
  await screen.findByRole('heading', { name: 'Presentation' });
  return { service, store };
}

const type = (el: HTMLElement, value: string) => fireEvent.input(el, { target: { value } });
const editor = (name: string) => fireEvent.click(screen.getByRole('link', { name: new RegExp(`^${name}`) }));
/** The texts an element's aria-describedby points at. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

describe('<SettingsSection>', () => {
  it('warns beside the theme colour when white text on it is below AA, and ties the warning to the field', async () => {
    await setup();
    const hex = screen.getByLabelText('Theme colour');
    type(hex, '#ffcc00');
    expect(description(hex)).toMatch(/^Warning: White text on this colour has a contrast of 1\.\d\d:1/);
    expect(hex.getAttribute('aria-invalid')).toBeNull();
    type(hex, '#0a58c2');
    expect(description(hex)).not.toMatch(/Warning/);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('checks the URL placeholders against the parameters as the merchant types', async () => {
    await setup();
    editor('Actions');
    const url = screen.getByLabelText('URL');
    type(url, 'https://shop.example/api/orders/{orderNumber}');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(description(url)).toContain('{orderNumber} is not a parameter');
    fireEvent.click(screen.getByRole('button', { name: 'Add a parameter' }));
    type(
      screen.getByLabelText('Name', { selector: '[data-path="actions[0].parameters[0].name"]' }),
      'orderNumber',
    );
    expect(url.getAttribute('aria-invalid')).toBeNull();
    // As a GET, a parameter the URL does not use is named.
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'GET' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a parameter' }));
    const second = screen.getByLabelText('Name', { selector: '[data-path="actions[0].parameters[1].name"]' });
    type(second, 'email');
    expect(description(second)).toContain(
      '{email} is not in the URL: this GET sends it as a query parameter',
    );
  });

  it('after a refused save, shows the error in its editor and puts the focus on that field', async () => {
    const { service } = await setup();
    editor('Actions');
    type(screen.getByLabelText('URL'), 'https://shop.example/api/orders/{id}');
    editor('Limits');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('data-path')).toBe('actions[0].url'));
    expect(screen.getByRole('heading', { name: 'Actions' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Not saved: 1 error to fix');
    expect(service.requests.some((r) => r.method === 'PUT')).toBe(false);
    expect(screen.getByRole('link', { name: /^Actions/ }).textContent).toContain('1 error');
  });

  it('Site edits the origins, the hidden paths and the retention, one row each, and saves them', async () => {
    const { service } = await setup();
    editor('Site');
    fireEvent.click(screen.getByRole('button', { name: 'Add an origin' }));
    const second = screen.getByLabelText('Origin 2');
    await waitFor(() => expect(document.activeElement).toBe(second));
    type(second, 'https://second.example');
    fireEvent.click(screen.getByRole('button', { name: 'Add a path' }));
    type(screen.getByLabelText('Path 1'), '/checkout');
    type(screen.getByLabelText('Delete conversations idle for (days)'), '30');
    // The first origin removed: the focus goes to the row that is first now.
    fireEvent.click(screen.getByRole('button', { name: 'Remove origin 1' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Origin 1')));
    expect((screen.getByLabelText('Origin 1') as HTMLInputElement).value).toBe('https://second.example');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved as version 2. It is live now.');
    const put = service.requests.find((r) => r.method === 'PUT')?.body as {
      settings: EditableWidgetSettings;
    };
    expect(put.settings).toMatchObject({
      allowedOrigins: ['https://second.example'],
      hideUrls: ['/checkout'],
      retentionDays: 30,
    });
  });

  it('Site warns, without refusing, when no origin is left: the widget would work on no page', async () => {
    await setup();
    editor('Site');
    expect(screen.queryByText(/works on no page/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove origin 1' }));
    expect(screen.getByText(/With no origin, the widget works on no page of the store/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe('add-allowed-origin'));
  });

  it("shows the service's issue beside its field after a 400", async () => {
    await setup();
    const title = screen.getByLabelText('Title');
    type(title, '  ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(description(title)).toContain('Error: Must not be empty');
  });

  it('on a conflict, says another save came first and reloads only when asked', async () => {
    const { service, store } = await setup();
    type(screen.getByLabelText('Title'), 'Mine');
    service.saveElsewhere('demo', (s) => {
      s.title = 'Theirs';
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/Another save came first/);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Mine');
    fireEvent.click(screen.getByRole('button', { name: 'Reload the latest version' }));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Theirs'));
    expect(store.version.value).toBe(2);
  });

  it('saves, lists the versions with a diff, and rolls back after a confirmation', async () => {
    await setup();
    type(screen.getByLabelText('Title'), 'Version two');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved as version 2. It is live now.');
    editor('Versions');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Show changes of version 2' }));
    await screen.findByRole('heading', { name: 'Version 2 against version 1' });
    await waitFor(() =>
      expect([...document.querySelectorAll('.diff-row')].map((row) => row.textContent)).toEqual([
        'Title titleBefore: Demo shop→After: Version two',
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Roll back to this version (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await screen.findByText('Rolled back: version 3 has the settings of version 1. It is live now.');
    editor('Presentation');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Demo shop');
  });
});
