// The console's Settings section (issue 22) in Chromium against the demo service and its real settings API: an agent
// does not see it; an admin edits the presentation (the contrast warning), adds an action whose URL placeholders are
// checked against its parameters as they type, saves (live on the widget's own config), meets a refused save (focus
// on the field), a conflict with another save (reload offered), the versions with a diff, and a rollback. Every
// editor is looked at with axe and photographed at 1280 and 390 wide, light and dark.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_AGENTS, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { DESKTOP, MOBILE, nextFrames, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = process.env.CONSOLE_SETTINGS_SHOTS ?? '/tmp/console-settings-shots';
const ANNA_KEY = DEMO_AGENTS[0].key;
const EDITORS = [
  'Presentation',
  'Instructions',
  'Knowledge',
  'Actions',
  'Webhooks',
  'Limits',
  'Site',
  'Versions',
] as const;

interface AxeWindow extends Window {
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>;
  };
}

/** The console signed in with `key`; dialogs (the "leave unsaved changes?" question) are answered by `answer`. */
async function openConsole(key: string, options: { viewport?: typeof DESKTOP; dark?: boolean } = {}) {
  const {
    page,
    context,
    console: lines,
  } = await e2e.newPage({
    ...(options.viewport ?? DESKTOP),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  // Before the page's own script: the CSP does not apply to init scripts.
  await context.addInitScript({ path: AXE_PATH });
  const dialogs: string[] = [];
  let answer = false;
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void (answer ? dialog.accept() : dialog.dismiss());
  });
  await page.goto(`${e2e.demo.serviceUrl}/console`);
  await page.getByLabel('Your key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  return {
    page,
    dialogs,
    answerDialogs: (value: boolean) => {
      answer = value;
    },
    errors: () => lines.filter((l) => l.type === 'pageerror').map((l) => l.text),
  };
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Presentation', level: 2 }).waitFor();
}

async function showEditor(page: Page, name: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Settings editors' })
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .click();
  await page.getByRole('heading', { name, level: 2 }).waitFor();
}

async function axeViolations(page: Page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const result = await (window as unknown as AxeWindow).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target) }));
  });
}

/** The settings API called from the page (same origin, the admin key), as another admin's console would. */
const api = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body, key }) => {
      const res = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body, key: DEMO_ADMIN_KEY },
  );
const SETTINGS_PATH = `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`;

/** The ids of the texts an element's `aria-describedby` points at, read as one string. */
const description = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    return (el?.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | ');
  }, selector);

const focusedPath = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-path') ?? null);

describe('console settings', () => {
  it('is not offered to an agent, whose key the settings API refuses', async () => {
    const { page } = await openConsole(ANNA_KEY);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await expect(sections.getByRole('link', { name: 'Conversations' }).isVisible()).resolves.toBe(true);
    expect(await sections.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    const refused = await page.evaluate(
      async ({ path, key }) => (await fetch(path, { headers: { authorization: `Bearer ${key}` } })).status,
      { path: SETTINGS_PATH, key: ANNA_KEY },
    );
    expect(refused).toBe(403);
  });

  it('edits, checks as the merchant types, saves live, and shows a refused save at its field', async () => {
    const { page, dialogs, errors } = await openConsole(DEMO_ADMIN_KEY);
    await openSettings(page);
    const start = (await api(page, 'GET', SETTINGS_PATH)).body as { version: number };

    // The contrast warning: white on a light yellow is far below AA; a dark blue is fine.
    const hex = page.getByLabel('Theme colour', { exact: true });
    await hex.fill('#ffd33d');
    expect(await description(page, '[data-path="themeColor"]')).toMatch(
      /^Warning: White text on this colour/,
    );
    await hex.fill('#0b5cad');
    expect(await description(page, '[data-path="themeColor"]')).not.toContain('Warning');
    // Leaving with unsaved changes that are not kept as the preview's draft either (a title too long is never
    // stored) asks first; "no" stays. (Changes stored as the draft are not lost: e2e/console-preview.e2e.ts.)
    await page.getByLabel('Title', { exact: true }).fill('x'.repeat(61));
    await expect(page.getByText('Unsaved changes', { exact: true }).isVisible()).resolves.toBe(true);
    await page.getByText(/Preview shows your last valid draft/).waitFor();
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Conversations' })
      .click();
    expect(dialogs).toHaveLength(1);
    await expect(page.getByRole('heading', { name: 'Presentation', level: 2 }).isVisible()).resolves.toBe(
      true,
    );
    await page.getByLabel('Title', { exact: true }).fill('Ridgeline helper');

    // An action, its URL checked against its parameters as they are typed.
    await showEditor(page, 'Actions');
    const count = await page.locator('.action-card').count();
    await page.getByRole('button', { name: 'Add an action' }).click();
    const base = `actions[${count}]`;
    // The new row takes the focus once it is drawn (a moment after the click on a busy machine).
    await expect.poll(() => focusedPath(page)).toBe(`${base}.name`);
    await page.locator(`[data-path="${base}.name"]`).fill('Loyalty points');
    await page.locator(`[data-path="${base}.method"]`).selectOption('GET');
    const url = page.locator(`[data-path="${base}.url"]`);
    await url.fill(`${e2e.demo.integratorUrl}/points/{customerId}`);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await description(page, `[data-path="${base}.url"]`)).toContain('{customerId} is not a parameter');
    await page.locator(`#setting-actions-${count}-add-parameter`).click();
    await page.locator(`[data-path="${base}.parameters[0].name"]`).fill('customerId');
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    await page.locator(`#setting-actions-${count}-add-parameter`).click();
    await page.locator(`[data-path="${base}.parameters[1].name"]`).fill('season');
    expect(await description(page, `[data-path="${base}.parameters[1].name"]`)).toContain(
      '{season} is not in the URL: this GET sends it as a query parameter',
    );
    await page
      .locator(`[data-path="${base}.parameters[1].name"]`)
      .locator('xpath=ancestor::fieldset[1]')
      .getByRole('button', { name: /^Remove parameter/ })
      .click();

    // A title of spaces: the console lets it through (empty means "the default"), the service refuses it; the
    // message sits at the field and the focus moves there, from another editor.
    await showEditor(page, 'Presentation');
    await page.getByLabel('Title', { exact: true }).fill('   ');
    await showEditor(page, 'Limits');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Presentation', level: 2 }).waitFor();
    await expect.poll(() => focusedPath(page)).toBe('title');
    expect(await description(page, '[data-path="title"]')).toMatch(/^Error: /);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/e2e-refused-save.png`, fullPage: true });

    await page.getByLabel('Title', { exact: true }).fill('Ridgeline helper');
    expect(await description(page, '[data-path="title"]')).not.toContain('Error');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved as version ${start.version + 1}. It is live now.`).waitFor();
    await expect(page.getByText('Unsaved changes', { exact: true }).count()).resolves.toBe(0);

    // Live: the widget's own config says so within a second or two (every instance polls the latest version).
    await expect
      .poll(
        async () => {
          const res = await fetch(`${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}/config`, {
            headers: { origin: new URL(e2e.demo.storeUrl).origin },
          });
          return ((await res.json()) as { title?: string }).title;
        },
        { timeout: 5000 },
      )
      .toBe('Ridgeline helper');
    expect(errors()).toEqual([]);
  });

  it('adds a second shop domain in Site: a path refused at its row, then saved, and the widget API answers it', async () => {
    const { page, errors } = await openConsole(DEMO_ADMIN_KEY);
    await openSettings(page);
    const start = (await api(page, 'GET', SETTINGS_PATH)).body as {
      version: number;
      settings: { allowedOrigins: string[] };
    };
    const NEW_ORIGIN = 'https://second-shop.example';
    const configFrom = (origin: string) =>
      fetch(`${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}/config`, { headers: { origin } });
    // Before: a browser on the new domain is refused.
    expect((await configFrom(NEW_ORIGIN)).status).toBe(403);

    await showEditor(page, 'Site');
    const n = start.settings.allowedOrigins.length;
    await page.getByRole('button', { name: 'Add an origin' }).click();
    await expect.poll(() => focusedPath(page)).toBe(`allowedOrigins[${n}]`);
    // With a path, as a merchant pasting a page's address would: the service refuses it beside that row.
    await page.locator(`[data-path="allowedOrigins[${n}]"]`).fill(`${NEW_ORIGIN}/shop`);
    await page.getByRole('button', { name: 'Add a path' }).click();
    await page.locator('[data-path="hideUrls[0]"]').fill('/checkout');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => focusedPath(page)).toBe(`allowedOrigins[${n}]`);
    expect(await description(page, `[data-path="allowedOrigins[${n}]"]`)).toMatch(/^Error: /);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/e2e-site-refused-origin.png`, fullPage: true });

    await page.locator(`[data-path="allowedOrigins[${n}]"]`).fill(NEW_ORIGIN);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved as version ${start.version + 1}. It is live now.`).waitFor();
    // Live on the service: the new domain's browsers get the widget, and it hides the launcher on the checkout.
    await expect.poll(async () => (await configFrom(NEW_ORIGIN)).status, { timeout: 5000 }).toBe(200);
    expect(((await (await configFrom(NEW_ORIGIN)).json()) as { hideUrls?: string[] }).hideUrls).toEqual([
      '/checkout',
    ]);

    // Back as it was, for the other specs.
    await page.getByRole('button', { name: `Remove origin ${n + 1}` }).click();
    await page.getByRole('button', { name: 'Remove path 1' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved as version ${start.version + 2}. It is live now.`).waitFor();
    await expect.poll(async () => (await configFrom(NEW_ORIGIN)).status, { timeout: 5000 }).toBe(403);
    expect(errors()).toEqual([]);
  });

  it('says when another save came first, reloads when asked, and rolls back after a confirmation', async () => {
    const { page, errors } = await openConsole(DEMO_ADMIN_KEY);
    await openSettings(page);
    await page.getByLabel('Greeting').fill('Mine, not saved yet.');
    const live = (await api(page, 'GET', SETTINGS_PATH)).body as {
      version: number;
      settings: Record<string, unknown>;
    };
    const theirs = await api(page, 'PUT', SETTINGS_PATH, {
      baseVersion: live.version,
      settings: { ...live.settings, greeting: 'Saved elsewhere first.' },
    });
    expect(theirs.status).toBe(200);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Another save came first/).waitFor();
    // Nothing kept or dropped silently: the merchant's text is still there until they reload.
    expect(await page.getByLabel('Greeting').inputValue()).toBe('Mine, not saved yet.');
    await page.screenshot({ path: `${SHOTS}/e2e-conflict.png` });
    await page.getByRole('button', { name: 'Reload the latest version' }).click();
    await expect.poll(() => page.getByLabel('Greeting').inputValue()).toBe('Saved elsewhere first.');

    // The versions, newest first, and the latest against the one before.
    await showEditor(page, 'Versions');
    const rows = page.locator('table.versions tbody tr');
    await rows.first().waitFor();
    const newest = (theirs.body as { version: number }).version;
    expect(await rows.first().locator('th').textContent()).toContain(String(newest));
    expect(await rows.last().textContent()).toContain('The config file');
    await page.getByRole('button', { name: `Show changes of version ${newest}` }).click();
    await page.getByRole('heading', { name: `Version ${newest} against version ${newest - 1}` }).waitFor();
    const diff = page.locator('.diff-row', { hasText: 'Greeting' });
    await diff.waitFor();
    expect(await diff.textContent()).toContain('Saved elsewhere first.');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/e2e-versions-diff.png`, fullPage: true });

    // Roll back to the config file's version: asked first (Cancel has the focus), then a new version.
    await page.getByRole('button', { name: 'Roll back to this version (1)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll back to version 1?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/e2e-rollback-dialog.png` });
    // By keyboard: Escape cancels and the focus returns to the button; Tab, Enter confirms.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('rollback-1');
    expect(await dialog.count()).toBe(0);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Roll back');
    await page.keyboard.press('Enter');
    await page
      .getByText(`Rolled back: version ${newest + 1} has the settings of version 1. It is live now.`)
      .waitFor();
    const after = (await api(page, 'GET', SETTINGS_PATH)).body as {
      version: number;
      settings: { title?: string };
    };
    const first = (await api(page, 'GET', `${SETTINGS_PATH}/versions/1`)).body as { settings: unknown };
    expect(after.version).toBe(newest + 1);
    expect(after.settings).toEqual(first.settings);
    expect(errors()).toEqual([]);
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['narrow', MOBILE],
  ] as const)
    for (const dark of [false, true])
      it(`every editor passes axe and is photographed (${name}, ${dark ? 'dark' : 'light'})`, async () => {
        await mkdir(SHOTS, { recursive: true });
        const { page, errors } = await openConsole(DEMO_ADMIN_KEY, { viewport, dark });
        await openSettings(page);
        for (const editor of EDITORS) {
          await showEditor(page, editor);
          if (editor === 'Versions') await page.locator('table.versions tbody tr').first().waitFor();
          expect(await axeViolations(page), `${editor}, ${name}, ${dark ? 'dark' : 'light'}`).toEqual([]);
          await page.screenshot({
            path: `${SHOTS}/${name}-${dark ? 'dark' : 'light'}-${editor.toLowerCase()}.png`,
            fullPage: true,
          });
        }
        expect(errors()).toEqual([]);
      });
});
