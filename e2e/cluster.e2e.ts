// Issue 23's cluster: three real service processes (dist/server/cli.js) on one PostgreSQL, behind Caddy running the
// project's deploy/Caddyfile, as an operator would run them. Steps that must land on different instances address them
// directly; the shopper goes through Caddy. The model is a local double that can hold a reply mid-way (cluster-kit.ts),
// the integrator a local server that counts its calls, and the database is reached through a TCP proxy the test cuts.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TASK_RATE_LIMIT } from '../src/protocol/task';
import {
  type CuttableProxy,
  type RecordingServer,
  startCuttableProxy,
  startRecordingServer,
} from '../src/server/testing/test-servers';
import {
  ANSWER_PIECES,
  ended,
  freePort,
  type Instance,
  lastIdOf,
  readEvents,
  type Seen,
  startCaddy,
  startInstance,
  startModel,
  textOf,
  until,
} from './cluster-kit';
import { launchChromium, waitForReady } from './harness';

const serverUrl = process.env.TEST_DATABASE_URL;
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'cluster-e2e-'));
const WIDGET = 'shop';
const QUESTION = 'Where is my order 1003?';
const ANSWER = ANSWER_PIECES.join('');
const TASK_KEY = 'nsk_cluster_e2e_key_0123456789';
const MODEL_KEY = 'sk-cluster-e2e-model-key';

let schema: string;
let db: pg.Client;
let road: CuttableProxy;
let model: Awaited<ReturnType<typeof startModel>>;
let integrator: RecordingServer;
let caddy: Awaited<ReturnType<typeof startCaddy>>;
let configFile: string;
let instanceEnv: Record<string, string>;
/** A, B and C, by name; an instance restarted keeps its name and port. */
const instances = new Map<string, Instance>();
const inst = (name: string) => instances.get(name) as Instance;

const onServer = async (sql: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const answerOrder = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'shipped', carrier: 'DHL' }));
};
const orderCalls = () => integrator.requests.filter((r) => r.pathname === '/orders/1003');

type Chat = { id: string; auth: Record<string, string> };

async function conversation(base: string): Promise<Chat> {
  const res = await fetch(`${base}/v0/widget/${WIDGET}/conversations`, { method: 'POST' });
  expect(res.status).toBe(201);
  const { conversationId, token } = (await res.json()) as { conversationId: string; token: string };
  return { id: conversationId, auth: { authorization: `Bearer ${token}` } };
}

const send = (base: string, c: Chat, text = QUESTION) =>
  fetch(`${base}/v0/widget/${WIDGET}/conversations/${c.id}/messages`, {
    method: 'POST',
    headers: { ...c.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ clientMessageId: randomUUID(), text }),
  });

/** The widget's resume: the conversation's events after the last one it saw. */
const resume = (base: string, c: Chat, lastEventId: string) =>
  fetch(`${base}/v0/widget/${WIDGET}/conversations/${c.id}/events`, {
    headers: { ...c.auth, 'last-event-id': lastEventId },
  });

/**
 * Reads the reply to its end, resuming through Caddy each time its connection ends early, as the widget does: at once
 * after a `stream.reconnect` or a drop, after `Retry-After` when an instance still in Caddy's rotation is draining.
 */
async function readToEnd(c: Chat, first: Seen[]): Promise<Seen[]> {
  const seen = [...first];
  while (!seen.some(ended)) {
    const res = await resume(caddy.url, c, lastIdOf(seen));
    if (res.status === 503) {
      const { error } = (await res.json()) as { error: { code: string } };
      expect(error.code).toBe('draining');
      drainingAnswers++;
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
      continue;
    }
    expect(res.status).toBe(200);
    seen.push(...(await readEvents(res, ended)));
  }
  return seen;
}
/** How many resumes met a draining instance that Caddy had not yet taken out of its rotation. */
let drainingAnswers = 0;

const metricOf = async (i: Instance, name: string) => {
  // A stopped instance has no streams.
  const text = await fetch(`${i.url}/metrics`)
    .then((res) => res.text())
    .catch(() => '');
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
};

/** The instance that holds the one open reply stream (its /metrics says so): where the shopper's turn runs. */
async function holderOfTheStream(): Promise<Instance> {
  let holder: Instance | undefined;
  await until(async () => {
    const open = await Promise.all([...instances.values()].map((i) => metricOf(i, 'service_open_streams')));
    const at = open.indexOf(1);
    holder = at !== -1 && open.reduce((a, b) => a + b) === 1 ? [...instances.values()][at] : undefined;
    return holder !== undefined;
  }, 'exactly one instance shows the open stream');
  return holder as Instance;
}

const readyStatus = async (i: Instance) =>
  (await fetch(`${i.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined))?.status;

async function restart(name: string) {
  const old = inst(name);
  instances.set(name, await startInstance(root, name, old.port, configFile, instanceEnv));
}

/** The assistant replies of a conversation as stored, with their status. */
async function storedReplies(conversationId: string) {
  const { rows } = await db.query<{ status: string }>(
    `SELECT status FROM messages WHERE conversation_id = $1 AND role = 'assistant' ORDER BY seq`,
    [conversationId],
  );
  return rows.map((r) => r.status);
}

const TITLE = 'a three-instance cluster behind Caddy on one PostgreSQL';
// Like the other PostgreSQL tests: without a server (scripts/postgres-for-tests.sh sets TEST_DATABASE_URL) it is skipped.
describe.skipIf(!serverUrl)(serverUrl ? TITLE : `${TITLE} (skipped: no TEST_DATABASE_URL)`, () => {
  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/server/cli.js')) || !existsSync(join(root, 'dist/loader.js')))
      throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
    schema = `cluster_e2e_${randomUUID().replaceAll('-', '')}`;
    await onServer(`CREATE SCHEMA ${schema}`);
    const direct = new URL(serverUrl as string);
    direct.searchParams.set('options', `-c search_path=${schema}`);
    db = new pg.Client({ connectionString: direct.toString() });
    await db.connect();
    road = await startCuttableProxy(serverUrl as string);
    const viaRoad = new URL(direct);
    viaRoad.hostname = '127.0.0.1';
    viaRoad.port = String(road.port);
    [model, integrator] = await Promise.all([startModel(), startRecordingServer('http')]);
    integrator.respond = (_req, res) => answerOrder(res);
    configFile = join(work, 'service.config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        adminKey: 'admin-key-for-the-cluster-e2e',
        allowHttpLoopback: true,
        // Caddy appends the shopper's address; every request here comes from this machine all the same.
        trustProxy: 1,
        // The shortest lease: a killed instance's turn is taken over within about 2.5 s.
        turnLeaseSeconds: 2,
        // A stopping instance lets its turns run 3 s before it hands them back.
        shutdownGraceSeconds: 3,
        engine: {
          type: 'openai',
          baseUrl: model.baseUrl,
          apiKeyEnv: 'CLUSTER_MODEL_KEY',
          models: { fast: 'm', smart: 'm', 'super-smart': 'm' },
        },
        taskApiKeys: [{ user: 'alice', key: TASK_KEY, widgetId: WIDGET }],
        widgets: [
          {
            id: WIDGET,
            allowedOrigins: ['*'],
            limits: { conversationsPerIpPerHour: 1000, messagesPerIpPerMinute: 1000, openStreamsPerIp: 100 },
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
      }),
    );
    instanceEnv = { DATABASE_URL: viaRoad.toString(), CLUSTER_MODEL_KEY: MODEL_KEY, LOG_LEVEL: 'info' };
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    // One first, so that the migrations run once; then the two others side by side.
    instances.set('A', await startInstance(root, 'A', ports[0], configFile, instanceEnv));
    const [b, c] = await Promise.all([
      startInstance(root, 'B', ports[1], configFile, instanceEnv),
      startInstance(root, 'C', ports[2], configFile, instanceEnv),
    ]);
    instances.set('B', b);
    instances.set('C', c);
    caddy = await startCaddy(root, work, ports);
  }, 60_000);

  afterAll(async () => {
    for (const i of instances.values()) i.child.kill('SIGKILL');
    caddy?.child.kill('SIGTERM');
    await Promise.allSettled([model?.close(), integrator?.close(), road?.close()]);
    await db?.end();
    if (schema) await onServer(`DROP SCHEMA ${schema} CASCADE`);
    rmSync(work, { recursive: true, force: true });
  });

  beforeEach(async () => {
    integrator.requests.length = 0;
    // Three instances again, whatever the last test left.
    for (const [name, i] of instances)
      if (i.child.exitCode !== null || i.child.signalCode !== null) await restart(name);
  });

  it('create on A, send on B, resume on C with Last-Event-ID while B is still writing, history on A: one reply, all alike', async () => {
    const c = await conversation(inst('A').url);
    const hold = model.holdNext();
    const onB = await send(inst('B').url, c);
    expect(onB.status).toBe(200);
    // B's stream up to the first words of the answer; then the shopper's connection moves to C.
    const before = await readEvents(onB, (e) => e.event === 'message.delta');
    await hold.reached;
    const onC = await resume(inst('C').url, c, lastIdOf(before));
    expect(onC.status).toBe(200);
    const afterP = readEvents(onC, ended);
    // B finishes the reply; C wakes for each event B writes (LISTEN/NOTIFY) and passes it on.
    hold.release();
    const after = await afterP;
    expect(after.at(-1)?.event).toBe('message.done');
    expect(after.map((e) => e.event)).not.toContain('error');
    expect(textOf([...before, ...after])).toBe(ANSWER);
    // Nothing said twice: C started after the last event B had shown.
    const ids = [...before, ...after].map((e) => Number(e.id));
    expect(new Set(ids).size).toBe(ids.length);

    const history = await fetch(`${inst('A').url}/v0/widget/${WIDGET}/conversations/${c.id}/messages`, {
      headers: c.auth,
    });
    expect(history.status).toBe(200);
    const { messages, lastSeq } = (await history.json()) as {
      messages: { role: string; status?: string; parts: { type: string; text?: string }[] }[];
      lastSeq: number;
    };
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1].status).toBe('done');
    // A itself read what B wrote: the history ends at the last event C passed on.
    expect(lastSeq).toBe(Number(after.at(-1)?.id));
    const stored = messages[1].parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join('');
    expect(stored).toBe(ANSWER);
    expect(orderCalls()).toHaveLength(1);
  });

  it('a second message sent to another instance while the first is answered waits its turn, and is answered knowing the first answer', async () => {
    const c = await conversation(inst('A').url);
    const hold = model.holdNext();
    const first = readEvents(await send(inst('B').url, c), ended);
    await hold.reached;
    const secondRes = await send(inst('C').url, c, 'Thanks! And hello.');
    expect(secondRes.status).toBe(200);
    const second = readEvents(secondRes, ended);
    hold.release();
    const [one, two] = await Promise.all([first, second]);
    expect(one.at(-1)?.event).toBe('message.done');
    expect(two.at(-1)?.event).toBe('message.done');
    // In the order the messages were stored, as on one instance: every event of the second reply after the first's end.
    const firstDone = Number(one.at(-1)?.id);
    for (const e of two) expect(Number(e.id)).toBeGreaterThan(firstDone);
    // The model was asked the second question with the first answer in the conversation.
    const asked = model.asked.filter((a) => a.kind === 'chat').at(-1)?.body.messages ?? [];
    expect(asked.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('Thanks! And hello.'),
    });
    expect(asked.some((m) => m.role === 'assistant' && m.content === ANSWER)).toBe(true);
  });

  it(`tasks created through all three instances at once are limited to exactly ${TASK_RATE_LIMIT} a minute, each run once`, async () => {
    const names = [...instances.keys()];
    const tried = TASK_RATE_LIMIT + 5;
    const answers = await Promise.all(
      Array.from({ length: tried }, async (_, n) => {
        const res = await fetch(`${inst(names[n % 3]).url}/v0/api/task`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TASK_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: `task number ${n}`, model: 'fast' }),
        });
        return {
          n,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as { taskId?: string },
        };
      }),
    );
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(TASK_RATE_LIMIT);
    expect(refused).toHaveLength(tried - TASK_RATE_LIMIT);
    for (const r of refused) expect(Number(r.retryAfter)).toBeGreaterThan(0);

    // Each accepted task runs once, on whichever instance claims it, and answers its own prompt.
    const taskIds = accepted.map((a) => a.body.taskId);
    await until(async () => {
      const { rows } = await db.query(`SELECT 1 FROM tasks WHERE id = ANY($1) AND status = 'completed'`, [
        taskIds,
      ]);
      return rows.length === TASK_RATE_LIMIT;
    }, 'every accepted task completed');
    const { rows } = await db.query<{ id: string; prompt: string; result: { text: string } }>(
      'SELECT id, prompt, result FROM tasks',
    );
    expect(rows).toHaveLength(TASK_RATE_LIMIT);
    for (const row of rows) expect(row.result.text).toBe(`Answer to: ${row.prompt}`);
    const asked = model.asked.filter((a) => a.kind === 'task').map((a) => a.body.messages.at(-1)?.content);
    expect(asked.sort()).toEqual(rows.map((r) => r.prompt).sort());
  });

  it('SIGKILL of the instance writing a reply: the shopper, through Caddy, gets the whole reply with no error, and the action is not called again', async () => {
    const c = await conversation(caddy.url);
    const hold = model.holdNext();
    const sent = await send(caddy.url, c);
    expect(sent.status).toBe(200);
    const seenP = readEvents(sent, ended);
    await hold.reached;
    // The order was looked up and the answer is half written.
    expect(orderCalls()).toHaveLength(1);
    const victim = await holderOfTheStream();
    victim.child.kill('SIGKILL');
    const seen = await readToEnd(c, await seenP);

    expect(seen.map((e) => e.event)).not.toContain('error');
    expect(seen.at(-1)?.event).toBe('message.done');
    expect(textOf(seen)).toBe(ANSWER);
    // The taker replayed the journaled call: the integrator saw it once.
    expect(orderCalls()).toHaveLength(1);
    expect(await storedReplies(c.id)).toEqual(['done']);
    await victim.exited;
    await restart(victim.name);
  });

  it('database down: every /readyz is 503 while it is, 200 once it is back, and a chat through Caddy works after', async () => {
    road.cut();
    try {
      for (const i of instances.values())
        await until(async () => {
          if (i.child.exitCode !== null)
            throw new Error(`${i.name} exited (${i.child.exitCode}): ${i.stderr()}`);
          return (await readyStatus(i)) === 503;
        }, `${i.name} /readyz 503`);
      const down = await fetch(`${inst('A').url}/readyz`);
      expect(await down.json()).toEqual({ ready: false, reason: 'database unreachable' });
      // Alive all the same: nothing should restart an instance for its database.
      expect((await fetch(`${inst('A').url}/healthz`)).status).toBe(200);
    } finally {
      road.reopen();
    }
    for (const i of instances.values())
      await until(async () => (await readyStatus(i)) === 200, `${i.name} /readyz 200 again`);
    // Caddy sends traffic again once its own health check (every 2 s, deploy/Caddyfile) has seen an instance ready:
    // until then it answers 503 itself, as a load balancer with no healthy upstream does.
    await until(
      async () => (await fetch(`${caddy.url}/readyz`).catch(() => undefined))?.status === 200,
      'Caddy routes to a ready instance again',
    );

    const c = await conversation(caddy.url);
    const seen = await readToEnd(c, await readEvents(await send(caddy.url, c), ended));
    expect(seen.at(-1)?.event).toBe('message.done');
    expect(textOf(seen)).toBe(ANSWER);
    // And across instances, which needs each one's LISTEN connection back: written on A, followed on B.
    const d = await conversation(inst('A').url);
    const hold = model.holdNext();
    const onA = await send(inst('A').url, d);
    const before = await readEvents(onA, (e) => e.event === 'message.delta');
    await hold.reached;
    const afterP = readEvents(await resume(inst('B').url, d, lastIdOf(before)), ended);
    hold.release();
    const after = await afterP;
    expect(after.at(-1)?.event).toBe('message.done');
    expect(textOf([...before, ...after])).toBe(ANSWER);
  });

  it('SIGTERM of the instance writing a reply: not ready at once, its stream told to reconnect, the reply finished there within the grace, exit 0', async () => {
    const c = await conversation(caddy.url);
    const hold = model.holdNext();
    const sent = await send(caddy.url, c);
    const seenP = readEvents(sent, ended);
    await hold.reached;
    const victim = await holderOfTheStream();
    const logged = new Map([...instances].map(([name, i]) => [name, i.log.length]));
    const metDraining = drainingAnswers;
    victim.child.kill('SIGTERM');
    // The shopper's stream ends with `stream.reconnect` (not an error) while the reply is half written.
    const first = await seenP;
    expect(first.at(-1)?.event).toBe('stream.reconnect');
    expect(first.map((e) => e.event)).not.toContain('message.done');
    const ready = await fetch(`${victim.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, reason: 'draining' });
    // No new turn starts there: sent straight to it, a message is refused to be sent again elsewhere.
    const other = await conversation(caddy.url);
    const refused = await send(victim.url, other, 'Hello?');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The running turn finishes where it is, within the grace; the shopper, back through Caddy, reads it to the end.
    hold.release();
    const seen = await readToEnd(c, first);
    expect(seen.map((e) => e.event)).not.toContain('error');
    expect(seen.at(-1)?.event).toBe('message.done');
    expect(textOf(seen)).toBe(ANSWER);
    expect(orderCalls()).toHaveLength(1);
    expect(await storedReplies(c.id)).toEqual(['done']);
    expect(await victim.exited).toBe(0);
    // Finished by the instance that started it: nothing was taken over.
    for (const [name, i] of instances)
      expect(i.log.slice(logged.get(name)).filter((l) => l.includes('taking over'))).toEqual([]);
    console.log(
      `SIGTERM: resumes that met the draining instance still in Caddy's rotation: ${drainingAnswers - metDraining}`,
    );
  });

  describe('the operator restarts one instance while a shopper in Chromium waits for an answer', () => {
    let browser: Browser;
    let store: Server;
    let storeUrl: string;
    beforeAll(async () => {
      // The shop's page, on an origin of its own; the widget comes from the cluster, through Caddy.
      store = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>` +
            `<script async src="${caddy.url}/sdk/loader.js" data-widget-id="${WIDGET}"></script></body></html>`,
        );
      });
      await new Promise<void>((ok) => store.listen(0, '127.0.0.1', ok));
      storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}/`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => store?.close(r));
    });

    it('sees one complete answer and no error, though the turn outlasted the shutdown grace', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems: string[] = [];
      /**
       * Chromium logs every 5xx answer to a fetch as a console error. A 503 is what a draining instance that Caddy has
       * not yet left out answers a reconnect with (`Retry-After`, which the widget follows): counted, not a problem.
       */
      let drainingLoads = 0;
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        if (m.text().startsWith('Failed to load resource: the server responded with a status of 503'))
          drainingLoads++;
        else problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(storeUrl);
      await waitForReady(page);
      const widget = (selector: string) => page.locator(`service-widget ${selector}`);
      await widget('[part~="launcher"]').click();
      const hold = model.holdNext();
      await widget('textarea').fill(QUESTION);
      await widget('textarea').press('Enter');
      await hold.reached;
      // The shopper reads the first words.
      await widget('.assistant').filter({ hasText: ANSWER_PIECES[0].trim() }).waitFor();
      const victim = await holderOfTheStream();
      const logged = new Map([...instances].map(([name, i]) => [name, i.log.length]));
      // The operator restarts that instance; the model is slower than the shutdown grace, so the instance hands the
      // turn back when the grace is over, exits, and another instance finishes the answer.
      victim.child.kill('SIGTERM');
      expect(await victim.exited).toBe(0);
      await restart(victim.name);
      await page.waitForFunction(
        () =>
          document
            .querySelector('service-widget')
            ?.shadowRoot?.querySelectorAll('.assistant[data-status="done"]').length === 1,
      );
      const shown = (await widget('.assistant[data-status="done"]').textContent()) ?? '';
      expect(shown.replace(/\s+/g, ' ').trim()).toBe(ANSWER);
      // One reply (the greeting above it has no status), written once.
      expect(await widget('.assistant[data-status]').count()).toBe(1);
      expect(await widget('.notice').count()).toBe(0);
      expect(await widget('[data-status="error"]').count()).toBe(0);
      expect(problems, problems.join('\n')).toEqual([]);
      console.log(`restart: requests of the widget that met the draining instance: ${drainingLoads}`);
      expect(orderCalls()).toHaveLength(1);
      // Taken over once, by one instance.
      const takeovers = [...instances].flatMap(([name, i]) =>
        i.log.slice(logged.get(name)).filter((l) => l.includes('taking over a turn')),
      );
      expect(takeovers).toHaveLength(1);
      mkdirSync(join(root, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-results/cluster-restart.png') });
    });
  });
});
