// @vitest-environment node
// First: the DOM the testing library reads when it loads (the test stays in Node's environment for the service).
import '../../../console/settings/node-dom';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { previewSettings } from '../../../console/preview-frame/preview-frame';
import { closeDom } from '../../../console/settings/node-dom';
import { createPreviewStore, type PreviewStore } from '../../../console/settings/preview-store';
import { createSettingsApi } from '../../../console/settings/settings-api';
import { SettingsSection } from '../../../console/settings/settings-section';
import { createSettingsStore } from '../../../console/settings/settings-store';
import { ADMIN_KEY, type PreviewService, startPreviewService } from '../../testing/preview-test-kit';

// Hostile input to the chat preview's console side: an integrator's answer shown by the action tester (markup and
// script URLs stay text, never markup or links), and a preview link whose fragment points the widget elsewhere.

let running: PreviewService;
let preview: PreviewStore | undefined;
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

async function callOrderStatus(body: string, contentType: string) {
  running.integrator.respond = (_req, res) => res.writeHead(200, { 'content-type': contentType }).end(body);
  const api = createSettingsApi(running.fetch);
  const ctx = { key: () => ADMIN_KEY, widgetId: () => 'demo', failed: (e: { message: string }) => e.message };
  const store = createSettingsStore(api, ctx);
  preview = createPreviewStore(api, store, ctx, { debounceMs: 50 });
  render(<SettingsSection store={store} preview={preview} />);
  await screen.findByRole('heading', { name: 'Presentation' });
  fireEvent.click(screen.getByRole('link', { name: /^Actions/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Test this action: Order status' }));
  const form = screen.getByRole('form', { name: 'Test Order status' });
  fireEvent.input(within(form).getByLabelText(/orderId/), { target: { value: '1' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Call' }));
  await waitFor(() => expect(document.querySelector('.tester-result')).not.toBeNull());
  return document.querySelector('.tester-result') as HTMLElement;
}

describe('attack: hostile answers in the action tester', () => {
  it('shows markup in what the AI reads as text: no element, no handler', async () => {
    const result = await callOrderStatus(
      '<img src=x onerror="alert(1)"><script>alert(2)</script>',
      'text/plain',
    );
    const aiText = within(result).getByRole('region', { name: 'What the AI reads' });
    expect(aiText.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(result.querySelector('img, script, [onerror]')).toBeNull();
  });

  it("never makes a javascript: URL of a card's link", async () => {
    const result = await callOrderStatus(
      JSON.stringify({ name: 'Trap <b>bold</b>', price: '1 EUR', url: 'javascript:alert(1)' }),
      'application/json',
    );
    const card = result.querySelector('.tester-card') as HTMLElement;
    expect(card.textContent).toContain('Trap <b>bold</b>');
    expect(card.querySelector('b')).toBeNull();
    for (const a of card.querySelectorAll('a'))
      expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
  });
});

describe('attack: a preview link pointing the widget at another server', () => {
  it.each([
    ['another origin', 'https://evil.example/preview/pv_x'],
    ['a protocol-relative address', '//evil.example/preview/pv_x'],
    ['the same host on another port', 'http://console.test:8080/preview/pv_x'],
    ['a script URL', 'javascript:alert(1)//preview/'],
    ['a path climbing out of /preview/', 'http://console.test/preview/../v0/admin'],
  ])('refuses %s', (_, baseUrl) => {
    const hash = `#${new URLSearchParams({ widgetId: 'demo', baseUrl })}`;
    expect(previewSettings(hash, 'http://console.test')).toBeNull();
  });
});
