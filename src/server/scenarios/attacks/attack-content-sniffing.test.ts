// @vitest-environment node
// Attack (issue 32, an outside scan): JSON answers came without `X-Content-Type-Options: nosniff`, so an old or lax
// browser could be led to read one as a script or a stylesheet (a product name or an error message holding
// `alert(1)//`, loaded with `<script src>` from the attacker's page). Every answer now says nosniff: JSON of each API,
// errors included, the task API's own responses, the SDK files and the console page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_API_BASE } from '../../../protocol/push';
import { TASK_API_PATH } from '../../../protocol/task';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { makeTestDist } from '../../testing/test-dist';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  taskApiKeys: [{ user: 'ops', key: 'nsk_task_key_for_sniff_tests' }],
  widgets: [{ id: 'shop', allowedOrigins: ['*'], productDataApiKeys: ['push-key-for-sniff-tests'] }],
});
if (!config.ok) throw new Error(config.error);

let service: RunningService;
beforeAll(async () => {
  service = await startService({ config: config.value, port: 0, distDir: makeTestDist() });
});
afterAll(() => service.close());

describe('attack: a JSON answer sniffed as a script', () => {
  const requests: [string, string, RequestInit?][] = [
    ['the widget config', '/v0/widget/shop/config'],
    ['an unknown widget (404)', '/v0/widget/nope/config'],
    ['an unknown endpoint (404)', '/nothing/here'],
    ['a conversation created (201)', '/v0/widget/shop/conversations', { method: 'POST' }],
    [
      'a bad body (400)',
      '/v0/widget/shop/conversations',
      { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } },
    ],
    ['the admin API without a key (401)', '/v0/admin/me'],
    ['the admin API (200)', '/v0/admin/me', { headers: { authorization: 'Bearer admin-key-123456' } }],
    ['the push API without a key (401)', `${PUSH_API_BASE}/product/shop/p-1`],
    ['the task API without a key (401)', `${TASK_API_PATH}/result?taskId=x`],
    [
      'the task API’s own error (400)',
      `${TASK_API_PATH}/result`,
      { headers: { authorization: 'Bearer nsk_task_key_for_sniff_tests' } },
    ],
    ['the health check', '/healthz'],
    ['an SDK file', '/sdk/loader.js'],
    ['an SDK file that is not there (404)', '/sdk/nope.js'],
    ['the console page', '/console'],
  ];

  for (const [name, path, init] of requests) {
    it(`answers ${name} with X-Content-Type-Options: nosniff`, async () => {
      const res = await fetch(`${service.url}${path}`, {
        ...init,
        headers: { origin: 'http://shop.test', ...init?.headers },
      });
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });
  }
});
