// axe-core in the page, for the browser specs: the violations of the whole document (the widget's shadow root
// included), once animations are done.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { findPackageRoot } from '../demo/store-server';
import { animationsDone, nextFrames } from './harness';

const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string;
  targets: unknown[];
}

/** Runs axe on the page as it is now (the script is added once per page). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  await animationsDone(page);
  await nextFrames(page);
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run(
          context: Document,
          options: object,
        ): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
      };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  });
}

/**
 * The console's violation ids: axe is installed before the console's own script (`context.addInitScript` with
 * `AXE_PATH`), since its CSP allows no script to be added later.
 */
export async function consoleAxe(page: Page): Promise<string[]> {
  await nextFrames(page);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(d: Document, o: object): Promise<{ violations: { id: string }[] }> } }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => v.id);
  });
}
