// @vitest-environment node
// Attack: a client writes its own lines into the service's log, or takes another request's id, through what the
// access line repeats: the `x-request-id` it sends (kept only when 1-128 characters of `A-Za-z0-9._-`) and the path
// (percent-encoded newlines and JSON). Over real HTTP, with the raw bytes a hostile client can send. Every line the
// service writes stays one JSON object of its own, and none is the forged one.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { makeTestDist } from '../../testing/test-dist';

const config = parseConfig({
  adminKey: 'admin-key-123456',
  widgets: [{ id: 'demo', allowedOrigins: ['*'] }],
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

/** One request as raw bytes (no client-side header checks); resolves with the raw answer. */
function rawRequest(head: string): Promise<string> {
  const { hostname, port } = new URL(service.url);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\nconnection: close\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => ok(answer));
    socket.on('error', fail);
  });
}

const FORGED = '{"level":"fatal","msg":"forged","reqId":"someone-else"}';

describe('attack: a forged log line through x-request-id or the path', () => {
  it('answers a fresh id for a hostile x-request-id, and the log stays one JSON object per line', async () => {
    const before = written.length;
    const answers = [];
    for (const id of [FORGED, `a\u2028${FORGED}`, 'a\u0085b', 'ok"},{"msg":"forged', `x${'y'.repeat(200)}`]) {
      const answer = await rawRequest(
        `GET /v0/widget/demo/config HTTP/1.1\r\nhost: shop.test\r\nx-request-id: ${Buffer.from(id, 'utf8').toString('latin1')}`,
      );
      answers.push(answer);
      expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
      expect(answer).toMatch(
        /\r\nx-request-id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\r\n/,
      );
    }
    // A bare CR or LF inside a header value is refused by Node's parser before any handler runs.
    const split = await rawRequest(
      `GET /v0/widget/demo/config HTTP/1.1\r\nhost: shop.test\r\nx-request-id: a\r${FORGED}`,
    );
    expect(split.startsWith('HTTP/1.1 400')).toBe(true);
    const lines = written.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(answers.length * 2);
    for (const line of lines) {
      expect(line.endsWith('\n') && line.indexOf('\n') === line.length - 1, line).toBe(true);
      const parsed = JSON.parse(line);
      expect(parsed.msg).not.toBe('forged');
      expect(parsed.level).not.toBe('fatal');
      expect(parsed.reqId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('writes a path with encoded newlines and JSON as one escaped field', async () => {
    const before = written.length;
    const path = `/v0/widget/%0A${encodeURIComponent(FORGED)}%0D%0A/config`;
    const answer = await rawRequest(`GET ${path} HTTP/1.1\r\nhost: shop.test`);
    expect(answer.startsWith('HTTP/1.1 404')).toBe(true);
    const lines = written.slice(before).map((line) => JSON.parse(line) as { msg: string; path?: string });
    expect(lines.map((l) => l.msg)).toEqual(['request received', 'request']);
    expect(lines[1].path).toContain('forged');
  });
});
