import { request as httpRequest } from 'node:http';
import { parseConfig } from '../config/service-config';
import { type RunningService, startService } from '../start';
import { type RecordingServer, startRecordingServer } from './test-servers';

// The chat preview's tests run the real service over HTTP (its settings, draft, preview and action-test routes) and a
// real local integrator for the custom action: nothing of the service is faked.

export const ADMIN_KEY = 'admin-key-for-preview-tests-0123456789';

export interface PreviewService {
  service: RunningService;
  baseUrl: string;
  integrator: RecordingServer;
  /** `fetch` to the service over node:http: the same in Node and in happy-dom (whose own fetch applies CORS). */
  fetch: typeof fetch;
  close(): Promise<void>;
}

/** An order card, as the integrator answers an order lookup. */
export const ORDER_BODY = JSON.stringify({
  order_id_value: 'A-1002',
  timeline: { step: [{ label: 'Shipped', status: 'in_progress' }] },
});

export async function startPreviewService(): Promise<PreviewService> {
  const integrator = await startRecordingServer('http');
  integrator.respond = (req, res) => {
    if (req.pathname.startsWith('/orders/'))
      res.writeHead(200, { 'content-type': 'application/json' }).end(ORDER_BODY);
    else if (req.pathname === '/hours')
      res.writeHead(200, { 'content-type': 'text/plain' }).end('**Open** Monday to Friday, 9:00-18:00.');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('No such order.');
  };
  const config = parseConfig({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'demo',
        title: 'Demo shop',
        allowedOrigins: ['*'],
        actions: [
          {
            name: 'Order status',
            description: 'Looks up an order by its number.',
            method: 'GET',
            url: `${integrator.url}/orders/{orderId}`,
            parameters: [{ name: 'orderId', type: 'string', required: true }],
          },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  const service = await startService({ config: config.value, port: 0 });
  const baseUrl = service.url;
  return {
    service,
    baseUrl,
    integrator,
    fetch: nodeFetch(baseUrl),
    async close() {
      await service.close();
      await integrator.close();
    },
  };
}

/** A minimal `fetch` over node:http for same-origin paths of the service (method, headers, a string body). */
function nodeFetch(baseUrl: string): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input), baseUrl);
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const req = httpRequest(url, { method: init?.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks).toString('utf8');
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
          resolve(new Response(body, { status, headers: out }));
        });
      });
      req.on('error', reject);
      if (typeof init?.body === 'string') req.write(init.body);
      req.end();
    })) as typeof fetch;
}
