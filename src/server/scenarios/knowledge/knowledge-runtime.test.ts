// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';
import { readSse, textOf } from '../../testing/sse-reader';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// The store's knowledge through the whole service, as a shopper meets it: the widget's configured sections and its
// `knowledgeUrls` document (fetched from a local server standing in for the store's web server), searched by the
// engine's `searchKnowledge` during a turn over HTTP, the answer read off the reply stream.

const HILFE = `# Zahlungsarten

Wir akzeptieren Visa, Mastercard, PayPal und Kauf auf Rechnung mit Klarna.

# Versand

Wir versenden innerhalb von 2 Werktagen mit DHL.
`;

let store: RecordingServer;
let service: RunningService;
beforeAll(async () => {
  store = await startRecordingServer('http');
  store.respond = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
    res.end(HILFE);
  };
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        knowledge: [
          {
            title: 'Payment methods',
            text: 'We accept Visa, Mastercard, PayPal and Klarna invoice.',
          },
          { title: 'Shipping', text: 'We ship within 2 working days with DHL.' },
        ],
        knowledgeUrls: [`${store.url}/hilfe.md`],
        limits: { conversationsPerIpPerHour: 1000, messagesPerIpPerMinute: 1000 },
      },
      { id: 'bare', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
});
afterAll(async () => {
  await service?.close();
  await store?.close();
});

/** The assistant's answer to `text` in a new conversation of `widget`, over HTTP. */
async function ask(text: string, widget = 'shop', on = service): Promise<string> {
  const api = `${on.url}/v0/widget/${widget}/conversations`;
  const created = await fetch(api, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  const res = await fetch(`${api}/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ clientMessageId: randomUUID(), text }),
  });
  expect(res.status).toBe(200);
  return textOf(await readSse(res));
}

describe("runtime's searchKnowledge over the service", () => {
  it('answers a store question with the configured section that matches it', async () => {
    const answer = await ask('what payment methods do you take');
    expect(answer).toContain('Payment methods');
    expect(answer).toContain('We accept Visa, Mastercard, PayPal and Klarna invoice.');
  });

  it('answers a German question from the knowledgeUrls document once it is fetched', async () => {
    // The document is fetched in the background at start: until it lands, the German section is not there.
    await expect
      .poll(() => ask('Welche Zahlungsarten gibt es?'), { timeout: 10_000, interval: 200 })
      .toContain('Wir akzeptieren Visa, Mastercard, PayPal und Kauf auf Rechnung mit Klarna.');
    expect(store.requests[0]).toMatchObject({ method: 'GET', pathname: '/hilfe.md' });
  });

  it("answers from the widget's own knowledge only", async () => {
    const answer = await ask('what payment methods do you take', 'bare');
    expect(answer).not.toContain('We accept Visa');
  });

  it('quotes no section for a question the knowledge does not answer', async () => {
    const answer = await ask('what is the capital of France');
    expect(answer).not.toMatch(/We accept|We ship|Wir /);
  });
});

describe("the openai engine's search_store_info over the service", () => {
  let model: FakeOpenAiServer;
  let withModel: RunningService;
  beforeAll(async () => {
    model = await startFakeOpenAiServer();
    process.env.KNOWLEDGE_TEST_MODEL_KEY = 'sk-test-not-secret';
    const config = parseConfig({
      adminKey: 'admin-key-123456',
      allowHttpLoopback: true,
      engine: {
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: 'KNOWLEDGE_TEST_MODEL_KEY',
        models: { fast: 'test-model', smart: 'test-model', 'super-smart': 'test-model' },
      },
      widgets: [
        {
          id: 'shop',
          allowedOrigins: ['*'],
          knowledge: [
            { title: 'Payment methods', text: 'We accept Visa, Mastercard, PayPal and Klarna invoice.' },
            { title: 'Shipping', text: 'We ship within 2 working days with DHL.' },
          ],
        },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    withModel = await startService({ config: config.value, port: 0 });
  });
  afterAll(async () => {
    await withModel?.close();
    await model?.close();
    delete process.env.KNOWLEDGE_TEST_MODEL_KEY;
  });

  it("gives the model the widget's matching section as the tool's result", async () => {
    model.enqueue(
      toolCallAnswer([
        { id: 'c1', name: 'search_store_info', argumentPieces: ['{"query":"payment methods"}'] },
      ]),
      textAnswer('We take Visa, Mastercard, PayPal and Klarna ("Payment methods").'),
    );
    const answer = await ask('can I pay with klarna?', 'shop', withModel);
    expect(answer).toContain('Klarna');
    const result = model.body(1).messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(result).toContain('Payment methods');
    expect(result).toContain('We accept Visa, Mastercard, PayPal and Klarna invoice.');
    expect(result).not.toContain('We ship within 2 working days');
  });
});
