// The `hidden` setting (SPEC: personalization data and widget settings; DESIGN: settings), in every combination of
// value × embedding × viewport, and the API calls that flip it afterwards.
import type { BrowserContextOptions, Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  isLauncherShown,
  MOBILE,
  setupE2E,
  storeFrame,
  type TestWindow,
  waitForReady,
} from './harness';

const e2e = setupE2E();

type Hidden = 'true' | 'false' | 'absent';
type Embedding = 'on a top-level page' | 'inside an iframe';

const values: Hidden[] = ['true', 'false', 'absent'];
const embeddings: Embedding[] = ['on a top-level page', 'inside an iframe'];
const viewports: [string, BrowserContextOptions][] = [
  ['desktop 1280×800', DESKTOP],
  ['mobile 390×844', MOBILE],
];

/** DESIGN: true → hidden everywhere; false → shown everywhere; absent → hidden only inside an iframe. */
const expectedShown = (hidden: Hidden, embedding: Embedding): boolean =>
  hidden === 'false' || (hidden === 'absent' && embedding === 'on a top-level page');

async function openStore(page: Page, hidden: Hidden, embedding: Embedding): Promise<Page | Frame> {
  if (embedding === 'on a top-level page') {
    await page.goto(e2e.url(`/?hidden=${hidden}`));
    return page;
  }
  await page.goto(e2e.url(`/iframe.html?hidden=${hidden}`));
  return storeFrame(page);
}

/** Calls a `window.Service` method in the store's own window (the frame's, in the iframe case). */
const call = (target: Page | Frame, method: 'showLauncher' | 'hideLauncher' | 'setHidden', arg?: boolean) =>
  target.evaluate(
    ([m, a]) => {
      const api = (window as unknown as TestWindow).Service;
      if (!api) throw new Error('window.Service is undefined');
      if (m === 'setHidden') api.setHidden(a as boolean);
      else api[m]();
      return api.hidden;
    },
    [method, arg] as const,
  );

describe('hidden setting', () => {
  for (const [viewportName, viewport] of viewports) {
    for (const embedding of embeddings) {
      for (const hidden of values) {
        const shown = expectedShown(hidden, embedding);
        it(`hidden ${hidden} ${embedding}, ${viewportName}: launcher ${shown ? 'visible' : 'hidden'} on load, then the API flips it`, async () => {
          const { page } = await e2e.newPage(viewport);
          const store = await openStore(page, hidden, embedding);
          await waitForReady(store);

          await expect.poll(() => isLauncherShown(store)).toBe(shown);
          expect(await store.evaluate(() => (window as unknown as TestWindow).Service?.hidden)).toBe(!shown);

          expect(await call(store, 'showLauncher')).toBe(false);
          await expect.poll(() => isLauncherShown(store)).toBe(true);

          expect(await call(store, 'hideLauncher')).toBe(true);
          await expect.poll(() => isLauncherShown(store)).toBe(false);

          expect(await call(store, 'setHidden', false)).toBe(false);
          await expect.poll(() => isLauncherShown(store)).toBe(true);

          expect(await call(store, 'setHidden', true)).toBe(true);
          await expect.poll(() => isLauncherShown(store)).toBe(false);
        });
      }
    }
  }
});
