// The npm package's types as an integrator's TypeScript sees them under `moduleResolution: node16` (what Node ESM
// projects use): the root entry and `service-widget/client` resolve by package name, and their types are real (a
// wrong argument is an error), not `any`. Needs `npm run build` (dist/*.d.ts).
import { describe, expect, it } from 'vitest';
import { typeCheckConsumer } from './type-check-consumer';

const CONSUMER = `import { load, type ServiceApi } from 'service-widget';
import { ProductDataClient, TaskClient, type ResultOf } from 'service-widget/client';

const tasks = new TaskClient({ baseUrl: 'https://assistant.example.com', apiKey: 'nsk_example' });
const products = new ProductDataClient({ baseUrl: 'https://assistant.example.com', apiKey: 'k', websiteTracker: 'demo' } as ConstructorParameters<typeof ProductDataClient>[0]);
const schema = { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } }, required: ['names'] } as const;
type Names = ResultOf<typeof schema>;
const names: Names = { names: ['Trail Runner'] };
const api: Promise<ServiceApi> = load({ widgetId: 'demo' });
void tasks; void products; void names; void api;
// @ts-expect-error widgetId is a string
void load({ widgetId: 42 });
// @ts-expect-error a task client needs its API key
void new TaskClient({ baseUrl: 'https://assistant.example.com' });
`;

describe('the package types under node16 resolution', () => {
  it('resolve for service-widget and service-widget/client, and are real types', async () => {
    const result = await typeCheckConsumer(CONSUMER, ['--skipLibCheck', 'false']);
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 90_000);
});
