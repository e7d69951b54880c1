// @vitest-environment node
// Attack (issue 32, an outside scan): at `LOG_LEVEL=debug` the service logs each request's headers, and the push
// API's `API-Key` went into the log in clear (the redaction list named `x-api-key` only); and the logger's mixin
// handed each line the request's own store, so the debug line's fields (the headers) rode along into every later
// line of the request, the access line among them. Whoever reads the log (a log shipper, a support engineer) must
// find no key in it, and each line only its own fields and the request id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_API_BASE } from '../../../protocol/push';
import { TASK_API_PATH } from '../../../protocol/task';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { makeTestDist } from '../../testing/test-dist';

const PUSH_KEY = 'push-key-never-in-a-log-1';
const ADMIN_KEY = 'admin-key-never-in-a-log';
const AGENT_KEY = 'agent-key-never-in-a-log';
const TASK_KEY = 'nsk_task_key_never_in_a_log';

const config = parseConfig({
  adminKey: ADMIN_KEY,
  agents: [{ id: 'anna', name: 'Anna', role: 'agent', key: AGENT_KEY }],
  taskApiKeys: [{ user: 'ops', key: TASK_KEY }],
  widgets: [{ id: 'shop', allowedOrigins: ['*'], productDataApiKeys: [PUSH_KEY] }],
});
if (!config.ok) throw new Error(config.error);

const written: string[] = [];
let service: RunningService;
beforeAll(async () => {
  service = await startService({
    config: config.value,
    port: 0,
    distDir: makeTestDist(),
    logLevel: 'debug',
    logWrite: (line) => written.push(line),
  });
});
afterAll(() => service.close());

const linesOf = (from: number) => written.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('attack: credentials and earlier fields in the debug log', () => {
  it('never writes the push API-Key, the admin or agent key or the task key, whatever the header’s case', async () => {
    const before = written.length;
    const answers = await Promise.all([
      fetch(`${service.url}${PUSH_API_BASE}/product/shop/p-1`, { headers: { 'API-Key': PUSH_KEY } }),
      fetch(`${service.url}${PUSH_API_BASE}/product/shop/p-1`, { headers: { 'x-api-key': PUSH_KEY } }),
      fetch(`${service.url}/v0/admin/me`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }),
      fetch(`${service.url}/v0/admin/me`, { headers: { Authorization: `Bearer ${AGENT_KEY}` } }),
      fetch(`${service.url}${TASK_API_PATH}/result?taskId=x`, {
        headers: { authorization: `Bearer ${TASK_KEY}` },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 401, 200, 200, 400]);
    const log = written.slice(before).join('');
    // The debug lines are there, with the headers: the test reads what it means to.
    const received = linesOf(before).filter((l) => l.msg === 'request received');
    expect(received).toHaveLength(5);
    expect(received.map((l) => (l.headers as Record<string, string>)['api-key'])).toContain('[redacted]');
    for (const secret of [PUSH_KEY, ADMIN_KEY, AGENT_KEY, TASK_KEY]) expect(log).not.toContain(secret);
  });

  it('gives the access line its own fields and the request id, never the debug line’s headers', async () => {
    const before = written.length;
    const answer = await fetch(`${service.url}/v0/widget/shop/config`, {
      headers: { 'x-request-id': 'req-32' },
    });
    expect(answer.status).toBe(200);
    const lines = linesOf(before).filter((l) => l.reqId === 'req-32');
    expect(lines.map((l) => l.msg)).toEqual(['request received', 'request']);
    const [received, access] = lines;
    expect(received).toHaveProperty('headers');
    expect(access).not.toHaveProperty('headers');
    expect(access).toMatchObject({ method: 'GET', path: '/v0/widget/shop/config', status: 200 });
  });
});
