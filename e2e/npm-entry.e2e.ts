import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The npm entry as an SSR framework meets it: the built `dist/index.js` imported in Node, where there is no window.
const entry = resolve(import.meta.dirname, '../dist/index.js');

describe('dist/index.js on a server', () => {
  it('imports without touching window or document', async () => {
    expect(existsSync(entry), 'run `npm run build` first').toBe(true);
    expect('window' in globalThis).toBe(false);
    const mod = await import(entry);
    expect(typeof mod.load).toBe('function');
  });

  it('load() rejects with a [service] message instead of throwing', async () => {
    const { load } = await import(entry);
    let thrown: unknown;
    let result: Promise<unknown> | undefined;
    try {
      result = load({ widgetId: 'demo' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeUndefined();
    await expect(result).rejects.toThrow(/\[service\]/);
  });

  it('ships its type declarations beside it', () => {
    expect(existsSync(resolve(import.meta.dirname, '../dist/index.d.ts'))).toBe(true);
  });
});
