// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiTaskEngine, TASK_ANSWER_MAX_BYTES } from './openai-task-engine';
import { TaskEngineError, UnparseableAnswer } from './task-engine';

// The openai task engine against a local HTTP server standing in for an OpenAI-compatible endpoint: what it sends,
// and every way an answer can go wrong.

let reply: (res: http.ServerResponse) => void = (res) => res.end();
const received: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }> = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      reply(res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise((ok) => server.close(ok)));

const engine = () =>
  createOpenAiTaskEngine({
    baseUrl,
    apiKey: 'sk-secret-123',
    models: { fast: 'f', smart: 's', 'super-smart': 'x' },
  });
const step = (over: Partial<Parameters<ReturnType<typeof engine>['step']>[0]> = {}) =>
  engine().step({
    prompt: 'Name a tent',
    model: 'smart',
    resultSchema: null,
    widgetId: 'shop',
    signal: new AbortController().signal,
    ...over,
  });
const json = (status: number, body: unknown) => (res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const content = (text: string) =>
  json(200, { choices: [{ index: 0, message: { role: 'assistant', content: text } }] });

describe('openai task engine', () => {
  it('sends the tier model, the key as Bearer, the prompt, and the feedback of a refused answer', async () => {
    reply = content('{"name":"Alpine"}');
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    expect(
      await step({ resultSchema: schema, model: 'fast', feedback: '/: must have property "name"' }),
    ).toEqual({ name: 'Alpine' });
    const { headers, body } = received.at(-1)!;
    expect(headers.authorization).toBe('Bearer sk-secret-123');
    expect(body).toMatchObject({
      model: 'f',
      stream: false,
      response_format: { type: 'json_schema', json_schema: { name: 'task_result', schema } },
    });
    const messages = body.messages as Array<{ role: string; content: string }>;
    expect(messages[1]).toEqual({ role: 'user', content: 'Name a tent' });
    expect(messages[2].content).toContain('/: must have property "name"');
  });

  it('answers { text } without a schema, and asks for no structured output', async () => {
    reply = content('Alpine 2');
    expect(await step()).toEqual({ text: 'Alpine 2' });
    expect(received.at(-1)!.body).not.toHaveProperty('response_format');
  });

  it('hands back an unparseable answer as such, for the runner to refuse and ask again', async () => {
    reply = content('Sure! Here is your JSON: {');
    expect(await step({ resultSchema: { type: 'object' } })).toBeInstanceOf(UnparseableAnswer);
  });

  it.each([
    [
      'an HTTP error, without reading its body',
      json(401, { error: { message: 'bad key sk-secret-123' } }),
      /HTTP 401\.$/,
    ],
    ['a body that is not JSON', json(200, '<html>'), /not JSON/],
    ['no message', json(200, { choices: [] }), /no answer/],
    [
      'a refusal',
      json(200, { choices: [{ message: { content: null, refusal: 'I cannot help' } }] }),
      /refused the task: I cannot help/,
    ],
    ['an answer over the byte cap', json(200, 'x'.repeat(TASK_ANSWER_MAX_BYTES + 10)), /over 1048576 bytes/],
  ])('fails the task with a clear error for %s', async (_name, answer, message) => {
    reply = answer;
    const error = await step().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskEngineError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sk-secret');
  });

  it('fails with a clear error when the endpoint cannot be reached', async () => {
    const unreachable = createOpenAiTaskEngine({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      models: { fast: 'f', smart: 's', 'super-smart': 'x' },
    });
    await expect(
      unreachable.step({
        prompt: 'x',
        model: 'fast',
        resultSchema: null,
        widgetId: 'w',
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/^The model could not be reached/);
  });

  it("gives up at once with the signal's reason when the task is cancelled", async () => {
    reply = () => {}; // never answers
    const controller = new AbortController();
    const pending = step({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    controller.abort(new Error('timed out'));
    await expect(pending).rejects.toThrow('timed out');
  });
});
