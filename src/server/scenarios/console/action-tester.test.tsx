// @vitest-environment node
// First: the DOM the testing library reads when it loads (the test stays in Node's environment for the service).
import '../../../console/settings/node-dom';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestPreview, typedParams } from '../../../console/settings/action-tester';
import { closeDom } from '../../../console/settings/node-dom';
import { createPreviewStore, type PreviewStore } from '../../../console/settings/preview-store';
import { createSettingsApi } from '../../../console/settings/settings-api';
import { SettingsSection } from '../../../console/settings/settings-section';
import { createSettingsStore } from '../../../console/settings/settings-store';
import type { ActionSettings } from '../../../protocol/widget-settings';
import { ADMIN_KEY, type PreviewService, startPreviewService } from '../../testing/preview-test-kit';

// The action tester in the Settings section, against the real service over HTTP and a real local integrator: typed
// inputs per parameter, the request as the service sends it, the answer (status, what the AI reads, the card), the
// error of a failed call; and the preview pane's frame on the preview's base URL.

const ACTION: ActionSettings = {
  name: 'Stock check',
  method: 'GET',
  url: 'https://shop.example/api/stock/{sku}',
  parameters: [
    { name: 'sku', type: 'string', required: true },
    { name: 'quantity', type: 'number' },
    { name: 'express', type: 'boolean' },
  ],
};

describe('the request shown', () => {
  it('types each input as its parameter, leaving out empty ones', () => {
    expect(typedParams(ACTION, { sku: 'A/1', quantity: '2.5', express: true })).toEqual({
      sku: 'A/1',
      quantity: 2.5,
      express: true,
    });
    expect(typedParams(ACTION, { sku: '  ', quantity: '' })).toEqual({ express: false });
  });

  it('is the URL the service calls: placeholders filled and encoded, the rest as the query of a GET', () => {
    const shown = requestPreview(ACTION, { sku: 'A/1', quantity: 2, express: false });
    expect(shown.ok && `${shown.value.method} ${shown.value.url}`).toBe(
      'GET https://shop.example/api/stock/A%2F1?quantity=2&express=false',
    );
    const post = requestPreview({ ...ACTION, method: 'POST' }, { sku: 'A1', quantity: 2 });
    expect(post.ok && post.value.body).toBe('{"quantity":2}');
    const missing = requestPreview(ACTION, {});
    expect(missing.ok ? null : missing.error.message).toBe('parameter sku has no value');
  });
});

describe('<ActionTester> in the Settings section (real service)', () => {
  let running: PreviewService;
  let preview: PreviewStore;
  beforeAll(async () => {
    running = await startPreviewService();
  });
  afterAll(async () => {
    await running?.close();
    await closeDom();
  });
  afterEach(async () => {
    preview?.stop();
    cleanup();
    await createSettingsApi(running.fetch).deleteDraft(ADMIN_KEY, 'demo');
  });

  async function setup() {
    const api = createSettingsApi(running.fetch);
    const ctx = {
      key: () => ADMIN_KEY,
      widgetId: () => 'demo',
      failed: (e: { message: string }) => e.message,
    };
    const store = createSettingsStore(api, ctx);
    preview = createPreviewStore(api, store, ctx, { debounceMs: 50 });
    render(<SettingsSection store={store} preview={preview} />);
    await screen.findByRole('heading', { name: 'Presentation' });
    fireEvent.click(screen.getByRole('link', { name: /^Actions/ }));
    return { store };
  }

  it('calls the action with typed parameters and shows the status, what the AI reads and the card', async () => {
    await setup();
    const frame = await waitFor(() => {
      const f = screen.getByTitle(/Chat preview/) as HTMLIFrameElement;
      return f;
    });
    expect(frame.getAttribute('src')).toMatch(/^\/console\/preview#widgetId=demo&baseUrl=.*%2Fpreview%2F/);

    fireEvent.click(screen.getByRole('button', { name: 'Test this action: Order status' }));
    const form = screen.getByRole('form', { name: 'Test Order status' });
    const input = within(form).getByLabelText(/orderId/);
    expect(input.getAttribute('required')).not.toBeNull();
    expect(within(form).getByText('(required)')).toBeTruthy();
    fireEvent.input(input, { target: { value: 'A-1002' } });
    expect(within(form).getByText(`GET ${running.integrator.url}/orders/A-1002`)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Call' }));

    await waitFor(() =>
      expect(within(form.parentElement!).getByRole('status').textContent).toBe('Answered, HTTP 200.'),
    );
    const result = document.querySelector('.tester-result') as HTMLElement;
    await within(result).findByText('What the AI reads');
    expect(result.textContent).toContain(`Sent GET ${running.integrator.url}/orders/A-1002`);
    expect(within(result).getByRole('region', { name: 'What the AI reads' }).textContent).toContain('A-1002');
    expect(within(result).getByText('What the shopper sees')).toBeTruthy();
    expect(result.querySelector('.tester-card')?.textContent).toContain('Shipped');
    expect(running.integrator.requests.at(-1)?.headers['x-service-preview']).toBe('1');
  });

  it('says a text answer is no card, rather than showing its raw Markdown as what the shopper sees', async () => {
    await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Test this action: Order status' }));
    const form = screen.getByRole('form', { name: 'Test Order status' });
    fireEvent.input(screen.getByLabelText('URL'), { target: { value: `${running.integrator.url}/hours` } });
    fireEvent.input(within(form).getByLabelText(/orderId/), { target: { value: 'X1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Call' }));
    await waitFor(() =>
      expect(within(form.parentElement!).getByRole('status').textContent).toBe('Answered, HTTP 200.'),
    );
    const result = document.querySelector('.tester-result') as HTMLElement;
    expect(within(result).getByRole('region', { name: 'What the AI reads' }).textContent).toContain(
      '**Open**',
    );
    expect(result.querySelector('.tester-card')).toBeNull();
    expect(result.textContent).toContain('No card: the assistant tells the shopper in words');
  });

  it("shows the error's code and message when the endpoint fails", async () => {
    await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Test this action: Order status' }));
    const form = screen.getByRole('form', { name: 'Test Order status' });
    // The integrator answers 404 for anything but an order.
    fireEvent.input(screen.getByLabelText('URL'), {
      target: { value: `${running.integrator.url}/missing/{orderId}` },
    });
    fireEvent.input(within(form).getByLabelText(/orderId/), { target: { value: 'X1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Call' }));
    await waitFor(() =>
      expect(within(form.parentElement!).getByRole('status').textContent).toMatch(/^Failed, HTTP 404/),
    );
    const result = document.querySelector('.tester-result') as HTMLElement;
    expect(result.textContent).toContain(`Sent GET ${running.integrator.url}/missing/X1`);
    expect(result.querySelector('.error code')?.textContent).toMatch(/\w+/);
  });
});
