// Shared by the widget's tests: a real local HTTP service for `GET /config`, and helpers to read what a host page
// sees. Not part of the bundle (nothing but tests imports it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import {
  GLOBAL_NAME,
  HOST_TAG,
  LOG_PREFIX,
  type ServiceApi,
  type ServiceSettings,
  type WidgetConfig,
} from '../protocol';
import { type MountDefaults, mount } from './mount';

export const TEST_CONFIG: WidgetConfig = {
  greeting: 'Welcome to Acme! Ask me anything.',
  title: 'Acme helper',
  theme: { color: '#ff6600' },
  launcherPosition: 'bottom-left',
  linkTarget: '_blank',
  hideUrls: ['/checkout'],
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestService {
  baseUrl: string;
  /** Paths requested so far. */
  requests: string[];
  /** Replaces the handler for the following requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Answers `body` as JSON with CORS open, as the reference service does for the widget's routes. */
export const json =
  (body: unknown, status = 200): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    response.end(JSON.stringify(body));
  };

/** Never answers: for the config deadline. */
export const hang: Handler = () => {};

export async function startTestService(handler: Handler = json(TEST_CONFIG)): Promise<TestService> {
  let current = handler;
  const requests: string[] = [];
  const server = createServer((request, response) => {
    // happy-dom preflights every cross-origin fetch (browsers do not, for the widget's simple GET): answer it the
    // way the reference service's CORS middleware does, and hand the handler only the real requests.
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PUT',
        'access-control-allow-headers': 'authorization, content-type',
      });
      response.end();
      return;
    }
    requests.push(request.url ?? '');
    current(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `window.Service`, as a host page reads it. */
export const globalApi = (): ServiceApi | undefined =>
  (window as unknown as Record<string, ServiceApi | undefined>)[GLOBAL_NAME];

export const hostElement = (): HTMLElement | null => document.querySelector(HOST_TAG);

/** An element inside the widget's shadow root. */
export function part<T extends Element = HTMLElement>(selector: string): T {
  const found = hostElement()?.shadowRoot?.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in the widget`);
  return found;
}

/** Lets Preact apply the re-render a signal change scheduled. */
export const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Resolves after the next animation frame: the panel's focus and first scroll happen there (issue 36). */
export const nextFrame = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** `mount()` of widget `demo` against a test service, the test failing on an error; resolves after the first render. */
export async function mountWidget(
  baseUrl: string,
  settings: ServiceSettings = {},
  defaults: Partial<MountDefaults> = {},
): Promise<ServiceApi> {
  const result = await mount({ widgetId: 'demo', ...settings }, { baseUrl, ...defaults });
  if (!result.ok) throw new Error(result.error);
  await flush();
  return result.value;
}

/** Boot renders the launcher only; the closed panel is built in a later idle task. This waits for it. */
export async function untilPanel(timeoutMs = 3000): Promise<HTMLElement> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const panel = hostElement()?.shadowRoot?.querySelector<HTMLElement>('[part="panel"]');
    if (panel) return panel;
    if (Date.now() > deadline) throw new Error('the panel was never built');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Collects window events by name. */
export function recordEvents(...names: string[]): { events: CustomEvent[]; stop(): void } {
  const events: CustomEvent[] = [];
  const listener = (event: Event): void => {
    events.push(event as CustomEvent);
  };
  for (const name of names) window.addEventListener(name, listener);
  return {
    events,
    stop: () => {
      for (const name of names) window.removeEventListener(name, listener);
    },
  };
}

/** A console.error spy that keeps the test output quiet; `.mock.calls` is what the host page's console saw. */
export const spyConsoleError = () => vi.spyOn(console, 'error').mockImplementation(() => {});

/** Every `[service]` console.error so far, as text. */
export const serviceErrors = (spy: { mock: { calls: unknown[][] } }): string[] =>
  spy.mock.calls.map((args) => String(args[0])).filter((message) => message.startsWith(LOG_PREFIX));

/** Leaves the page as a fresh one: no widget, no storage, no settings. */
export function resetPage(): void {
  globalApi()?.destroy();
  for (const host of document.querySelectorAll(HOST_TAG)) host.remove();
  localStorage.clear();
  delete (window as unknown as Record<string, unknown>).serviceSettings;
}
