import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { typeCheckConsumer } from './type-check-consumer';

// The published schema modules as an integrator meets them: `service-widget/schemas/v20240910`, resolved through
// package.json `exports` by plain Node and by TypeScript, from the built dist/ (run `npm run build` first).
const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('service-widget/schemas/v20240910', () => {
  it('is built as a module of its own, with its type declarations', () => {
    expect(existsSync(resolve(root, 'dist/schemas/v20240910.js')), 'run `npm run build` first').toBe(true);
    expect(existsSync(resolve(root, 'dist/schemas/v20240910.d.ts'))).toBe(true);
  });

  it('resolves by its package name in plain Node and validates with no other import', async () => {
    // Self-reference by package name goes through the `exports` map exactly as it does from node_modules.
    const script = `
      const m = await import('service-widget/schemas/v20240910');
      const out = {
        version: m.VERSION,
        good: m.parseOrderCancellationResponse({ cancelled: false, reason: 'Already shipped' }),
        bad: m.parseOrderCancellationResponse({ cancelled: null, reason: 'x', refund: 1 }),
        request: m.parseOrderCancellationRequest({ kind: 'order-cancellation', widgetId: 'w', conversationId: 'c',
          orderId: '1004', requestedAt: new Date(0).toISOString() }).ok,
        standard: typeof m.OrderCancellationResponseSchema['~standard']?.validate,
      };
      console.log(JSON.stringify(out));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    expect(JSON.parse(stdout)).toStrictEqual({
      version: '2024-09-10',
      good: { ok: true, value: { cancelled: false, reason: 'Already shipped' } },
      bad: {
        ok: false,
        issues: [
          { path: 'cancelled', message: 'must be a boolean, not null' },
          { path: 'refund', message: 'is not a field of this version; put extra data in "extra"' },
        ],
      },
      request: true,
      standard: 'function',
    });
  });

  it('gives TypeScript users the inferred types through the same export', async () => {
    const result = await typeCheckConsumer(
      `import { type OrderCancellationResponse, parseOrderCancellationResponse } from 'service-widget/schemas/v20240910';
const answer: OrderCancellationResponse = { cancelled: true, reason: '' };
const result = parseOrderCancellationResponse(answer);
if (result.ok) { const cancelled: boolean = result.value.cancelled; void cancelled; }
// @ts-expect-error reason is required by version 2024-09-10
const incomplete: OrderCancellationResponse = { cancelled: true };
void incomplete;
`,
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
