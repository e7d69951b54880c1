// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANNOT_SERVE } from '../../tasks/local-task-engine';
import { ALICE, BOB, settled, startTaskService, type TaskTestService } from '../../testing/task-test-service';

// The task API over real HTTP with the local engine (SPEC "Endpoints", "Errors", "Authentication"; DESIGN "Task
// API"): authentication, every input rule, the lifecycle to `completed` and `failed`, and hostile input. The rate
// limit is raised here so the suite can send many requests; rate-limit.test.ts holds it at 10.

let service: TaskTestService;
beforeAll(async () => {
  service = await startTaskService({ tasks: { rateLimit: 10_000 } });
}, 60_000);
afterAll(() => service.close());

const created = async (body: unknown, key = ALICE): Promise<string> => {
  const res = await service.create(body, key);
  expect(res.status).toBe(200);
  const json = (await res.json()) as { taskId: string; status: string };
  expect(json.status).toBe('pending');
  expect(json.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  return json.taskId;
};
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;

describe('authentication', () => {
  it('answers 401 with the error shape and WWW-Authenticate when the key is missing, wrong or not Bearer', async () => {
    for (const key of [null, 'nsk_not_a_configured_key_000', `${ALICE}x`, '']) {
      const res = await service.create({ prompt: 'List tents' }, key);
      expect(res.status, String(key)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await errorOf(res)).code).toBe('unauthorized');
    }
    const basic = await fetch(`${service.url}/v0/api/task/result?taskId=x`, {
      headers: { authorization: `Basic ${ALICE}` },
    });
    expect(basic.status).toBe(401);
    expect((await service.result('00000000-0000-4000-8000-000000000000', { key: null })).status).toBe(401);
  });

  it("answers 404 for another user's task, exactly as for an unknown one", async () => {
    const taskId = await created({ prompt: 'List tents' });
    const other = await service.result(taskId, { key: BOB });
    expect(other.status).toBe(404);
    expect(await errorOf(other)).toEqual({ code: 'not_found', message: 'No such task.' });
    const unknown = await service.result('6f1c1a57-6a0e-4a43-9a36-3d1b5f0d0c11');
    expect(unknown.status).toBe(404);
  });
});

describe('POST /v0/api/task', () => {
  it('stores the defaults: model smart, maxCredits 1000, no schema', async () => {
    const taskId = await created({ prompt: 'List tents' });
    const task = await service.runtime.tasks.store.get('alice', taskId);
    expect(task).toMatchObject({ model: 'smart', maxCredits: 1000, resultSchema: null, widgetId: 'shop' });
  });

  it('accepts a prompt of 1 and of 16,000 characters (astral characters count once)', async () => {
    await created({ prompt: 'x' });
    await created({ prompt: '🏕'.repeat(16_000) });
  });

  it.each([
    [{}, /prompt is required/],
    [{ prompt: '' }, /must not be empty/],
    [{ prompt: '   ' }, /must not be empty/],
    [{ prompt: 'x'.repeat(16_001) }, /16001 characters; at most 16000/],
    [{ prompt: 42 }, /must be a string/],
    [{ prompt: 'x', model: 'gpt-4' }, /model must be one of fast, smart, super-smart/],
    [{ prompt: 'x', model: null }, /model must be one of/],
    [{ prompt: 'x', maxCredits: 0 }, /positive integer/],
    [{ prompt: 'x', maxCredits: -5 }, /positive integer/],
    [{ prompt: 'x', maxCredits: 1.5 }, /positive integer/],
    [{ prompt: 'x', maxCredits: '10' }, /positive integer/],
    [{ prompt: 'x', maxCredits: 1e12 }, /positive integer/],
    [{ prompt: 'x', schema: {} }, /Unknown field "schema"/],
    [['prompt'], /JSON object/],
    [null, /JSON object/],
  ])('refuses an invalid body with 400 invalid_request: %#', async (body, message) => {
    const res = await service.create(body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
  });

  it('refuses a body that is not JSON with 400, and one over 128 KB with 413', async () => {
    const broken = await service.create('{"prompt": "x"');
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toBe('The body must be JSON.');
    const huge = await service.create({ prompt: 'x'.repeat(140_000) });
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).code).toBe('body_too_large');
  });

  it('refuses deeply nested JSON as a clear 400, and takes a deep schema within 5 KB', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const res = await service.create(deep);
    expect(res.status).toBe(400);
    const nested = (depth: number) => JSON.parse(`${'{"items":'.repeat(depth)}{}${'}'.repeat(depth)}`);
    expect((await service.create({ prompt: 'x', resultSchema: nested(600) })).status).toBe(400); // over 5 KB
    expect((await service.create({ prompt: 'List tents', resultSchema: nested(500) })).status).toBe(200);
  });

  it.each([
    ['oneOf', { oneOf: [{ type: 'string' }] }],
    ['anyOf', { type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } }],
    ['not', { not: { type: 'string' } }],
    // JSON.parse: an object literal with `then` reads as a thenable to the linter.
    ['if/then/else', JSON.parse('{ "if": { "type": "string" }, "then": {}, "else": {} }')],
    ['minimum', { type: 'object', properties: { n: { type: 'number', minimum: 1 } } }],
    ['maximum', { type: 'number', maximum: 1 }],
    ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 1 }],
    ['multipleOf', { type: 'integer', multipleOf: 2 }],
    ['minLength', { type: 'string', minLength: 1 }],
    ['maxLength', { type: 'array', items: { type: 'string', maxLength: 3 } }],
    ['minItems', { type: 'array', minItems: 1 }],
    ['maxItems', { type: 'array', maxItems: 1 }],
    ['minContains', { type: 'array', contains: {}, minContains: 2 }],
    ['a type array', { type: ['string', 'null'] }],
    ['type null', { type: 'null' }],
    ['an unknown type', { type: 'date' }],
    ['a remote $ref', { $ref: 'https://schemas.example/product.json' }],
    ['a $ref to nothing', { $ref: '#/$defs/missing' }],
    ['another draft', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }],
    ['an invalid keyword value', { type: 'object', required: 'name' }],
    ['an invalid pattern', { type: 'string', pattern: '(' }],
    ['a schema that is not an object', ['type', 'object']],
    ['a boolean schema', true],
    ['null', null],
    ['over 5 KB', { type: 'object', description: 'x'.repeat(5 * 1024) }],
  ])('refuses a resultSchema with %s (400 invalid_result_schema)', async (_name, resultSchema) => {
    const res = await service.create({ prompt: 'List tents', resultSchema });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_result_schema');
  });

  it('accepts rejected keyword names where they are property names or data, and local $ref/$defs', async () => {
    await created({
      prompt: 'List tents',
      resultSchema: {
        type: 'object',
        properties: { minimum: { type: 'number' }, items: { $ref: '#/$defs/list' } },
        $defs: { list: { type: 'array', items: { type: 'string', enum: ['oneOf', 'anyOf'] } } },
        additionalProperties: false,
      },
    });
  });
});

describe('GET /v0/api/task/result', () => {
  it('refuses a missing or malformed taskId with 400', async () => {
    expect(
      (await fetch(`${service.url}/v0/api/task/result`, { headers: { authorization: `Bearer ${ALICE}` } }))
        .status,
    ).toBe(400);
    for (const id of ['nope', "1' OR '1'='1", '<script>alert(1)</script>']) {
      const res = await service.result(id);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('taskId must be a UUID.');
    }
  });
});

describe('task lifecycle with the local engine', () => {
  it('completes a catalog question with { text } when no resultSchema is given', async () => {
    const taskId = await created({ prompt: 'List tents under 200 in stock', model: 'fast' });
    const body = await settled(service, taskId);
    expect(body).toEqual({
      taskId,
      status: 'completed',
      result: { text: expect.stringContaining('Alpine 2 Tent') },
    });
    expect((body.result as { text: string }).text).not.toContain('Summit 3');
    expect((body.result as { text: string }).text).not.toContain('Breeze 1');
  });

  it('answers into the requested schema, and the result validates against it', async () => {
    const resultSchema = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        products: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              price: { type: 'number' },
              url: { type: 'string' },
              inStock: { type: 'boolean' },
            },
            required: ['name', 'price', 'url'],
            additionalProperties: false,
          },
        },
      },
      required: ['count', 'products'],
      additionalProperties: false,
    };
    const taskId = await created({ prompt: 'Show all tents', resultSchema });
    const body = await settled(service, taskId);
    expect(body.status).toBe('completed');
    const result = body.result as { count: number; products: Array<{ name: string; price: number }> };
    expect(result.count).toBe(3);
    expect(result.products.map((p) => p.name).sort()).toEqual([
      'Alpine 2 Tent',
      'Breeze 1 Tent',
      'Summit 3 Tent',
    ]);
    expect(result.products.find((p) => p.name === 'Alpine 2 Tent')).toEqual({
      name: 'Alpine 2 Tent',
      price: 189,
      url: 'https://shop.example/p/tent-alpine-2',
      inStock: true,
    });
  });

  it('compares products into an array schema', async () => {
    const taskId = await created({
      prompt: 'Compare the Alpine 2 and the Summit 3',
      resultSchema: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, price: { type: 'string' } },
          required: ['name', 'price'],
        },
      },
    });
    expect(await settled(service, taskId)).toMatchObject({
      status: 'completed',
      result: [
        { name: 'Alpine 2 Tent', price: '189' },
        { name: 'Summit 3 Tent', price: '349' },
      ],
    });
  });

  it('answers "the cheapest" as one product into an object schema', async () => {
    const taskId = await created({
      prompt: 'What is the cheapest tent?',
      resultSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
        required: ['name', 'price'],
      },
    });
    expect(await settled(service, taskId)).toMatchObject({
      status: 'completed',
      result: { name: 'Breeze 1 Tent', price: 129 },
    });
  });

  it('fails a prompt the local engine cannot serve with a clear error', async () => {
    const taskId = await created({ prompt: 'Write a poem about the sea' });
    expect(await settled(service, taskId)).toEqual({ taskId, status: 'failed', error: CANNOT_SERVE });
  });

  it('fails, never completes with an invalid result, when the schema asks for what the catalog lacks', async () => {
    const taskId = await created({
      prompt: 'List tents',
      resultSchema: {
        type: 'object',
        properties: { warrantyYears: { type: 'integer' } },
        required: ['warrantyYears'],
      },
    });
    const body = await settled(service, taskId);
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/cannot answer into resultSchema: \/warrantyYears/);
    expect(body).not.toHaveProperty('result');
  });

  it('fails with a budget error when the first step costs more than maxCredits, and charges nothing', async () => {
    const taskId = await created({ prompt: 'List tents', model: 'super-smart', maxCredits: 9 });
    const body = await settled(service, taskId);
    expect(body).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Credit budget exceeded/) });
    expect((await service.runtime.tasks.store.get('alice', taskId))?.creditsSpent).toBe(0);
  });

  it('charges 1, 3 and 10 credits per step for fast, smart and super-smart', async () => {
    for (const [model, cost] of [
      ['fast', 1],
      ['smart', 3],
      ['super-smart', 10],
    ] as const) {
      const taskId = await created({ prompt: 'List stoves', model, maxCredits: cost });
      expect((await settled(service, taskId)).status).toBe('completed');
      expect((await service.runtime.tasks.store.get('alice', taskId))?.creditsSpent).toBe(cost);
    }
  });

  it('keeps hostile text as data: an XSS prompt gets a JSON answer that does not echo it as HTML', async () => {
    const taskId = await created({ prompt: '<img src=x onerror=alert(1)> javascript:alert(1)' });
    const res = await service.result(taskId);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await settled(service, taskId);
    expect(JSON.stringify(body)).not.toContain('<img');
  });

  it('reads the catalog of the widget the key names: bob (no widgetId) gets the first widget', async () => {
    const taskId = await created({ prompt: 'List stoves' }, BOB);
    expect(await settled(service, taskId, BOB)).toMatchObject({
      status: 'completed',
      result: { text: expect.stringContaining('Jet Camping Stove') },
    });
  });
});
