// The log of a demo run: `npm start`'s process (dist/server/demo-start.js, built by `npm run build`) at
// LOG_LEVEL=trace, driven over real HTTP with every kind of credential the service takes: the admin key, an agent's
// key, a wrong key, an identity token (a JWT) and one signed with another secret, conversation tokens, a preview
// token in the URL, a cookie; the signing and identity secrets sit in its environment. stdout must be JSON lines only,
// each request's lines must carry its id, and not one of those values may appear in the log (DESIGN "Running at
// scale": secrets, keys, JWTs and conversation tokens redacted).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY } from '../demo/demo-servers';
import { demoIdentityToken } from '../demo/store-server';
import { readSse } from '../src/server/testing/sse-reader';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'dist/server/demo-start.js');
const dataDir = mkdtempSync(join(tmpdir(), 'logs-e2e-'));

const ENV_SECRETS = {
  DEMO_AGENT_KEY_ANNA: 'anna-key-e2e-1f9c2b7d4e',
  DEMO_AGENT_KEY_SAM: 'sam-key-e2e-8a2e4c6f0b',
  SERVICE_DEMO_SIGNING_SECRET: 'whsec_e2e_signing_3b1d9a7c5e',
  DEMO_IDENTITY_SECRET: 'identity-secret-e2e-0123456789abcdef-XYZ',
};
/** Every credential the run used, by name; filled in as the service hands out tokens. */
const used: Record<string, string> = {
  ...ENV_SECRETS,
  adminKey: DEMO_ADMIN_KEY,
  wrongKey: 'wrong-key-e2e-5d7f9b1c3a',
  cookie: 'cookie-secret-e2e-6e8a0c2d',
};

let child: ChildProcess;
let stdout = '';
let stderr = '';
let service = '';
let store = '';

beforeAll(async () => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      ...ENV_SECRETS,
      LOG_LEVEL: 'trace',
      PORT: '0',
      STORE_PORT: '0',
      INTEGRATOR_PORT: '0',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await new Promise<void>((ok, fail) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const s = /^Service: +(http:\S+?)\/ /m.exec(stderr);
      const d = /^Demo store: (http:\S+?)\/$/m.exec(stderr);
      if (s && d) {
        service = s[1];
        store = d[1];
        ok();
      }
    });
    child.once('exit', (code) => fail(new Error(`demo exited (${code}): ${stderr}`)));
  });
  used.jwt = await demoIdentityToken(ENV_SECRETS.DEMO_IDENTITY_SECRET, 'ada');
  used.foreignJwt = await demoIdentityToken('another-secret-of-32-bytes-or-more-0000', 'mallory');
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const widget = (path: string, init: RequestInit & { token?: string; base?: string; origin?: string } = {}) =>
  fetch(`${init.base ?? service}/v0/widget/demo${path}`, {
    ...init,
    headers: {
      origin: init.origin ?? store,
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.headers as Record<string, string>),
    },
  });

const admin = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${service}/v0/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: service },
  });

/** stdout as parsed lines; throws on the first line that is not a JSON object. */
const logLines = () =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed !== 'object' || parsed === null) throw new Error(`not a JSON object: ${line}`);
      return parsed;
    });

describe('the demo log at LOG_LEVEL=trace', () => {
  it("carries a request id on every request line, the caller's when well-formed, and never a credential", async () => {
    // The widget's calls, signed in as "ada": a conversation, a message that makes a signed call to the integrator.
    const config = await widget('/config', { headers: { 'x-request-id': 'e2e-config.1' } });
    expect(config.status).toBe(200);
    expect(config.headers.get('x-request-id')).toBe('e2e-config.1');
    const created = await widget('/conversations', {
      method: 'POST',
      body: JSON.stringify({ identityToken: used.jwt }),
      headers: { cookie: `session=${used.cookie}` },
    });
    expect(created.status).toBe(201);
    const conversation = (await created.json()) as { conversationId: string; token: string };
    used.conversationToken = conversation.token;
    const sent = await widget(`/conversations/${conversation.conversationId}/messages`, {
      method: 'POST',
      token: conversation.token,
      headers: { 'x-request-id': 'e2e-message-1' },
      body: JSON.stringify({
        clientMessageId: 'm1',
        text: 'Where is my order 1001?',
        identityToken: used.jwt,
      }),
    });
    expect(sent.headers.get('x-request-id')).toBe('e2e-message-1');
    const events = await readSse(sent);
    expect(events.at(-1)?.event).toBe('message.done');
    expect(events.some((e) => e.event === 'action.finished')).toBe(true);
    // The token in a query string too, as a careless client might send it.
    const history = await widget(
      `/conversations/${conversation.conversationId}/messages?token=${used.conversationToken}`,
      {
        token: conversation.token,
      },
    );
    expect(history.status).toBe(200);
    // A token signed with another secret is refused.
    const foreign = await widget('/conversations', {
      method: 'POST',
      body: JSON.stringify({ identityToken: used.foreignJwt }),
    });
    expect(foreign.status).toBeGreaterThanOrEqual(400);

    // The console's calls: the admin key, an agent's key, a wrong key; a draft and its preview.
    expect((await admin('/widgets/demo/conversations', DEMO_ADMIN_KEY)).status).toBe(200);
    expect((await admin('/widgets/demo/conversations', used.DEMO_AGENT_KEY_ANNA)).status).toBe(200);
    expect((await admin('/widgets/demo/conversations', used.wrongKey)).status).toBe(401);
    const live = (await (await admin('/widgets/demo/settings', used.DEMO_AGENT_KEY_SAM)).json()) as {
      settings: Record<string, unknown>;
      version: number;
    };
    const draft = await admin('/widgets/demo/settings/draft', used.DEMO_AGENT_KEY_SAM, {
      method: 'PUT',
      body: JSON.stringify({
        settings: { ...live.settings, title: 'Draft title' },
        baseVersion: live.version,
      }),
    });
    expect(draft.status).toBe(200);
    const preview = await admin('/widgets/demo/preview', used.DEMO_AGENT_KEY_SAM, { method: 'POST' });
    expect(preview.status).toBe(201);
    const { previewBaseUrl } = (await preview.json()) as { previewBaseUrl: string };
    used.previewToken = /\/preview\/(pv_[^/]+)/.exec(previewBaseUrl)?.[1] ?? '';
    expect(used.previewToken).toMatch(/^pv_/);
    const previewConfig = await widget('/config', { base: previewBaseUrl, origin: service });
    expect(previewConfig.status).toBe(200);
    const previewChat = await widget('/conversations', {
      base: previewBaseUrl,
      origin: service,
      method: 'POST',
      body: '{}',
    });
    expect(previewChat.status).toBe(201);
    used.previewConversationToken = ((await previewChat.json()) as { token: string }).token;

    // Stop, so every line is written.
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    await exited;

    const lines = logLines();
    for (const [name, value] of Object.entries(used)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(stdout.includes(value), `${name} is in the log`).toBe(false);
    }
    expect(lines.length).toBeGreaterThan(10);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(12);
    for (const line of requests) expect(line.reqId, JSON.stringify(line)).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(new Set(requests.map((l) => l.reqId)).size).toBe(requests.length);
    expect(requests.find((l) => l.reqId === 'e2e-config.1')).toMatchObject({
      path: '/v0/widget/demo/config',
    });
    // The turn's lines carry the id of the message that started it: its signed call to the integrator, at debug.
    expect(lines.find((l) => l.msg === 'custom action called')).toMatchObject({
      reqId: 'e2e-message-1',
      action: expect.any(String),
    });
    // At debug, each request's headers, with the credentials redacted rather than left out.
    const received = lines.filter((l) => l.msg === 'request received');
    expect(received.length).toBe(requests.length);
    const headersOf = (l: Record<string, unknown>) => (l.headers ?? {}) as Record<string, string>;
    expect(received.filter((l) => headersOf(l).authorization === '[redacted]').length).toBeGreaterThanOrEqual(
      8,
    );
    expect(received.filter((l) => headersOf(l).cookie === '[redacted]').length).toBe(1);
    expect(requests.map((l) => l.path)).toContain('/preview/pv_[redacted]/v0/widget/demo/config');
  });
});
