// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HistoryResponse, STREAM_RECONNECT } from '../../../protocol/chat';
import { parseConfig } from '../../config/service-config';
import { startService } from '../../start';
import { type Chat, ended, readEvents, shopper, until } from '../../testing/cluster-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 23 item 6 on the embedded database (one process, nobody to hand a turn to): `shutdown()` (what SIGTERM runs,
// cli.ts) lets the running turn finish within `shutdownGraceSeconds`, and ends it as interrupted when the grace is
// over, rather than leaving it to the next start's sweep. The PostgreSQL side, with a second instance taking over, is
// scenarios/cluster/shutdown-drain.test.ts.

const WIDGET = 'shop';
const QUESTION = 'Where is my order 1003?';
const api = shopper(WIDGET);
let integrator: RecordingServer;
let held: ServerResponse[] = [];

const configWith = (shutdownGraceSeconds: number) => {
  const parsed = parseConfig({
    adminKey: 'admin-key-for-shutdown-tests',
    allowHttpLoopback: true,
    shutdownGraceSeconds,
    widgets: [
      {
        id: WIDGET,
        allowedOrigins: ['*'],
        actions: [
          {
            name: 'Get order status',
            description: 'Looks up an order by its order number.',
            method: 'GET',
            url: `${integrator.url}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};
const answer = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'shipped', carrier: 'DHL' }));
};

beforeAll(async () => {
  integrator = await startRecordingServer('http');
  integrator.respond = (_req, res) => {
    held.push(res);
  };
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await integrator.close();
});

/** The conversation's last reply as the service stores it, read from a new start on the same data folder. */
async function lastReplyAfterRestart(dataDir: string, grace: number, c: Chat) {
  const again = await startService({ config: configWith(grace), port: 0, dataDir });
  try {
    const res = await fetch(`${again.url}/v0/widget/${WIDGET}/conversations/${c.id}/messages`, {
      headers: c.auth,
    });
    const { messages } = (await res.json()) as HistoryResponse;
    return messages.at(-1);
  } finally {
    await again.close();
  }
}

describe('shutdown() on the embedded database', () => {
  it('the running turn finishes within the grace while the instance is not ready and takes no new turn', async () => {
    held = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    try {
      const service = await startService({ config: configWith(25), port: 0, dataDir });
      const c = await api.conversation(service.url);
      const stream = api.send(service.url, c, QUESTION).then((res) => readEvents(res, ended));
      await until(() => held.length === 1);

      const stopped = service.shutdown();
      expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
      const refused = await api.send(service.url, c, 'And order 1004?');
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: { code: 'draining' } });
      expect((await api.resume(service.url, c, '0')).status).toBe(503);
      // The open stream is ended with `stream.reconnect` (no other instance here: the widget's next try waits).
      expect((await stream).at(-1)?.event).toBe(STREAM_RECONNECT);

      // The call the turn waits for is answered within the grace: the turn ends well, then the service stops.
      answer(held[0]);
      await stopped;
      await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
      const reply = await lastReplyAfterRestart(dataDir, 25, c);
      expect(reply).toMatchObject({ role: 'assistant', status: 'done' });
      expect(reply?.parts.length).toBeGreaterThan(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('past the grace the turn ends as interrupted, its integrator call cut, and the shutdown completes', async () => {
    held = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    try {
      const service = await startService({ config: configWith(0), port: 0, dataDir });
      const c = await api.conversation(service.url);
      const stream = api.send(service.url, c, QUESTION).then((res) => readEvents(res, ended));
      await until(() => held.length === 1);
      const call = held[0];
      const cut = new Promise<void>((done) => call.once('close', () => done()));
      await service.shutdown();
      // The integrator's request was aborted with the turn, not left to its timeout.
      await cut;
      await stream;
      // Said to the shopper as interrupted (send again), at once rather than by the next start's sweep.
      const reply = await lastReplyAfterRestart(dataDir, 0, c);
      expect(reply).toMatchObject({ role: 'assistant', status: 'failed' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
